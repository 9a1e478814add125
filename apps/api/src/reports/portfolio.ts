import { NO_AGENT, type ReportColumn } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { SUCCESSFUL, periodSql, type Period } from '../metrics/period.js';
import { devicePlanJoin } from '../templates/device-plan.js';
import { payoffSql, remainingSql } from '../customers/balances.js';

/** The ages, in months on book, at which the portfolio report reads each cohort's repayment (its vintage curve). */
export const PORTFOLIO_CHECKPOINTS = [3, 6, 12] as const;

export const PORTFOLIO_COLUMNS: ReportColumn[] = [
  { key: 'month', label: 'Month Given', type: 'text' },
  { key: 'accounts', label: 'Devices Given', type: 'number' },
  { key: 'contract_value', label: 'Contract Value', type: 'money' },
  { key: 'collected', label: 'Collected', type: 'money' },
  { key: 'repaid', label: 'Repaid', type: 'percent' },
  ...PORTFOLIO_CHECKPOINTS.map((m): ReportColumn => ({ key: `repaid_${m}m`, label: `By Month ${m}`, type: 'percent' })),
  { key: 'paid_off', label: 'Paid Off', type: 'number' },
  { key: 'par30', label: 'PAR30', type: 'percent' },
  { key: 'repossessed', label: 'Repossessed', type: 'number' },
  { key: 'written_off', label: 'Written Off', type: 'money' },
];

/** `100 × part ÷ whole` to one decimal, null when there is no whole. */
// least() passes over a NULL contract (it would count what such an account collected), hence the FILTERs on it.
const percent = (part: Prisma.Sql, whole: Prisma.Sql) => Prisma.sql`round(100 * ${part} / nullif(${whole}, 0), 1)::float8`;

/**
 * The portfolio report: the accounts opened in the period (a device given to
 * a customer), grouped by the business month they were opened in (the sales
 * cohort), with how each cohort is repaying. One row per cohort, oldest
 * first, and a last row (month NULL) for all of them: the report's totals.
 *
 * An account is what the device's account is everywhere else (items.ts's
 * FRESH_ACCOUNT): it opens when the device is given to a customer who did not
 * hold it last, and a device given back to the same customer continues it.
 * Its payments are the successful ones of that device and customer, from its
 * opening (the first account of a device and customer takes their earlier
 * ones too: a deposit taken before the device was handed over) until the
 * same customer's next account on the device (by when each was applied to
 * the device). A device swap moves the account to the replacement (README
 * "Device swaps"): the replacement's assignment opens nothing, the account's
 * payments are those on each of its devices while it was on it, and its
 * state (current, paid off, repossessed) is the last device's. An account
 * transfer passes the account to another customer on the same device: it
 * opens nothing, the new holder's payments on the device from the transfer
 * on are the account's, and its state is theirs. The months on book count from the opening to when the
 * customer paid: a payment held for matching counts when it was paid.
 *
 * - contract_value: what the accounts are to be paid off at: the payoff price
 *   of the device's plan (balances.ts) for an account still open, what was
 *   paid plus what was written off for one ended by a repossession; an
 *   account ended otherwise, or without a payoff price, has none and is left
 *   out of the repaid shares;
 * - repaid: collected ÷ contract value, each account counting at most its
 *   contract; repaid_Nm the same with only the payments of the account's
 *   first N months, for the cohorts whose every account is N months old
 *   (null for a younger cohort): the curves a lender compares cohorts by;
 * - paid_off: accounts paid off (for an ended account: it had collected its
 *   contract value);
 * - par30: the share of what is left to pay on the cohort's open accounts
 *   that sits on devices out of credit for over 30 days (Collections' PAR30);
 * - repossessed, written_off: the accounts ended by a repossession and what
 *   was written off on them.
 */
export function portfolioSql(orgId: string, period: Period, zone: string, agent?: string): Prisma.Sql {
  // One agent's customers (the Agent report's grouping: customers.agent_id trimmed, NO_AGENT for none), by key.
  const agentJoin =
    agent === undefined
      ? Prisma.empty
      : Prisma.sql`JOIN customers cu ON cu.organization_id = ${orgId} AND cu.customer_id = o.customer_id
          AND ${agent === NO_AGENT ? Prisma.sql`nullif(btrim(cu.agent_id), '') IS NULL` : Prisma.sql`btrim(cu.agent_id) = ${agent}`}`;
  const at = Prisma.sql`coalesce(p.applied_at, p.paid_at)`;
  const localNow = Prisma.sql`(now() AT TIME ZONE ${zone})`;
  const old = (n: number) => Prisma.sql`c.cohort + make_interval(months => ${n + 1}::int) <= ${localNow}`;
  const m = (n: number) => Prisma.raw(`m${n}`);
  const ends = (t: string) => Prisma.join(PORTFOLIO_CHECKPOINTS.map((n) => Prisma.raw(`${t}.ends${n}`)));
  return Prisma.sql`
    WITH RECURSIVE given AS (
      SELECT ia.assignment_id, ia.item_id, ia.customer_id, ia.assigned_at, ia.swapped_from_item_id, ia.brought_over_at,
             ia.transferred_from_customer_id,
             lag(ia.customer_id) OVER w AS prev_customer, lag(ia.assigned_at) OVER w AS prev_at
      FROM item_assignments ia
      WHERE ia.organization_id = ${orgId}
      WINDOW w AS (PARTITION BY ia.item_id ORDER BY ia.assigned_at, ia.assignment_id)
    ), runs AS (
      -- A row opens an account when the device changes hands, or goes back to a customer it was swapped away from
      -- (the account went to the replacement). CASE: the swaps are looked up only for a device given back.
      SELECT r.*, CASE WHEN r.customer_id IS DISTINCT FROM r.prev_customer THEN true
                       ELSE EXISTS (SELECT 1 FROM device_swaps s WHERE s.organization_id = ${orgId} AND s.old_item_id = r.item_id
                                      AND s.swapped_at >= r.prev_at AND s.swapped_at <= r.assigned_at) END AS opens
      FROM given r
    ), opened AS (
      -- A replacement's row (swapped_from_item_id) continues the account it was swapped from: no account of its own.
      -- An account brought over from another system is left out: what was paid on it before is not dated.
      -- A transfer's row (transferred_from_customer_id) continues the account it took over: no account of its own.
      SELECT assignment_id AS acct, item_id, customer_id, assigned_at AS opened_at,
             lead(assigned_at) OVER (PARTITION BY item_id ORDER BY assigned_at, assignment_id) AS closed_at,
             lag(assigned_at) OVER (PARTITION BY item_id, customer_id ORDER BY assigned_at, assignment_id) IS NULL AS first_of_pair,
             lead(assigned_at) OVER (PARTITION BY item_id, customer_id ORDER BY assigned_at, assignment_id) AS pair_next
      FROM runs WHERE opens AND swapped_from_item_id IS NULL AND brought_over_at IS NULL AND transferred_from_customer_id IS NULL
    ), handed AS (
      -- The customers an account passed to by transfers on the device it opened on (README "Account transfers"), each
      -- from its transfer on; the last is who holds it now, whose payments, device and repossession are the account's.
      SELECT o.acct, r.customer_id, r.assigned_at AS since, coalesce(o.closed_at, 'infinity'::timestamptz) AS until,
             row_number() OVER (PARTITION BY o.acct ORDER BY r.assigned_at DESC, r.assignment_id DESC) = 1 AS last
      -- From the table, not runs: a second reference would make PostgreSQL write runs out (a row per assignment);
      -- the transfers are read from their own partial index (item_assignments_transfers).
      FROM opened o
      JOIN item_assignments r ON r.organization_id = ${orgId} AND r.item_id = o.item_id AND r.transferred_from_customer_id IS NOT NULL
       AND r.assigned_at > o.opened_at AND (o.closed_at IS NULL OR r.assigned_at < o.closed_at)
    ), swapped AS (
      -- The devices an account moved to by device swaps, one after the other (depth), each from its swap on.
      SELECT o.acct, o.customer_id, s.new_item_id AS item_id, s.swapped_at AS since, 1 AS depth
      FROM opened o
      JOIN device_swaps s ON s.organization_id = ${orgId} AND s.old_item_id = o.item_id AND s.customer_id = o.customer_id
       AND s.swapped_at >= o.opened_at AND (o.closed_at IS NULL OR s.swapped_at < o.closed_at)
      UNION ALL
      SELECT w.acct, w.customer_id, s.new_item_id, s.swapped_at, w.depth + 1
      FROM swapped w
      JOIN device_swaps s ON s.organization_id = ${orgId} AND s.old_item_id = w.item_id AND s.customer_id = w.customer_id
       AND s.swapped_at > w.since
      WHERE w.depth < 100
    ), links AS (
      SELECT w.acct, w.item_id, w.since, w.depth,
             coalesce(lead(w.since) OVER (PARTITION BY w.acct ORDER BY w.depth), 'infinity'::timestamptz) AS until,
             w.depth = max(w.depth) OVER (PARTITION BY w.acct) AS last
      FROM swapped w
    ), held AS MATERIALIZED (
      -- Each account of the period with what it is to be paid off at and how it stands: its device (the last it was
      -- swapped to, if any), plan and open account while it is current, its repossession once it ended in one (the
      -- latest, should a device given back have gone twice). Materialized, so that the repossession is looked up once
      -- an account, not once a payment.
      SELECT row_number() OVER () AS k, o.acct, o.item_id, o.customer_id, o.opened_at,
             -- The span of its payments, by when they were applied (see above), on the device it opened on.
             CASE WHEN o.first_of_pair THEN '-infinity'::timestamptz ELSE o.opened_at END AS pays_from,
             least(coalesce(o.pair_next, 'infinity'::timestamptz), coalesce(first.since, 'infinity'::timestamptz)) AS pays_until,
             -- The ends of its first months on book, worked out once here rather than for each payment.
             ${Prisma.join(PORTFOLIO_CHECKPOINTS.map((n) => Prisma.sql`o.opened_at + make_interval(months => ${n}::int) AS ${Prisma.raw(`ends${n}`)}`))},
             date_trunc('month', o.opened_at AT TIME ZONE ${zone}) AS cohort,
             i.item_id IS NOT NULL AS current,
             CASE WHEN i.item_id IS NOT NULL THEN ${payoffSql('i', 't')} ELSE rep.total_paid + rep.written_off END AS contract,
             ${remainingSql('i', 't')} AS remaining, oa.since <= now() - make_interval(days => 31) AS at_risk,
             i.paid_off_at IS NOT NULL AS device_paid_off,
             i.item_id IS NULL AND rep.repossessed_at IS NOT NULL AS repossessed,
             CASE WHEN i.item_id IS NULL THEN rep.written_off END AS written_off
      FROM opened o
      ${agentJoin}
      LEFT JOIN links first ON first.acct = o.acct AND first.depth = 1
      LEFT JOIN links cur ON cur.acct = o.acct AND cur.last
      LEFT JOIN handed hn ON hn.acct = o.acct AND hn.last
      LEFT JOIN items i ON (cur.acct IS NOT NULL OR o.closed_at IS NULL) AND i.organization_id = ${orgId}
       AND i.item_id = coalesce(cur.item_id, o.item_id) AND i.customer_id = coalesce(hn.customer_id, o.customer_id) AND i.is_assigned
      ${devicePlanJoin()}
      LEFT JOIN open_accounts oa ON oa.organization_id = i.organization_id AND oa.item_id = i.item_id
      LEFT JOIN LATERAL (
        SELECT r.repossessed_at, r.total_paid, r.written_off FROM repossessions r
        WHERE r.organization_id = ${orgId} AND r.item_id = coalesce(cur.item_id, o.item_id) AND r.customer_id = coalesce(hn.customer_id, o.customer_id)
          AND r.repossessed_at >= coalesce(cur.since, o.opened_at) AND (cur.acct IS NOT NULL OR o.closed_at IS NULL OR r.repossessed_at < o.closed_at)
        ORDER BY r.repossessed_at DESC LIMIT 1
      ) rep ON i.item_id IS NULL
      WHERE true ${periodSql(Prisma.sql`o.opened_at`, period)}
    ), spans AS (
      -- Each account's devices with the span of its payments on each: the one it opened on, then those it was swapped to.
      SELECT h.k, h.item_id, h.customer_id, h.pays_from, h.pays_until, ${ends('h')} FROM held h
      UNION ALL
      SELECT h.k, l.item_id, h.customer_id, l.since, l.until, ${ends('h')} FROM held h JOIN links l ON l.acct = h.acct
      UNION ALL
      -- Its new holders' payments on the device, from each transfer on.
      SELECT h.k, h.item_id, n.customer_id, n.since, n.until, ${ends('h')} FROM held h JOIN handed n ON n.acct = h.acct
    ), paid AS (
      -- The payments of each account that has any, added up in one hashed pass over the organization's payments.
      SELECT d.k, sum(p.amount) AS collected,
             ${Prisma.join(
               PORTFOLIO_CHECKPOINTS.map(
                 (n) => Prisma.sql`sum(p.amount) FILTER (WHERE p.paid_at < d.${Prisma.raw(`ends${n}`)}) AS ${m(n)}`,
               ),
             )}
      FROM spans d
      JOIN payments p ON p.organization_id = ${orgId} AND p.item_id = d.item_id AND p.customer_id = d.customer_id
       AND p.status IN ${SUCCESSFUL} AND ${at} >= d.pays_from AND ${at} < d.pays_until
      GROUP BY d.k
    ), a AS (
      SELECT h.cohort, h.contract, h.current, h.device_paid_off, h.remaining, h.at_risk, h.repossessed, h.written_off,
             coalesce(paid.collected, 0) AS collected,
             ${Prisma.join(PORTFOLIO_CHECKPOINTS.map((n) => Prisma.sql`coalesce(paid.${m(n)}, 0) AS ${m(n)}`))}
      FROM held h LEFT JOIN paid ON paid.k = h.k
    ), c AS (
      -- Each cohort's sums (a hashed pass over the accounts), from which the shares of each cohort and of all are read.
      SELECT a.cohort, count(*) AS accounts, sum(a.contract) AS contract, sum(a.collected) AS collected,
             sum(least(a.collected, a.contract)) FILTER (WHERE a.contract IS NOT NULL) AS capped,
             ${Prisma.join(
               PORTFOLIO_CHECKPOINTS.map((n) => Prisma.sql`sum(least(a.${m(n)}, a.contract)) FILTER (WHERE a.contract IS NOT NULL) AS ${Prisma.raw(`capped${n}`)}`),
             )},
             -- An ended account counts as paid off when it had collected its contract value.
             count(*) FILTER (WHERE CASE WHEN a.current THEN a.device_paid_off ELSE a.collected >= a.contract END) AS paid_off,
             sum(a.remaining) AS remaining, sum(a.remaining) FILTER (WHERE a.at_risk) AS at_risk,
             count(*) FILTER (WHERE a.repossessed) AS repossessed, sum(a.written_off) AS written_off
      FROM a GROUP BY a.cohort
    )
    SELECT CASE WHEN grouping(c.cohort) = 0 THEN to_char(c.cohort, 'YYYY-MM') END AS month,
           coalesce(sum(c.accounts), 0)::int AS accounts,
           coalesce(sum(c.contract), 0)::numeric(20,2)::text AS contract_value,
           coalesce(sum(c.collected), 0)::numeric(20,2)::text AS collected,
           ${percent(Prisma.sql`sum(c.capped)`, Prisma.sql`sum(c.contract)`)} AS repaid,
           ${Prisma.join(
             PORTFOLIO_CHECKPOINTS.map(
               (n) =>
                 Prisma.sql`${percent(Prisma.sql`sum(c.${Prisma.raw(`capped${n}`)}) FILTER (WHERE ${old(n)})`, Prisma.sql`sum(c.contract) FILTER (WHERE ${old(n)})`)} AS repaid_${Prisma.raw(String(n))}m`,
             ),
           )},
           coalesce(sum(c.paid_off), 0)::int AS paid_off,
           coalesce(${percent(Prisma.sql`coalesce(sum(c.at_risk), 0)`, Prisma.sql`sum(c.remaining)`)}, 0)::float8 AS par30,
           coalesce(sum(c.repossessed), 0)::int AS repossessed,
           coalesce(sum(c.written_off), 0)::numeric(20,2)::text AS written_off
    FROM c
    GROUP BY GROUPING SETS ((c.cohort), ())
    ORDER BY grouping(c.cohort), c.cohort`;
}
