import type { Invoice, InvoiceSettings, InvoiceStatus, LineItem, OrgInvoiceSettings } from '@kidogo/contracts';
import { iso, isoDay, money } from '../metrics/period.js';

type Dec = { toFixed(n: number): string };

export interface InvoiceRow {
  id: string;
  organization_id: string;
  invoice_number: string;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  description: string | null;
  line_items: unknown;
  subtotal: Dec;
  tax_rate: Dec;
  tax_amount: Dec;
  amount: Dec;
  currency: string;
  status: InvoiceStatus;
  due_date: Date | null;
  paid_at: Date | null;
  payment_tx_hash: string | null;
  payment_submitted_at: Date | null;
  created_by: string | null;
  emailed_at: Date | null;
  emailed_to: string | null;
  created_at: Date;
  updated_at: Date;
  organization?: { name: string | null } | null;
}

export const OPEN_STATUSES: InvoiceStatus[] = ['pending', 'sent', 'draft'];

/**
 * pending, sent and draft invoices whose due date has passed read as overdue.
 * `today` is the business day (InvoicesService.today), as a due date is: a
 * DATE at UTC midnight.
 */
export function effectiveStatus(status: InvoiceStatus, due: Date | null, today: Date): InvoiceStatus {
  return OPEN_STATUSES.includes(status) && due && due < today ? 'overdue' : status;
}

function lineItems(raw: unknown): LineItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((r: Record<string, unknown>) => ({
    description: String(r.description ?? ''),
    quantity: Number(r.quantity ?? 0),
    unit_price: money(String(r.unit_price ?? '0')),
    total_amount: money(String(r.total_amount ?? '0')),
  }));
}

export const InvoicesMapper = {
  invoice(r: InvoiceRow, today: Date): Invoice {
    return {
      invoice_id: r.id,
      invoice_number: r.invoice_number,
      organization_id: r.organization_id,
      organization_name: r.organization?.name ?? null,
      customer_name: r.customer_name,
      customer_email: r.customer_email,
      customer_phone: r.customer_phone,
      description: r.description,
      line_items: lineItems(r.line_items),
      subtotal: money(r.subtotal),
      tax_rate: Number(r.tax_rate.toFixed(2)),
      tax_amount: money(r.tax_amount),
      amount: money(r.amount),
      currency: r.currency || 'USD',
      status: effectiveStatus(r.status, r.due_date, today),
      stored_status: r.status,
      due_date: r.due_date ? isoDay(r.due_date) : null,
      paid_at: iso(r.paid_at),
      payment_tx_hash: r.payment_tx_hash,
      payment_submitted_at: iso(r.payment_submitted_at),
      created_by: r.created_by,
      emailed_at: iso(r.emailed_at),
      emailed_to: r.emailed_to,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  },

  settings(s: {
    default_tax_rate: Dec;
    default_currency: string;
    invoice_prefix: string;
    template_html: string | null;
    default_payment_terms: number;
    issuer_name: string | null;
    issuer_details: string | null;
    updated_at: Date;
  }): InvoiceSettings {
    return {
      default_tax_rate: Number(s.default_tax_rate.toFixed(2)),
      default_currency: s.default_currency as InvoiceSettings['default_currency'],
      invoice_prefix: s.invoice_prefix,
      template_html: s.template_html,
      default_payment_terms: s.default_payment_terms,
      issuer_name: s.issuer_name,
      issuer_details: s.issuer_details,
      updated_at: s.updated_at.toISOString(),
    };
  },

  orgSettings(
    orgId: string,
    row: { default_currency: string; default_payment_terms: number; issuer_name: string | null; issuer_details: string | null; updated_at: Date } | null,
    global: { default_currency: string; default_payment_terms: number },
  ): OrgInvoiceSettings {
    return {
      organization_id: orgId,
      default_currency: (row?.default_currency ?? global.default_currency) as OrgInvoiceSettings['default_currency'],
      default_payment_terms: row?.default_payment_terms ?? global.default_payment_terms,
      billing_name: row?.issuer_name ?? null,
      billing_details: row?.issuer_details ?? null,
      updated_at: iso(row?.updated_at),
    };
  },
};
