import type { MessageHistoryEntry, PaymentHistoryEntry, TokenHistoryEntry } from '@kidogo/contracts';
import { iso, money } from '../metrics/period.js';
import { toRepayment } from '../customers/balances.js';
import { toWarranty } from '../warranties/warranty.js';

type Dec = { toFixed(n: number): string };
/** A timestamp as a Date, or as the ISO text json_agg gives. */
type When = Date | string;
const isoOf = (d: When) => new Date(d).toISOString();

export interface PaymentHistoryRow {
  payment_id: number;
  amount: string;
  paid_at: When;
  status: string;
  customer_name: string | null;
  device_serial: string | null;
  transaction_code: string | null;
  payment_method: string;
}

export const ActivityMapper = {
  token(t: {
    id: number;
    token_value: string;
    token_type: string;
    days_generated: Dec;
    amount_paid: Dec | null;
    created_at: When;
    status: string;
    is_valid: boolean;
    generated_by: string | null;
    customer_name: string | null;
  }): TokenHistoryEntry {
    return {
      id: t.id,
      token: t.token_value,
      token_type: t.token_type,
      days: Number(t.days_generated.toFixed(2)),
      amount_paid: t.amount_paid ? money(t.amount_paid) : null,
      generated_at: isoOf(t.created_at),
      status: t.status,
      is_valid: t.is_valid,
      generated_by: t.generated_by || 'system',
      customer_name: t.customer_name,
    };
  },

  payment(p: PaymentHistoryRow): PaymentHistoryEntry {
    return { ...p, paid_at: isoOf(p.paid_at) };
  },

  message(m: {
    id: number;
    received_message: string | null;
    forwarded_message: string | null;
    recipient_number: string | null;
    amount: Dec | null;
    received_at: When;
    status: string;
    sent_by?: string | null;
  }): MessageHistoryEntry {
    return {
      id: m.id,
      received_message: m.received_message,
      forwarded_message: m.forwarded_message,
      recipient_number: m.recipient_number,
      amount: m.amount ? money(m.amount) : null,
      received_at: isoOf(m.received_at),
      status: m.status,
      sent_by: m.sent_by ?? null,
    };
  },

  device(i: {
    serial_number: string;
    product_name: string;
    product_oem: string | null;
    manufacturer: string | null;
    status: string;
    customer_id: number | null;
    token_count: number;
    is_assigned: boolean;
    assigned_at: Date | null;
    price: Dec;
    total_paid: Dec;
    credit_until: Date | null;
    customer_name: string | null;
    location_name: string | null;
    plan_template_id: number | null;
    plan_template_name: string | null;
    plan_daily_price: Dec | null;
    plan_currency: string | null;
    plan_own: boolean;
    expected: Dec | null;
    paid_towards: Dec | null;
    paid_off_at: Date | null;
    remaining: Dec | null;
    discount: Dec;
    warranty_months: number | null;
    warranty_until: Date | null;
    /** Read as JSON: the dates as PostgreSQL writes them. */
    brought_over: { paid: string; started_at: string; imported_at: string; imported_by: string | null } | null;
    transferred: TransferredJson | null;
  }) {
    return {
      serial_number: i.serial_number,
      product_name: i.product_name,
      product_oem: i.product_oem,
      manufacturer: i.manufacturer,
      status: i.status,
      customer_name: i.customer_name,
      customer_id: i.customer_id,
      token_count: i.token_count,
      is_assigned: i.is_assigned,
      assigned_at: iso(i.assigned_at),
      price: money(i.price),
      total_paid: money(i.total_paid),
      credit_until: iso(i.credit_until),
      location_name: i.location_name,
      payment_plan:
        i.plan_template_id === null
          ? null
          : {
              template_id: i.plan_template_id,
              template_name: i.plan_template_name!,
              daily_price: money(i.plan_daily_price!),
              currency: i.plan_currency!,
              own: i.plan_own,
            },
      repayment: toRepayment(i.expected, i.paid_towards, i.paid_off_at !== null),
      warranty: toWarranty(i),
      remaining: i.remaining === null ? null : money(i.remaining),
      discount: money(i.discount),
      brought_over: i.brought_over && {
        paid: money(i.brought_over.paid),
        started_at: new Date(i.brought_over.started_at).toISOString(),
        imported_at: new Date(i.brought_over.imported_at).toISOString(),
        imported_by: i.brought_over.imported_by,
      },
      transferred: i.transferred && {
        from_customer_id: i.transferred.from_customer_id,
        from_customer_name: i.transferred.from_customer_name,
        paid: money(i.transferred.paid),
        transferred_at: new Date(i.transferred.transferred_at).toISOString(),
        transferred_by: i.transferred.transferred_by,
        reason: i.transferred.reason,
      },
    };
  },
};

/** An account transfer as the device's statement reads it (json_build_object: the date as PostgreSQL writes it). */
export interface TransferredJson {
  from_customer_id: number;
  from_customer_name: string;
  paid: string;
  transferred_at: string;
  transferred_by: string | null;
  reason: string;
}
