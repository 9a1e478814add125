import type { CustomerDeviceStatus } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { money } from '../metrics/period.js';
import { devicePlanJoin } from '../templates/device-plan.js';

/**
 * What is left to pay off, in one place for every reply that shows it
 * (GET /customers/{id}/status, GET /customers/{id}/payment-details, the
 * customer report and its totals), so they cannot disagree again. The
 * payment rules work per device (README "Payment rules", 1 and 7), so a
 * customer's figures are the sums of their devices': setting the customer's
 * payments against one payoff price was wrong for every customer with two.
 *
 * One row per device, with the customer's active template:
 * - payoff: the template's free_code_price, else the device's price when
 *   above 0, else NULL (the device is never paid off automatically);
 * - remaining: NULL without a payoff price, 0 once the device is paid off,
 *   else payoff − the device's total paid, never below 0.
 *
 * `customerId` (a value, or the outer column of a LATERAL join) limits it to
 * one customer's devices, through the (organization_id, customer_id) index;
 * without it, every device of the organization that has a customer.
 */
export function deviceBalances(orgId: string, customerId?: Prisma.Sql): Prisma.Sql {
  const whose = customerId ? Prisma.sql`i.customer_id = ${customerId}` : Prisma.sql`i.customer_id IS NOT NULL`;
  return Prisma.sql`(
    SELECT i.item_id, i.customer_id, i.serial_number, i.product_name, i.status::text AS status, i.assigned_at,
           i.credit_until, i.paid_off_at, i.total_paid, ${payoffSql('i', 't')} AS payoff, ${remainingSql('i', 't')} AS remaining,
           t.template_id AS plan_template_id, t.template_name AS plan_template_name, t.daily_price AS plan_daily_price,
           t.currency AS plan_currency, t_own.assignment_id IS NOT NULL AS plan_own
    FROM items i
    ${devicePlanJoin()}
    WHERE i.organization_id = ${orgId} AND ${whose})`;
}

/** A device's payoff price (see deviceBalances), for the device `i` and its customer's active template `t` (null without one). */
export function payoffSql(i: string, t: string): Prisma.Sql {
  const [d, p] = [Prisma.raw(i), Prisma.raw(t)];
  return Prisma.sql`coalesce(${p}.free_code_price, CASE WHEN ${d}.price > 0 THEN ${d}.price END)`;
}

/**
 * What is left to pay on the device `i` (see deviceBalances), for a list that
 * already joins the customer's active template as `t`: the same figure
 * without reading the device and its template a second time.
 */
export function remainingSql(i: string, t: string): Prisma.Sql {
  const d = Prisma.raw(i);
  const payoff = payoffSql(i, t);
  return Prisma.sql`CASE WHEN ${payoff} IS NULL THEN NULL WHEN ${d}.paid_off_at IS NOT NULL THEN 0
                         ELSE greatest(${payoff} - ${d}.total_paid, 0) END`;
}

/**
 * deviceBalances' rows as one JSON array (DeviceBalanceRow, amounts as text
 * to keep their two decimals), the first assigned first: payment details'
 * devices, read in the same pass as the customer's sums.
 */
const DEVICE_ROWS = Prisma.sql`json_agg(json_build_object(
    'serial_number', d.serial_number, 'product_name', d.product_name, 'status', d.status,
    'total_paid', d.total_paid::numeric(20,2)::text, 'credit_until', d.credit_until, 'paid_off_at', d.paid_off_at,
    'payoff', d.payoff::numeric(20,2)::text, 'remaining', d.remaining::numeric(20,2)::text,
    'plan_template_id', d.plan_template_id, 'plan_template_name', d.plan_template_name,
    'plan_daily_price', d.plan_daily_price::numeric(20,2)::text, 'plan_currency', d.plan_currency, 'plan_own', d.plan_own)
  ORDER BY d.assigned_at ASC NULLS LAST, d.item_id ASC)`;

/**
 * deviceBalances added up per customer, one row per customer with a device:
 * - devices: how many;
 * - payoff: the sum of the payoff prices known;
 * - remaining: the sum of the remainings known (a device without a payoff
 *   price counts 0), what GET /customers/{id}/status calls the balance;
 * - progress: the share of those payoff prices paid, in percent with 2
 *   decimals; each device counts at most its payoff price (payoff − remaining),
 *   so money paid beyond one device's price does not show as progress on another;
 * - paid_off: every device has nothing left to pay (one without a payoff
 *   price never has).
 * Grouped by customer_id, so over a whole organization it is one hashed pass
 * of its devices (the customer report's totals).
 */
export function customerBalances(orgId: string, customerId?: Prisma.Sql, opts: { deviceRows?: boolean } = {}): Prisma.Sql {
  return Prisma.sql`(
    SELECT d.customer_id, count(*)::int AS devices, ${opts.deviceRows ? Prisma.sql`${DEVICE_ROWS} AS device_rows,` : Prisma.empty}
           coalesce(sum(d.payoff), 0) AS payoff,
           coalesce(sum(d.remaining), 0) AS remaining,
           coalesce(round(100 * (sum(d.payoff) - sum(d.remaining)) / nullif(sum(d.payoff), 0), 2), 0) AS progress,
           bool_and(coalesce(d.remaining = 0, false)) AS paid_off
    FROM ${deviceBalances(orgId, customerId)} d
    GROUP BY d.customer_id)`;
}

type Amount = { toFixed(n: number): string } | string;

/** A row of deviceBalances, as read (Decimals and Dates) or through json_agg (strings). */
export interface DeviceBalanceRow {
  serial_number: string;
  product_name: string;
  status: string;
  total_paid: Amount;
  credit_until: Date | string | null;
  paid_off_at: Date | string | null;
  payoff: Amount | null;
  remaining: Amount | null;
  plan_template_id: number | null;
  plan_template_name: string | null;
  plan_daily_price: Amount | null;
  plan_currency: string | null;
  plan_own: boolean;
}

const DAY_MS = 86_400_000;

/** One device of GET /customers/{id}/status and of payment details' devices. */
export function toDeviceStatus(d: DeviceBalanceRow, now: number): CustomerDeviceStatus {
  const creditUntil = d.credit_until === null ? null : new Date(d.credit_until);
  const left = creditUntil ? (creditUntil.getTime() - now) / DAY_MS : 0;
  return {
    serial_number: d.serial_number,
    product_name: d.product_name,
    status: d.status,
    days_left: left > 0 ? Math.round(left * 10) / 10 : 0,
    credit_until: creditUntil?.toISOString() ?? null,
    paid_off: d.paid_off_at !== null,
    total_paid: money(d.total_paid),
    payoff_price: d.payoff === null ? null : money(d.payoff),
    remaining: d.remaining === null ? null : money(d.remaining),
    payment_plan:
      d.plan_template_id === null
        ? null
        : {
            template_id: d.plan_template_id,
            template_name: d.plan_template_name!,
            daily_price: money(d.plan_daily_price),
            currency: d.plan_currency!,
            own: d.plan_own,
          },
  };
}
