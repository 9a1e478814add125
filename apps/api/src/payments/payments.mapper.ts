import type { Payment, PaymentStatus } from '@kidogo/contracts';
import type { Prisma } from '../generated/prisma/client.js';

export interface PaymentWithNames {
  id: number;
  amount: Prisma.Decimal;
  currency: string;
  status: string;
  payment_method: string;
  source: string;
  customer_id: number | null;
  transaction_code: string | null;
  account_reference: string | null;
  payer_phone: string | null;
  payer_name: string | null;
  days_bought: number;
  credit_after: Prisma.Decimal | null;
  recorded_by: string | null;
  hold_reason: string | null;
  paid_at: Date;
  created_at: Date;
  customer: { customer_name: string } | null;
  item: { serial_number: string } | null;
}

export function toPayment(r: PaymentWithNames): Payment {
  return {
    payment_id: r.id,
    amount: r.amount.toFixed(2),
    currency: r.currency,
    status: r.status as PaymentStatus,
    payment_method: r.payment_method,
    source: r.source,
    customer_id: r.customer_id,
    customer_name: r.customer?.customer_name ?? null,
    serial_number: r.item?.serial_number ?? null,
    transaction_code: r.transaction_code,
    account_reference: r.account_reference,
    payer_phone: r.payer_phone,
    payer_name: r.payer_name,
    days_bought: r.days_bought,
    credit_after: r.credit_after === null ? null : r.credit_after.toFixed(2),
    recorded_by: r.recorded_by,
    hold_reason: r.hold_reason,
    paid_at: r.paid_at.toISOString(),
    created_at: r.created_at.toISOString(),
  };
}
