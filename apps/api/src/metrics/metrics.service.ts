import { Injectable } from '@nestjs/common';
import {
  MAX_REVENUE_POINTS,
  type CustomerMetrics,
  type DateRangeQuery,
  type ItemMetrics,
  type MetricsSummary,
  type PaymentMetrics,
  type PaymentMetricsQuery,
  type PerformanceMetrics,
  type RevenueQuery,
  type RevenueSeries,
  type UsageMetrics,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { SUCCESSFUL, isoDayOf, periodSql, ratio, toPeriod, unixDay } from './period.js';
import { Calendar } from '../common/calendar.js';
import { customersByDay, itemTotals, paymentsByDay, tokensByDay } from '../stats/totals.js';
import { MetricSnapshots } from './metric-snapshots.js';
import { MetricsMapper, type RecentPaymentRow, type RecentTokenRow } from './metrics.mapper.js';
import { devicePlanJoin } from '../templates/device-plan.js';

const DAY_MS = 86_400_000;

/** The keys of the dashboard figures kept in MetricSnapshots. */
const PERFORMANCE = 'performance';
const USAGE_DEVICES = 'usage-devices';

/** A figure MetricSnapshots keeps when slow, and how to compute it for an organization. */
export interface KeptFigure {
  key: string;
  compute: (orgId: string) => Promise<unknown>;
}

/**
 * Dashboard numbers, each computed by PostgreSQL in one or two aggregate
 * queries on the read connection (the replica when configured). Every
 * aggregate is coalesced, so an empty organization reads as zeros.
 */
@Injectable()
export class MetricsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly snapshots: MetricSnapshots,
    private readonly calendar: Calendar,
  ) {}

  private get sql() {
    return this.database.read;
  }

  /** Whole days from payment_stats, the partial days at the ends of the period from the payments themselves. */
  async summarize(orgId: string, query: DateRangeQuery): Promise<MetricsSummary> {
    const period = toPeriod(query.from, query.to, this.calendar);
    // Raw and prepared: the dashboard's most frequent call, keyed by the organization and two dates.
    const [row] = await this.database.readPrepared<{ total: number; ok: number; revenue: string; average: string }>(Prisma.sql`
      SELECT coalesce(sum(n), 0)::int AS total,
             coalesce(sum(n) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::int AS ok,
             coalesce(sum(amount) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::numeric(20,2)::text AS revenue,
             coalesce(round(sum(amount) FILTER (WHERE status IN ${SUCCESSFUL})
                            / nullif(sum(n) FILTER (WHERE status IN ${SUCCESSFUL}), 0), 2), 0)::numeric(20,2)::text AS average
      FROM ${paymentsByDay(orgId, period, this.calendar)} p`);
    return {
      total_revenue: row!.revenue,
      average_transaction: row!.average,
      transaction_count: row!.total,
      success_rate: ratio(row!.ok, row!.total),
    };
  }

  async summarizeCustomers(orgId: string): Promise<CustomerMetrics> {
    const since = new Date(Date.now() - 7 * DAY_MS);
    const [[row], recent] = await Promise.all([
      this.sql.$queryRaw<{ total: number; active: number; inactive: number; suspended: number; new_this_week: number }[]>`
        SELECT coalesce(sum(n), 0)::int AS total,
               coalesce(sum(n) FILTER (WHERE status = 'active'), 0)::int AS active,
               coalesce(sum(n) FILTER (WHERE status = 'inactive'), 0)::int AS inactive,
               coalesce(sum(n) FILTER (WHERE status = 'suspended'), 0)::int AS suspended,
               (SELECT coalesce(sum(n), 0)::int FROM ${customersByDay(orgId, { from: since, until: null }, this.calendar)} w) AS new_this_week
        FROM ${customersByDay(orgId, { from: null, until: null }, this.calendar)} c`,
      this.sql.customer.findMany({
        where: { organization_id: orgId },
        orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
        take: 3,
        select: { id: true, customer_name: true, phone_contact: true, county: true, status: true, created_at: true },
      }),
    ]);
    return { ...row, recent: recent.map(MetricsMapper.recentCustomer) };
  }

  async summarizePayments(orgId: string, query: PaymentMetricsQuery): Promise<PaymentMetrics> {
    const period = toPeriod(query.from, query.to, this.calendar);
    const [[row], recent] = await Promise.all([
      this.sql.$queryRaw<{ total: number; ok: number; pending: number; revenue: string }[]>`
        SELECT coalesce(sum(n), 0)::int AS total,
               coalesce(sum(n) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::int AS ok,
               coalesce(sum(n) FILTER (WHERE status = 'pending'), 0)::int AS pending,
               coalesce(sum(amount) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::numeric(20,2)::text AS revenue
        FROM ${paymentsByDay(orgId, period, this.calendar)} p`,
      this.sql.$queryRaw<RecentPaymentRow[]>`
        SELECT p.payment_id, p.amount::numeric(20,2)::text AS amount, p.status::text AS status,
               coalesce(c.customer_name, p.payer_name) AS customer_name, p.customer_id, p.payment_method,
               p.created_at, p.paid_at, i.serial_number, p.transaction_code
        FROM payments p
        LEFT JOIN customers c ON c.organization_id = p.organization_id AND c.customer_id = p.customer_id
        LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
        WHERE p.organization_id = ${orgId}${periodSql(Prisma.sql`p.paid_at`, period)}
        ORDER BY p.paid_at DESC, p.payment_id DESC
        LIMIT ${query.limit}::int`,
    ]);
    return {
      total_revenue: row.revenue,
      total_payments: row.total,
      successful: row.ok,
      pending: row.pending,
      failed: row.total - row.ok - row.pending,
      recent: recent.map(MetricsMapper.recentPayment),
    };
  }

  async summarizeItems(orgId: string): Promise<ItemMetrics> {
    const [[row], byProduct] = await Promise.all([
      this.sql.$queryRaw<{ total: number; assigned: number; available: number; maintenance: number; retired: number }[]>`
        SELECT coalesce(sum(n), 0)::int AS total,
               coalesce(sum(n) FILTER (WHERE is_assigned), 0)::int AS assigned,
               coalesce(sum(n) FILTER (WHERE status = 'available'), 0)::int AS available,
               coalesce(sum(n) FILTER (WHERE status = 'maintenance'), 0)::int AS maintenance,
               coalesce(sum(n) FILTER (WHERE status = 'retired'), 0)::int AS retired
        FROM ${itemTotals(orgId)} t`,
      this.sql.$queryRaw<{ product_name: string; total: number; assigned: number }[]>`
        SELECT product_name, sum(n)::int AS total, coalesce(sum(n) FILTER (WHERE is_assigned), 0)::int AS assigned
        FROM ${itemTotals(orgId)} t
        GROUP BY product_name ORDER BY sum(n) DESC, product_name LIMIT 10`,
    ]);
    return {
      ...row,
      unassigned: row.total - row.assigned,
      assignment_rate: ratio(row.assigned, row.total),
      by_product: byProduct,
    };
  }

  async seriesRevenue(orgId: string, query: RevenueQuery): Promise<RevenueSeries> {
    const cal = this.calendar;
    const period = toPeriod(query.from, query.to, cal);
    // Default: the 30 business days up to today.
    const until = period.until ?? cal.startOf(cal.today() + 1);
    const from = period.from ?? cal.startOf(cal.dayOf(until) - 30);
    if (from >= until) throw Errors.badRequest('from', 'must be before to');
    const firstDay = cal.dayOf(from);
    const lastDay = cal.dayOf(until.getTime() - 1);
    const first = truncate(firstDay, query.interval);
    const last = truncate(lastDay, query.interval);
    const points = countPoints(first, last, query.interval);
    if (points > MAX_REVENUE_POINTS) {
      throw Errors.badRequest('from', `the range has ${points} ${query.interval}s; at most ${MAX_REVENUE_POINTS} points fit in one series`);
    }
    // Only the periods with payments come back, as one string of "unix-day revenue count" triples, and the
    // empty ones are filled in here: a year by day cost PostgreSQL 0.97 ms per request as a zero-filled series
    // in three ordered lists, 0.58-0.62 ms this way (parsing 366 rows instead had cost the API 0.43 ms of CPU, and
    // naming the days with toISOString 0.35 ms: isoDayOf takes 0.03 ms).
    const bucket = query.interval === 'day' ? Prisma.sql`day` : Prisma.sql`date_trunc(${query.interval}::text, day::timestamp)::date`;
    const [sums] = await this.database.readPrepared<{ points: string | null; total: string }>(Prisma.sql`
      SELECT string_agg(concat_ws(' ', bucket - DATE '1970-01-01', revenue, cnt), ',') AS points,
             coalesce(sum(revenue), 0)::numeric(20,2)::text AS total
      FROM (SELECT ${bucket} AS bucket, sum(amount) AS revenue, sum(n)::int AS cnt
            FROM ${paymentsByDay(orgId, { from, until }, cal)} p
            WHERE status IN ${SUCCESSFUL}
            GROUP BY 1) a`);
    const sumsByDay = new Map<number, string>();
    for (const triple of sums!.points?.split(',') ?? []) {
      const gap = triple.indexOf(' ');
      sumsByDay.set(Number(triple.slice(0, gap)), triple.slice(gap + 1));
    }
    const rows: RevenueSeries['points'] = [];
    for (let day = first; day <= last; day = nextPeriod(day, query.interval)) {
      const period = isoDayOf(day);
      const sum = sumsByDay.get(day);
      if (!sum) {
        rows.push({ period, revenue: '0.00', count: 0 });
        continue;
      }
      const gap = sum.indexOf(' ');
      rows.push({ period, revenue: sum.slice(0, gap), count: Number(sum.slice(gap + 1)) });
    }
    return {
      interval: query.interval,
      from: isoDayOf(firstDay),
      to: isoDayOf(lastDay),
      total_revenue: sums!.total,
      points: rows,
    };
  }

  async summarizeUsage(orgId: string, query: DateRangeQuery): Promise<UsageMetrics> {
    const period = toPeriod(query.from, query.to, this.calendar);
    const range = periodSql(Prisma.sql`created_at`, period);
    const tokenDays = tokensByDay(orgId, period, this.calendar);
    const [[tokens], byType, [devices], recent] = await Promise.all([
      this.sql.$queryRaw<{ total: number; active: number; expired: number; days: number }[]>`
        SELECT coalesce(sum(n), 0)::int AS total,
               coalesce(sum(n) FILTER (WHERE is_valid), 0)::int AS active,
               coalesce(sum(n) FILTER (WHERE NOT is_valid), 0)::int AS expired,
               coalesce(sum(days), 0)::float8 AS days
        FROM ${tokenDays} t`,
      this.sql.$queryRaw<{ token_type: string; count: number; days: number }[]>`
        SELECT token_type::text AS token_type, sum(n)::int AS count, coalesce(sum(days), 0)::float8 AS days
        FROM ${tokenDays} t
        GROUP BY token_type HAVING sum(n) <> 0 ORDER BY sum(n) DESC, token_type`,
      // Reads every assigned device (credit_until is not indexed, so that paying
      // never has to update an index: see migration 0008_items_fillfactor):
      // kept in MetricSnapshots when that is slow.
      this.snapshots.get(orgId, USAGE_DEVICES, () => this.countUsageDevices(orgId)).then((s) => [s.value]),
      this.sql.$queryRaw<RecentTokenRow[]>`
        SELECT token_log_id AS id, token_value, serial_number, customer_name, token_type::text AS token_type,
               days_generated::float8 AS days, status, is_valid, created_at
        FROM token_logs WHERE organization_id = ${orgId}${range}
        ORDER BY created_at DESC, token_log_id DESC LIMIT 3`,
    ]);
    return {
      tokens_total: tokens.total,
      tokens_active: tokens.active,
      tokens_expired: tokens.expired,
      days_generated: tokens.days,
      by_type: byType,
      active_devices: devices.active,
      expired_devices: devices.expired,
      recent: recent.map(MetricsMapper.recentToken),
    };
  }

  /**
   * Reads every assigned device and a year of payments: seconds on a
   * portfolio of a million devices, so it goes through MetricSnapshots
   * (kept up to 5 minutes there, live for small organizations).
   */
  async summarizePerformance(orgId: string): Promise<PerformanceMetrics> {
    const { value, computedAt } = await this.snapshots.get(orgId, PERFORMANCE, () => this.computePerformance(orgId));
    return { ...value, as_of: computedAt.toISOString() };
  }

  /** The dashboard's figures that MetricSnapshots keeps for a large organization, by key (see DashboardWarmer). */
  keptFigures(): KeptFigure[] {
    return [
      { key: PERFORMANCE, compute: (orgId) => this.computePerformance(orgId) },
      { key: USAGE_DEVICES, compute: (orgId) => this.countUsageDevices(orgId) },
    ];
  }

  private async countUsageDevices(orgId: string): Promise<{ active: number; expired: number }> {
    const [row] = await this.sql.$queryRaw<{ active: number; expired: number }[]>`
      SELECT count(*) FILTER (WHERE credit_until >= now())::int AS active,
             count(*) FILTER (WHERE credit_until < now())::int AS expired
      FROM items WHERE organization_id = ${orgId} AND is_assigned`;
    return row!;
  }

  private async computePerformance(orgId: string): Promise<Omit<PerformanceMetrics, 'as_of'>> {
    const yearAgo = new Date(Date.now() - 365 * DAY_MS).toISOString();
    // One transaction with room to group a million devices in memory (a hash
    // of them instead of walking a year of payments in device order: 6 s
    // instead of 63 s on 4.4 million payments).
    const [[collection], [gaps], [devices]] = await this.sql.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL work_mem = '256MB'`;
      return [
        await tx.$queryRaw<{ due: string; collected: string }[]>`
          WITH dev AS (
            SELECT i.total_paid,
                   least(coalesce(t.free_code_price, i.price) - i.discount,
                         t.deposit_made + t.daily_price * floor(extract(epoch FROM (now() - i.assigned_at)) / 86400)) AS due
            FROM items i
            ${devicePlanJoin()}
            WHERE i.organization_id = ${orgId} AND i.is_assigned AND i.assigned_at IS NOT NULL AND t.template_id IS NOT NULL
          )
          SELECT coalesce(sum(greatest(due, 0)), 0)::numeric(20,2)::text AS due,
                 coalesce(sum(least(total_paid, greatest(due, 0))), 0)::numeric(20,2)::text AS collected
          FROM dev`,
        // The gaps of one device add up to its last minus its first payment, so
        // the mean gap is Σ(last − first) / Σ(payments − 1): one grouping, no window sort.
        await tx.$queryRaw<{ avg_days: number }[]>`
          SELECT coalesce(round((sum(span) / nullif(sum(gaps), 0) / 86400)::numeric, 2), 0)::float8 AS avg_days FROM (
            SELECT extract(epoch FROM max(paid_at) - min(paid_at)) AS span, count(*) - 1 AS gaps
            FROM payments
            WHERE organization_id = ${orgId} AND item_id IS NOT NULL AND status IN ${SUCCESSFUL}
              AND paid_at >= ${yearAgo}::timestamptz
            GROUP BY item_id
            HAVING count(*) > 1
          ) g`,
        await tx.$queryRaw<{ paid_off: number; assigned: number; at_risk: number }[]>`
          SELECT count(*) FILTER (WHERE paid_off_at IS NOT NULL)::int AS paid_off,
                 count(*) FILTER (WHERE is_assigned)::int AS assigned,
                 count(*) FILTER (WHERE is_assigned AND paid_off_at IS NULL
                                   AND credit_until < now() - interval '7 days')::int AS at_risk
          FROM items WHERE organization_id = ${orgId}`,
      ] as const;
    }, { timeout: 600_000, maxWait: 10_000 });
    return {
      collection_rate: ratio(Number(collection.collected), Number(collection.due)),
      amount_due: collection.due,
      amount_collected: collection.collected,
      average_days_between_payments: gaps.avg_days,
      paid_off_devices: devices.paid_off,
      assigned_devices: devices.assigned,
      devices_at_risk: devices.at_risk,
      portfolio_at_risk: ratio(devices.at_risk, devices.assigned),
    };
  }
}

/** The first day of the day, ISO week (Monday) or month containing `day` (days counted from 1970-01-01, a Thursday). */
function truncate(day: number, interval: 'day' | 'week' | 'month'): number {
  if (interval === 'day') return day;
  if (interval === 'week') return day - (((day + 3) % 7) + 7) % 7;
  const at = new Date(day * DAY_MS);
  return unixDay(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)));
}

/** The first day of the period after the one starting on `day`. */
function nextPeriod(day: number, interval: 'day' | 'week' | 'month'): number {
  if (interval === 'day') return day + 1;
  if (interval === 'week') return day + 7;
  const at = new Date(day * DAY_MS);
  return unixDay(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)));
}

function countPoints(first: number, last: number, interval: 'day' | 'week' | 'month'): number {
  if (interval === 'day') return last - first + 1;
  if (interval === 'week') return Math.round((last - first) / 7) + 1;
  const [a, b] = [new Date(first * DAY_MS), new Date(last * DAY_MS)];
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
}
