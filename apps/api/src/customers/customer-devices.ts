import type { BalanceDevice, LastCode } from '@kidogo/mobile-money';
import { Prisma } from '../generated/prisma/client.js';
import type { Calendar } from '../common/calendar.js';
import type { Run } from '../database/database.service.js';
import { isoDayOf } from '../metrics/period.js';
import { deviceBalances, toBalanceDevice } from './balances.js';

/** One of a customer's devices as the texts and screens for the customer tell it (CODE by SMS, the USSD menu). */
export interface CustomerDevice {
  itemId: number;
  balance: BalanceDevice;
  /** The plan's price of a day, decimal string; null without a plan. */
  dailyPrice: string | null;
  /** The last code issued to it while the customer had it; null when none. */
  lastCode: LastCode | null;
}

/**
 * The customer's devices (not retired), first given first, with their balances and each one's last valid code of
 * theirs (one row of token_logs each, by device). A few devices: a few index lookups, however large the organization.
 */
export async function customerDevices(run: Run, calendar: Calendar, orgId: string, customerId: number): Promise<CustomerDevice[]> {
  const rows = await run<{
    item_id: number;
    serial_number: string;
    credit_until: Date | null;
    paid_off_at: Date | null;
    remaining: Prisma.Decimal | null;
    plan_currency: string | null;
    plan_daily_price: Prisma.Decimal | null;
    token_value: string | null;
    token_type: string | null;
    days_generated: Prisma.Decimal | null;
    issued_at: Date | null;
  }>(Prisma.sql`
    SELECT d.item_id, d.serial_number, d.credit_until, d.paid_off_at, d.remaining, d.plan_currency, d.plan_daily_price,
           t.token_value, t.token_type, t.days_generated, t.created_at AS issued_at
    FROM ${deviceBalances(orgId, Prisma.sql`${customerId}::int`)} d
    LEFT JOIN LATERAL (
      SELECT token_value, token_type::text AS token_type, days_generated, created_at FROM token_logs
      WHERE organization_id = ${orgId} AND item_id = d.item_id AND customer_id = ${customerId}::int AND is_valid
      ORDER BY created_at DESC, token_log_id DESC LIMIT 1
    ) t ON true
    WHERE d.status <> 'retired'
    ORDER BY d.assigned_at ASC NULLS LAST, d.item_id ASC`);
  const now = Date.now();
  return rows.map((d) => ({
    itemId: d.item_id,
    balance: toBalanceDevice(calendar, d, now),
    dailyPrice: d.plan_daily_price === null ? null : d.plan_daily_price.toFixed(2),
    lastCode: d.token_value
      ? { token: d.token_value, type: d.token_type ?? 'add_time', days: Number(d.days_generated ?? 0), issuedOn: isoDayOf(calendar.dayOf(d.issued_at!)) }
      : null,
  }));
}
