import type { PaymentTemplate, TemplateAssignment, TemplateInputParsed, TemplateUpdateParsed } from '@kidogo/contracts';
import type { PaymentTemplate as TemplateRow, Prisma, TemplateAssignment as AssignmentRow } from '../generated/prisma/client.js';
import { dateOnly, iso, money, moneyOrNull } from '../catalog/format.js';

export function toTemplate(t: TemplateRow): PaymentTemplate {
  return {
    template_id: t.id,
    organization_id: t.organization_id,
    template_name: t.template_name,
    description: t.description,
    deposit_made: money(t.deposit_made),
    daily_price: money(t.daily_price),
    activation_price: money(t.activation_price),
    grace_period_days: t.grace_period_days,
    currency: t.currency as PaymentTemplate['currency'],
    payment_method: t.payment_method,
    frequency: t.frequency,
    free_code_price: moneyOrNull(t.free_code_price),
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

export function toTemplateCreate(orgId: string, t: TemplateInputParsed): Prisma.PaymentTemplateUncheckedCreateInput {
  return {
    organization_id: orgId,
    template_name: t.template_name,
    description: t.description ?? null,
    deposit_made: t.deposit_made,
    daily_price: t.daily_price,
    activation_price: t.activation_price,
    grace_period_days: t.grace_period_days,
    currency: t.currency,
    payment_method: t.payment_method ?? null,
    frequency: t.frequency ?? null,
    free_code_price: t.free_code_price ?? null,
  };
}

/** Only the fields that were sent. */
export function toTemplateUpdate(t: TemplateUpdateParsed): Prisma.PaymentTemplateUpdateInput {
  const { organization_id: _ignored, ...fields } = t;
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) data[k] = v;
  return data as Prisma.PaymentTemplateUpdateInput;
}

/** What an assignment reply needs besides the row. */
export const ASSIGNMENT_INCLUDE = {
  customer: { select: { customer_name: true } },
  template: { select: { template_name: true } },
  item: { select: { serial_number: true } },
} satisfies Prisma.TemplateAssignmentInclude;

export function toAssignment(
  a: AssignmentRow & {
    customer: { customer_name: string };
    template: { template_name: string };
    item: { serial_number: string } | null;
  },
): TemplateAssignment {
  return {
    assignment_id: a.id,
    customer_id: a.customer_id,
    customer_name: a.customer.customer_name,
    template_id: a.template_id,
    template_name: a.template.template_name,
    item_id: a.item_id,
    serial_number: a.item?.serial_number ?? null,
    start_date: dateOnly(a.start_date),
    end_date: dateOnly(a.end_date),
    notes: a.notes,
    is_active: a.is_active,
    assigned_by: a.assigned_by,
    assigned_at: a.assigned_at.toISOString(),
    ended_at: iso(a.ended_at),
  };
}
