import type { OdysseyCustomer } from '@kidogo/contracts';
import type { Prisma } from '../generated/prisma/client.js';

export function toOdysseyCustomer(
  c: { id: number; customer_name: string; phone_contact: string; county: string | null },
  items: Array<{ serial_number: string; product_name: string; status: string; total_paid: Prisma.Decimal; paid_off_at: Date | null; activated_at: Date | null }>,
  totals: { _sum: { amount: Prisma.Decimal | null }; _max: { paid_at: Date | null } } | undefined,
): OdysseyCustomer {
  return {
    customer_id: c.id,
    customer_name: c.customer_name,
    phone_contact: c.phone_contact,
    county: c.county,
    devices: items.map((i) => ({
      serial_number: i.serial_number,
      product_name: i.product_name,
      status: i.status,
      total_paid: i.total_paid.toFixed(2),
      paid_off: i.paid_off_at !== null,
      activated_at: i.activated_at ? i.activated_at.toISOString() : null,
    })),
    total_paid: totals?._sum.amount ? totals._sum.amount.toFixed(2) : '0.00',
    last_payment_at: totals?._max.paid_at ? totals._max.paid_at.toISOString() : null,
  };
}
