import {
  REPAYMENT_BEHIND_SHARE,
  REPAYMENT_ON_TRACK_SHARE,
  repaidShare,
  repaymentStanding,
  type CustomerDeviceStatus,
  type Repayment,
} from '@kidogo/contracts';
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
 * - expected: what the plan expects paid by today, NULL without a plan or a
 *   payoff price (expectedSql; README "Repayment standing"); paid_towards:
 *   the total paid, at most the payoff price, where there is an expected.
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
           ${expectedSql('i', 't')} AS expected,
           ${paidTowardsSql('i', 't')} AS paid_towards,
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
 * What the plan `t` expects paid by today on the device `i` (README
 * "Repayment standing", ZRepaymentSchema): the upfront amount (deposit +
 * activation price) from the day it was given, then the daily price for each
 * whole day since, after the grace days; at most the payoff price, and the
 * payoff price once paid off. NULL without a plan, a payoff price or a day it
 * was given.
 */
export function expectedSql(i: string, t: string): Prisma.Sql {
  const [d, p] = [Prisma.raw(i), Prisma.raw(t)];
  const payoff = payoffSql(i, t);
  return Prisma.sql`CASE WHEN NOT ${hasExpected(i, t)} THEN NULL
                         WHEN ${d}.paid_off_at IS NOT NULL THEN ${payoff}
                         ELSE least(${payoff}, ${p}.deposit_made + ${p}.activation_price + ${p}.daily_price *
                           greatest(floor(extract(epoch FROM now() - ${d}.assigned_at) / 86400) - ${p}.grace_period_days, 0)) END`;
}

/** What was paid on the device `i` towards what its plan `t` expects: its total paid, at most its payoff price; NULL without an expected. */
export function paidTowardsSql(i: string, t: string): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${hasExpected(i, t)} THEN least(${Prisma.raw(i)}.total_paid, ${payoffSql(i, t)}) END`;
}

/** Whether the device `i` on the plan `t` has an expected (expectedSql): a plan, a payoff price and a day it was given. */
const hasExpected = (i: string, t: string) =>
  Prisma.sql`(${Prisma.raw(t)}.template_id IS NOT NULL AND ${payoffSql(i, t)} IS NOT NULL AND ${Prisma.raw(i)}.assigned_at IS NOT NULL)`;

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
    'plan_daily_price', d.plan_daily_price::numeric(20,2)::text, 'plan_currency', d.plan_currency, 'plan_own', d.plan_own,
    'expected', d.expected::numeric(20,2)::text, 'paid_towards', d.paid_towards::numeric(20,2)::text)
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
 *   price never has);
 * - expected, paid_towards: the sums over the devices with a standing (NULL
 *   when none has), and repayment_paid_off: every one of those is paid off.
 * Grouped by customer_id, so over a whole organization it is one hashed pass
 * of its devices (the customer report's totals).
 */
export function customerBalances(orgId: string, customerId?: Prisma.Sql, opts: { deviceRows?: boolean } = {}): Prisma.Sql {
  return Prisma.sql`(
    SELECT d.customer_id, count(*)::int AS devices, ${opts.deviceRows ? Prisma.sql`${DEVICE_ROWS} AS device_rows,` : Prisma.empty}
           coalesce(sum(d.payoff), 0) AS payoff,
           coalesce(sum(d.remaining), 0) AS remaining,
           coalesce(round(100 * (sum(d.payoff) - sum(d.remaining)) / nullif(sum(d.payoff), 0), 2), 0) AS progress,
           bool_and(coalesce(d.remaining = 0, false)) AS paid_off,
           sum(d.expected) AS expected, sum(d.paid_towards) AS paid_towards,
           coalesce(bool_and(d.paid_off_at IS NOT NULL) FILTER (WHERE d.expected IS NOT NULL), false) AS repayment_paid_off
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
  expected: Amount | null;
  paid_towards: Amount | null;
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
    repayment: toRepayment(d.expected, d.paid_towards, d.paid_off_at !== null),
  };
}

/** The repayment figures of what the plan expects and what was paid towards it (ZRepaymentSchema); all null without an expected. */
export function toRepayment(expected: Amount | null | undefined, paidTowards: Amount | null | undefined, paidOff: boolean): Repayment {
  if (expected === null || expected === undefined) return { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null };
  const [e, p] = [money(expected), money(paidTowards ?? 0)];
  const cents = (m: string) => Math.round(Number(m) * 100);
  return { expected_by_today: e, paid_towards: p, repaid_share: repaidShare(Number(p), Number(e)), standing: repaymentStanding(cents(p), cents(e), paidOff) };
}

/**
 * repaymentStanding in SQL, over customerBalances' `expected`, `paid_towards` and `repayment_paid_off` of `b`: the
 * same comparisons on the same exact amounts, so a report filtered by standing keeps the rows that show it.
 */
export function standingSql(b: string): Prisma.Sql {
  const d = Prisma.raw(b);
  return Prisma.sql`CASE WHEN ${d}.expected IS NULL THEN NULL
    WHEN ${d}.repayment_paid_off THEN 'paid_off'
    WHEN ${d}.expected <= 0 OR ${d}.paid_towards * 100 >= ${d}.expected * ${REPAYMENT_ON_TRACK_SHARE}::int THEN 'on_track'
    WHEN ${d}.paid_towards * 100 >= ${d}.expected * ${REPAYMENT_BEHIND_SHARE}::int THEN 'behind'
    ELSE 'far_behind' END`;
}
