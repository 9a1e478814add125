import type { ReportColumn } from '@kidogo/contracts';
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
 * the device). The months on book count from the opening to when the
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
export function portfolioSql(orgId: string, period: Period, zone: string): Prisma.Sql {
  const at = Prisma.sql`coalesce(p.applied_at, p.paid_at)`;
  const localNow = Prisma.sql`(now() AT TIME ZONE ${zone})`;
  const old = (m: number) => Prisma.sql`a.cohort + make_interval(months => ${m + 1}::int) <= ${localNow}`;
  return Prisma.sql`
    WITH runs AS (
      SELECT ia.assignment_id, ia.item_id, ia.customer_id, ia.assigned_at,
             ia.customer_id IS DISTINCT FROM lag(ia.customer_id) OVER (PARTITION BY ia.item_id ORDER BY ia.assigned_at, ia.assignment_id) AS opens
      FROM item_assignments ia
      WHERE ia.organization_id = ${orgId}
    ), opened AS (
      SELECT item_id, customer_id, assigned_at AS opened_at,
             lead(assigned_at) OVER (PARTITION BY item_id ORDER BY assigned_at, assignment_id) AS closed_at,
             lag(assigned_at) OVER (PARTITION BY item_id, customer_id ORDER BY assigned_at, assignment_id) IS NULL AS first_of_pair,
             lead(assigned_at) OVER (PARTITION BY item_id, customer_id ORDER BY assigned_at, assignment_id) AS pair_next
      FROM runs WHERE opens
    ), acc AS MATERIALIZED (
      SELECT o.*, date_trunc('month', o.opened_at AT TIME ZONE ${zone}) AS cohort
      FROM opened o WHERE true ${periodSql(Prisma.sql`o.opened_at`, period)}
    ), paid AS (
      SELECT acc.item_id, acc.opened_at, sum(p.amount) AS collected,
             ${Prisma.join(
               PORTFOLIO_CHECKPOINTS.map(
                 (m) => Prisma.sql`sum(p.amount) FILTER (WHERE p.paid_at < acc.opened_at + make_interval(months => ${m}::int)) AS m${Prisma.raw(String(m))}`,
               ),
             )}
      FROM acc
      JOIN payments p ON p.organization_id = ${orgId} AND p.item_id = acc.item_id AND p.customer_id = acc.customer_id
      WHERE p.status IN ${SUCCESSFUL}
        AND (acc.first_of_pair OR ${at} >= acc.opened_at)
        AND (acc.pair_next IS NULL OR ${at} < acc.pair_next)
      GROUP BY acc.item_id, acc.opened_at
    ), rep AS (
      SELECT acc.item_id, acc.opened_at,
             (array_agg(r.written_off ORDER BY r.repossessed_at DESC))[1] AS written_off,
             (array_agg(r.total_paid + r.written_off ORDER BY r.repossessed_at DESC))[1] AS contract
      FROM acc
      JOIN repossessions r ON r.organization_id = ${orgId} AND r.item_id = acc.item_id AND r.customer_id = acc.customer_id
       AND r.repossessed_at >= acc.opened_at AND (acc.closed_at IS NULL OR r.repossessed_at < acc.closed_at)
      GROUP BY acc.item_id, acc.opened_at
    ), cur AS (
      SELECT acc.item_id, acc.opened_at, ${payoffSql('i', 't')} AS contract, ${remainingSql('i', 't')} AS remaining,
             i.paid_off_at IS NOT NULL AS paid_off, oa.since <= now() - make_interval(days => 31) AS at_risk
      FROM acc
      JOIN items i ON i.organization_id = ${orgId} AND i.item_id = acc.item_id AND i.customer_id = acc.customer_id AND i.is_assigned
      ${devicePlanJoin()}
      LEFT JOIN open_accounts oa ON oa.organization_id = i.organization_id AND oa.item_id = i.item_id
      WHERE acc.closed_at IS NULL
    ), a AS (
      SELECT acc.cohort, coalesce(cur.contract, CASE WHEN cur.item_id IS NULL THEN rep.contract END) AS contract,
             coalesce(paid.collected, 0) AS collected,
             ${Prisma.join(PORTFOLIO_CHECKPOINTS.map((m) => Prisma.sql`coalesce(paid.m${Prisma.raw(String(m))}, 0) AS m${Prisma.raw(String(m))}`))},
             CASE WHEN cur.item_id IS NOT NULL THEN cur.paid_off ELSE rep.contract IS NOT NULL AND coalesce(paid.collected, 0) >= rep.contract END AS paid_off,
             cur.remaining, cur.at_risk, cur.item_id IS NULL AND rep.item_id IS NOT NULL AS repossessed,
             CASE WHEN cur.item_id IS NULL THEN rep.written_off END AS written_off
      FROM acc
      LEFT JOIN paid ON paid.item_id = acc.item_id AND paid.opened_at = acc.opened_at
      LEFT JOIN rep ON rep.item_id = acc.item_id AND rep.opened_at = acc.opened_at
      LEFT JOIN cur ON cur.item_id = acc.item_id AND cur.opened_at = acc.opened_at
    )
    SELECT CASE WHEN grouping(a.cohort) = 0 THEN to_char(a.cohort, 'YYYY-MM') END AS month,
           count(*)::int AS accounts,
           coalesce(sum(a.contract), 0)::numeric(20,2)::text AS contract_value,
           coalesce(sum(a.collected), 0)::numeric(20,2)::text AS collected,
           ${percent(Prisma.sql`sum(least(a.collected, a.contract)) FILTER (WHERE a.contract IS NOT NULL)`, Prisma.sql`sum(a.contract)`)} AS repaid,
           ${Prisma.join(
             PORTFOLIO_CHECKPOINTS.map(
               (m) => Prisma.sql`${percent(
                 Prisma.sql`sum(least(a.m${Prisma.raw(String(m))}, a.contract)) FILTER (WHERE a.contract IS NOT NULL AND ${old(m)})`,
                 Prisma.sql`sum(a.contract) FILTER (WHERE ${old(m)})`,
               )} AS repaid_${Prisma.raw(String(m))}m`,
             ),
           )},
           count(*) FILTER (WHERE a.paid_off)::int AS paid_off,
           coalesce(${percent(Prisma.sql`coalesce(sum(a.remaining) FILTER (WHERE a.at_risk), 0)`, Prisma.sql`sum(a.remaining)`)}, 0)::float8 AS par30,
           count(*) FILTER (WHERE a.repossessed)::int AS repossessed,
           coalesce(sum(a.written_off), 0)::numeric(20,2)::text AS written_off
    FROM a
    GROUP BY GROUPING SETS ((a.cohort), ())
    ORDER BY grouping(a.cohort), a.cohort`;
}
