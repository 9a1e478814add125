import { Prisma } from '../generated/prisma/client.js';
import type { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';

/**
 * Derived tables over the totals of 0005_stats_tables, for the dashboard
 * and the lists. Each reads whole days from the totals and only the part of
 * a day at either end of a period from the rows themselves, so the cost
 * does not grow with the number of payments or tokens.
 */

const ts = (d: Date) => d.toISOString();

export interface Range {
  from: Date | null;
  until: Date | null;
}

/**
 * `(day, <keys>, <sums>)` rows for [from, until): totals for the whole
 * business days inside the range (the calendar's time zone, which
 * kidogo_day() files the totals under), and the rows of `table` (grouped the
 * same way, by kidogo_day) for the partial days at its ends. A day and key
 * may come in several rows (the totals' delta rows are not summed here):
 * every caller sums them, and summing them twice cost PostgreSQL a second
 * aggregation.
 */
function byDay(
  orgId: string | Prisma.Sql,
  r: Range,
  calendar: Calendar,
  stats: string,
  table: string,
  time: string,
  keys: string,
  sums: { stats: string; raw: string },
): Prisma.Sql {
  const raw = (from: Date | null, until: Date | null) =>
    Prisma.sql`SELECT kidogo_day(${Prisma.raw(time)}) AS day, ${Prisma.raw(keys)}, ${Prisma.raw(sums.raw)}
      FROM ${Prisma.raw(table)} WHERE organization_id = ${orgId}
      ${from ? Prisma.sql`AND ${Prisma.raw(time)} >= ${ts(from)}::timestamptz` : Prisma.empty}
      ${until ? Prisma.sql`AND ${Prisma.raw(time)} < ${ts(until)}::timestamptz` : Prisma.empty}
      GROUP BY 1, ${Prisma.raw(keys)}`;
  // The whole days: from the first day starting at or after `from` to the day `until` falls in.
  const first = r.from ? calendar.ceil(r.from) : null;
  const lastDay = r.until ? calendar.dayOf(r.until) : null;
  const fullUntil = lastDay === null ? null : calendar.startOf(lastDay);
  if (first && lastDay !== null && first.day >= lastDay) return Prisma.sql`(${raw(r.from, r.until)})`;
  const parts: Prisma.Sql[] = [
    Prisma.sql`SELECT day, ${Prisma.raw(keys)}, ${Prisma.raw(sums.stats)} FROM ${Prisma.raw(stats)}
      WHERE organization_id = ${orgId}
      ${first ? Prisma.sql`AND day >= ${isoDayOf(first.day)}::date` : Prisma.empty}
      ${lastDay !== null ? Prisma.sql`AND day < ${isoDayOf(lastDay)}::date` : Prisma.empty}`,
  ];
  if (r.from && first && r.from < first.start) parts.push(raw(r.from, first.start));
  if (r.until && fullUntil && r.until > fullUntil) parts.push(raw(fullUntil, r.until));
  return Prisma.sql`(${Prisma.join(parts, ' UNION ALL ')})`;
}

/** Payments by business day paid and status: `(day, status, n, amount)` over [from, until) on paid_at. */
export const paymentsByDay = (orgId: string, r: Range, calendar: Calendar) =>
  byDay(orgId, r, calendar, 'payment_stats', 'payments', 'paid_at', 'status', {
    stats: 'n, amount',
    raw: 'count(*)::int AS n, sum(amount) AS amount',
  });

/**
 * Tokens by business day generated, type and validity: `(day, token_type, is_valid, n, days)` over [from, until)
 * on created_at. `orgId` may be a column of an outer query (the console's count over every organization).
 */
export const tokensByDay = (orgId: string | Prisma.Sql, r: Range, calendar: Calendar) =>
  byDay(orgId, r, calendar, 'token_stats', 'token_logs', 'created_at', 'token_type, is_valid', {
    stats: 'n, days',
    raw: 'count(*)::int AS n, sum(days_generated) AS days',
  });

/** Customers by business day of creation and status: `(day, status, n)` over [from, until) on created_at. */
export const customersByDay = (orgId: string, r: Range, calendar: Calendar) =>
  byDay(orgId, r, calendar, 'customer_stats', 'customers', 'created_at', 'status', { stats: 'n', raw: 'count(*)::int AS n' });

/** Devices by assignment, status and product name: `(is_assigned, status, product_name, n)`. */
export const itemTotals = (orgId: string, location?: number | 'none') => Prisma.sql`(
  SELECT is_assigned, status, product_name, sum(n)::int AS n FROM item_stats
  WHERE organization_id = ${orgId}
  ${location === undefined ? Prisma.empty : location === 'none' ? Prisma.sql`AND location_id IS NULL` : Prisma.sql`AND location_id = ${location}::int`}
  GROUP BY 1, 2, 3 HAVING sum(n) <> 0)`;

/**
 * `WITH days, place`: the organization's rows per business day of creation from a
 * totals table (days with none left out), and `place`, the day a newest-first
 * list's offset falls in with how many rows are newer than that day (none
 * when the offset is past the end). A list reads its page from that day's
 * place in its (organization_id, created_at DESC, id DESC) index (below
 * kidogo_day_start(day + 1), the first instant of the next day), skipping
 * at most one day of rows instead of `offset` index entries.
 */
export const offsetDay = (stats: 'customer_stats' | 'token_stats', orgId: string, offset: number) => Prisma.sql`
    WITH days AS (
      SELECT day, sum(n)::int AS n FROM ${Prisma.raw(stats)} WHERE organization_id = ${orgId} GROUP BY day HAVING sum(n) <> 0
    ), place AS (
      SELECT day, newer FROM (SELECT day, n, (sum(n) OVER (ORDER BY day DESC))::int - n AS newer FROM days) d
      WHERE newer + n > ${offset}::int ORDER BY day DESC LIMIT 1
    )`;
