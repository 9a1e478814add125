import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  NO_AGENT,
  PAYMENT_REQUEST_PROVIDER_LABELS,
  REPAYMENT_STANDING_LABELS,
  REPAYMENT_STANDINGS,
  repaidShare,
  type RepaymentStanding,
  REQUIRED_DOCUMENT_KINDS,
  TICKET_CATEGORY_LABELS,
  TICKET_STATUS_LABELS,
  type PaymentRequestProvider,
  type ReportColumn,
  type ReportRequest,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { SUCCESSFUL, isoDay, isoDayOf, periodSql, toPeriod, type Period } from '../metrics/period.js';
import { Calendar } from '../common/calendar.js';
import { MetricSnapshots, REPORT_KEY_PREFIX } from '../metrics/metric-snapshots.js';
import { paymentsByDay, tokensByDay } from '../stats/totals.js';
import { customerBalances, standingSql, toRepayment } from '../customers/balances.js';
import { localTime, type ReportStream, type Row } from './report-writers.js';
import { agentOfSql, commissionSql, devicesGivenByAgentSql, paymentsByAgentSql } from './commissions.js';
import { PORTFOLIO_COLUMNS, portfolioSql } from './portfolio.js';

/** Customers fetched per round trip: big enough to be quick, small enough to never hold a large report in memory. */
export const CUSTOMER_BATCH = 1000;
/** How old a large organization's portfolio report may be (see portfolioRows). */
const PORTFOLIO_MAX_AGE_S = 600;
/** A page of the customer report filtered by standing within this many rows is read from the stream (filteredPage). */
export const FILTERED_STREAM_BELOW = 2_000;
/** How old the totals of a paged customer report may be on a large organization (see customerTotals). */
const PAGED_TOTALS_MAX_AGE_S = 60;

const COLUMNS: Record<ReportRequest['report'], ReportColumn[]> = {
  revenue: [
    { key: 'month', label: 'Month', type: 'text' },
    { key: 'revenue', label: 'Revenue', type: 'money' },
    { key: 'payments', label: 'Payments', type: 'number' },
  ],
  customers: [
    { key: 'customer_id', label: 'Customer ID', type: 'number' },
    { key: 'customer_name', label: 'Customer Name', type: 'text' },
    { key: 'phone_contact', label: 'Phone Contact', type: 'text' },
    { key: 'status', label: 'Status', type: 'text' },
    { key: 'devices', label: 'Devices', type: 'number' },
    { key: 'total_paid', label: 'Total Paid', type: 'money' },
    { key: 'remaining', label: 'Remaining', type: 'money' },
    { key: 'expected', label: 'Expected by Today', type: 'money' },
    { key: 'paid_towards', label: 'Paid Towards It', type: 'money' },
    { key: 'repaid_share', label: 'Repaid %', type: 'percent' },
    { key: 'standing', label: 'Standing', type: 'text' },
    { key: 'created_at', label: 'Created', type: 'date' },
  ],
  tokens: [
    { key: 'day', label: 'Day', type: 'date' },
    { key: 'token_type', label: 'Token Type', type: 'text' },
    { key: 'tokens', label: 'Tokens', type: 'number' },
    { key: 'days', label: 'Days', type: 'number' },
  ],
  repossessions: [
    { key: 'repossessed_at', label: 'Repossessed', type: 'date' },
    { key: 'serial_number', label: 'Serial Number', type: 'text' },
    { key: 'customer_name', label: 'Customer', type: 'text' },
    { key: 'total_paid', label: 'Total Paid', type: 'money' },
    { key: 'written_off', label: 'Written Off', type: 'money' },
    { key: 'recovered', label: 'Device Recovered', type: 'text' },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'repossessed_by', label: 'By', type: 'text' },
  ],
  agents: [
    { key: 'agent', label: 'Agent', type: 'text' },
    { key: 'new_customers', label: 'New Customers', type: 'number' },
    { key: 'devices_given', label: 'Devices Given', type: 'number' },
    { key: 'payments', label: 'Payments', type: 'number' },
    { key: 'revenue', label: 'Revenue', type: 'money' },
    { key: 'commission', label: 'Commission', type: 'money' },
    { key: 'out_of_credit', label: 'Out of Credit Now', type: 'number' },
    { key: 'over_30_days', label: 'Over 30 Days', type: 'number' },
  ],
  tickets: [
    { key: 'ticket_id', label: 'Ticket', type: 'number' },
    { key: 'opened_at', label: 'Opened', type: 'date' },
    { key: 'serial_number', label: 'Serial Number', type: 'text' },
    { key: 'customer_name', label: 'Customer', type: 'text' },
    { key: 'category', label: 'Category', type: 'text' },
    { key: 'status', label: 'Status', type: 'text' },
    { key: 'assigned_to', label: 'Assigned To', type: 'text' },
    { key: 'resolved_at', label: 'Resolved', type: 'date' },
    { key: 'days_to_resolve', label: 'Days to Resolve', type: 'number' },
    { key: 'free_days', label: 'Free Days', type: 'number' },
  ],
  portfolio: PORTFOLIO_COLUMNS,
  documents: [
    { key: 'agent', label: 'Agent', type: 'text' },
    { key: 'devices_given', label: 'Devices Given', type: 'number' },
    { key: 'id_card', label: 'ID Card (Both Sides)', type: 'number' },
    { key: 'photo', label: 'Photo', type: 'number' },
    { key: 'agreement', label: 'Signed Agreement', type: 'number' },
    { key: 'complete', label: 'Complete', type: 'number' },
    { key: 'complete_share', label: 'Complete %', type: 'percent' },
    { key: 'missing', label: 'Missing Documents', type: 'number' },
  ],
  payment_requests: [
    { key: 'sent_by', label: 'Sent By', type: 'text' },
    { key: 'paid_with', label: 'Paid With', type: 'text' },
    { key: 'currency', label: 'Currency', type: 'text' },
    { key: 'requests', label: 'Requests', type: 'number' },
    { key: 'paid', label: 'Paid', type: 'number' },
    { key: 'paid_amount', label: 'Amount Paid', type: 'money' },
    { key: 'cancelled', label: 'Cancelled', type: 'number' },
    { key: 'failed', label: 'Failed', type: 'number' },
    { key: 'no_answer', label: 'No Answer Yet', type: 'number' },
    { key: 'paid_share', label: 'Paid %', type: 'percent' },
  ],
  swaps: [
    { key: 'swapped_at', label: 'Swapped', type: 'date' },
    { key: 'serial_number', label: 'Faulty Device', type: 'text' },
    { key: 'product_name', label: 'Product', type: 'text' },
    { key: 'manufacturer', label: 'Maker', type: 'text' },
    { key: 'new_serial_number', label: 'Replacement', type: 'text' },
    { key: 'customer_name', label: 'Customer', type: 'text' },
    { key: 'days_moved', label: 'Days Moved', type: 'number' },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'warranty', label: 'Warranty', type: 'text' },
    { key: 'warranty_until', label: 'Warranty Until', type: 'date' },
    { key: 'swapped_by', label: 'By', type: 'text' },
  ],
  discounts: [
    { key: 'given_at', label: 'Given', type: 'date' },
    { key: 'serial_number', label: 'Serial Number', type: 'text' },
    { key: 'customer_name', label: 'Customer', type: 'text' },
    { key: 'amount', label: 'Discount', type: 'money' },
    { key: 'currency', label: 'Currency', type: 'text' },
    { key: 'remaining_before', label: 'Left Before', type: 'money' },
    { key: 'remaining_after', label: 'Left After', type: 'money' },
    { key: 'paid_off', label: 'Paid Off', type: 'text' },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'given_by', label: 'By', type: 'text' },
  ],
};


/** Columns added up in the totals row (ids are numbers but not quantities). */
const SUMMED: Record<ReportRequest['report'], string[]> = {
  revenue: ['revenue', 'payments'],
  // And the share repaid over all of them (withRepaidShare).
  customers: ['devices', 'total_paid', 'remaining', 'expected', 'paid_towards'],
  tokens: ['tokens', 'days'],
  repossessions: ['total_paid', 'written_off'],
  agents: ['new_customers', 'devices_given', 'payments', 'revenue', 'commission', 'out_of_credit', 'over_30_days'],
  tickets: ['free_days'],
  // Its totals are shares of the whole, not sums of the rows: the statement works them out (portfolioRows).
  portfolio: [],
  // Its totals carry the share complete over all the rows too (documentRows).
  documents: [],
  // And the share paid (paymentRequestRows).
  payment_requests: [],
  swaps: ['days_moved'],
  discounts: ['amount'],
};

const TITLES: Record<ReportRequest['report'], string> = {
  revenue: 'Revenue Report',
  customers: 'Customer Report',
  tokens: 'Token Report',
  repossessions: 'Repossession Report',
  agents: 'Agent Report',
  tickets: 'Service Ticket Report',
  portfolio: 'Portfolio Report',
  documents: 'Documents Report',
  payment_requests: 'Ask to Pay Report',
  swaps: 'Device Swap Report',
  discounts: 'Discount Report',
};

/** A report's heading: what, over which period, when, and its columns. */
const metaOf = (req: ReportRequest): ReportStream['meta'] => ({
  report: req.report,
  title: TITLES[req.report],
  from: req.from ? req.from.slice(0, 10) : null,
  to: req.to ? req.to.slice(0, 10) : null,
  generated_at: new Date().toISOString(),
  columns: COLUMNS[req.report],
});

/** What a customer report filtered by standing says it holds, in the PDF and the JSON. */
const standingNote = (standing: RepaymentStanding[]) =>
  `Standing: ${REPAYMENT_STANDINGS.filter((s) => standing.includes(s)).map((s) => REPAYMENT_STANDING_LABELS[s]).join(', ')} only.`;

/** The customer report's totals with the share repaid over all of them: what was paid towards what the plans expect by today. */
const withRepaidShare = (t: Row): Row => ({ ...t, repaid_share: repaidShare(Number(t.paid_towards ?? 0), Number(t.expected ?? 0)) });

/** Sums money in cents and counts as integers while rows stream past. */
class Totals {
  private readonly sums = new Map<string, number>();
  private rows = 0;
  constructor(private readonly columns: ReportColumn[], private readonly keys: string[]) {}

  add(batch: Row[]): Row[] {
    for (const row of batch) {
      this.rows++;
      for (const key of this.keys) {
        const money = this.columns.find((c) => c.key === key)?.type === 'money';
        const v = Number(row[key] ?? 0);
        this.sums.set(key, (this.sums.get(key) ?? 0) + (money ? Math.round(v * 100) : v));
      }
    }
    return batch;
  }

  result(): Row {
    const out: Row = { rows: this.rows };
    for (const key of this.keys) {
      const money = this.columns.find((c) => c.key === key)?.type === 'money';
      const sum = this.sums.get(key) ?? 0;
      out[key] = money ? (sum / 100).toFixed(2) : Math.round(sum * 100) / 100;
    }
    return out;
  }
}

@Injectable()
export class ReportsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly snapshots: MetricSnapshots,
    private readonly calendar: Calendar,
  ) {}

  /** The report as a stream of row batches; nothing runs until the writer pulls the first batch. */
  open(orgId: string, req: ReportRequest): ReportStream {
    const period = toPeriod(req.from, req.to, this.calendar);
    const columns = COLUMNS[req.report];
    const totals = new Totals(columns, SUMMED[req.report]);
    const note: { text: string | null } = { text: null };
    const whole: { row: Row | null } = { row: null };
    const source =
      req.report === 'portfolio'
        ? this.portfolioRows(orgId, req, period, whole, note)
        : req.report === 'revenue'
        ? this.revenueRows(orgId, period)
        : req.report === 'customers'
          ? this.customerRows(orgId, period, req.standing)
          : req.report === 'tokens'
            ? this.tokenRows(orgId, period)
            : req.report === 'agents'
              ? this.agentRows(orgId, period, note)
              : req.report === 'tickets'
                ? this.ticketRows(orgId, period)
                : req.report === 'documents'
                  ? this.documentRows(orgId, period, whole)
                  : req.report === 'payment_requests'
                    ? this.paymentRequestRows(orgId, period, whole)
                    : req.report === 'swaps'
                      ? this.swapRows(orgId, period)
                      : req.report === 'discounts'
                        ? this.discountRows(orgId, period)
                        : this.repossessionRows(orgId, period);
    async function* counted() {
      for await (const batch of source) yield totals.add(batch);
    }
    return {
      meta: metaOf(req),
      batches: counted(),
      totals: () => whole.row ?? (req.report === 'customers' ? withRepaidShare(totals.result()) : totals.result()),
      timeZone: this.calendar.zone,
      ...(req.report === 'agents' || req.report === 'portfolio' ? { note: () => note.text } : {}),
      ...(req.standing ? { note: () => standingNote(req.standing!) } : {}),
    };
  }

  /**
   * Successful payments per business month (TIME_ZONE), months without payments included,
   * from the payments' daily totals (payment_stats; the rows themselves only
   * for part days at the ends of the period): a year of 4,500,000 payments
   * was 1.1 s counted from the rows.
   */
  private async *revenueRows(orgId: string, period: Period): AsyncGenerator<Row[]> {
    const db = this.database.read;
    const days = Prisma.sql`(
      SELECT day, sum(amount) AS amount, sum(n) AS n FROM ${paymentsByDay(orgId, period, this.calendar)} p
      WHERE status IN ${SUCCESSFUL} GROUP BY day HAVING sum(n) <> 0)`;
    // The first and last days with payments, where the period leaves an end open.
    const [bounds] =
      period.from && period.until
        ? [null]
        : await db.$queryRaw<{ first: Date | null; last: Date | null }[]>`SELECT min(day) AS first, max(day) AS last FROM ${days} d`;
    // The first and last business days of the report (the bounds are DATE values already).
    const start = period.from ? isoDayOf(this.calendar.dayOf(period.from)) : bounds?.first ? isoDay(bounds.first) : null;
    const end = period.until ? isoDayOf(this.calendar.dayOf(period.until.getTime() - 1)) : bounds?.last ? isoDay(bounds.last) : null;
    if (!start || !end || start > end) {
      yield [];
      return;
    }
    const rows = await db.$queryRaw<{ month: string; revenue: string; payments: number }[]>`
      WITH agg AS (
        SELECT date_trunc('month', day::timestamp) AS bucket, sum(amount) AS revenue, sum(n)::int AS cnt FROM ${days} d GROUP BY 1
      )
      SELECT to_char(s.m, 'YYYY-MM') AS month, coalesce(a.revenue, 0)::numeric(20,2)::text AS revenue, coalesce(a.cnt, 0)::int AS payments
      FROM generate_series(date_trunc('month', ${start}::timestamp), date_trunc('month', ${end}::timestamp), interval '1 month') AS s(m)
      LEFT JOIN agg a ON a.bucket = s.m
      ORDER BY s.m`;
    yield rows;
  }

  /**
   * Customers registered in the period, in keyset batches by id: each batch
   * is one indexed query, so a million customers stream at constant memory.
   * With `standing`, only the customers of those repayment standings: each
   * batch is worked out whole and filtered (the standing depends on today).
   */
  private async *customerRows(orgId: string, period: Period, standing?: RepaymentStanding[]): AsyncGenerator<Row[]> {
    const wanted = standing && new Set<unknown>(standing.map((k) => REPAYMENT_STANDING_LABELS[k]));
    let after = 0;
    for (;;) {
      const rows = await this.customers(orgId, period, Prisma.sql`AND customer_id > ${after}::int ORDER BY customer_id LIMIT ${CUSTOMER_BATCH}::int`);
      if (!rows.length) return;
      after = rows[rows.length - 1]!.customer_id as number;
      const kept = wanted ? rows.filter((r) => wanted.has(r.standing)) : rows;
      if (kept.length) yield kept;
      if (rows.length < CUSTOMER_BATCH) return;
    }
  }

  /**
   * Customer report rows of the period, `tail` ordering and limiting them:
   * the customers are chosen in their own index first, and only those get
   * their devices and payments added up (offset 500,000 added them up for
   * every customer it skipped: 15 s). Remaining is customerBalances', the
   * balance of GET /customers/{id}/status.
   */
  private async customers(orgId: string, period: Period, tail: Prisma.Sql): Promise<Row[]> {
    const rows = await this.database.read.$queryRaw<
      {
        customer_id: number;
        customer_name: string;
        phone_contact: string;
        status: string;
        devices: number;
        total_paid: string;
        remaining: string;
        expected: string | null;
        paid_towards: string | null;
        repayment_paid_off: boolean | null;
        created_at: Date;
      }[]
    >`
      SELECT c.customer_id, c.customer_name, c.phone_contact, c.status,
             coalesce(b.devices, 0)::int AS devices,
             coalesce(pp.paid, 0)::numeric(20,2)::text AS total_paid,
             coalesce(b.remaining, 0)::numeric(20,2)::text AS remaining,
             b.expected::numeric(20,2)::text AS expected, b.paid_towards::numeric(20,2)::text AS paid_towards, b.repayment_paid_off,
             c.created_at
      FROM (
        SELECT customer_id FROM customers
        WHERE organization_id = ${orgId}${periodSql(Prisma.sql`created_at`, period)}
        ${tail}
      ) k
      JOIN customers c ON c.organization_id = ${orgId} AND c.customer_id = k.customer_id
      LEFT JOIN LATERAL ${customerBalances(orgId, Prisma.sql`c.customer_id`)} b ON true
      LEFT JOIN LATERAL (
        SELECT sum(p.amount) AS paid FROM payments p
        WHERE p.organization_id = c.organization_id AND p.customer_id = c.customer_id AND p.status IN ${SUCCESSFUL}
      ) pp ON true
      ORDER BY c.customer_id`;
    return rows.map(({ repayment_paid_off, ...r }) => {
      const repayment = toRepayment(r.expected, r.paid_towards, repayment_paid_off ?? false);
      return {
        ...r,
        repaid_share: repayment.repaid_share,
        standing: repayment.standing && REPAYMENT_STANDING_LABELS[repayment.standing],
        created_at: r.created_at.toISOString(),
      };
    });
  }

  /**
   * The customer report's totals row, in one pass of each table (grouped by
   * customer) instead of one lookup per customer: 1,000,000 customers and
   * 4,500,000 payments in 6 s, where reading every row of the report took
   * 90 s. Kept up to PAGED_TOTALS_MAX_AGE_S when slow, so that paging
   * through the report does not add them up again on every page.
   */
  private async customerTotals(orgId: string, period: Period, req: ReportRequest): Promise<Row> {
    const standing = req.standing ? [...req.standing].sort() : null;
    const key = `${REPORT_KEY_PREFIX}customers.${req.from ?? ''}.${req.to ?? ''}${standing ? `.${standing.join('+')}` : ''}`;
    const compute = async () => {
      // Each table read once and grouped by hashing (the "+ 0" keeps PostgreSQL from grouping the payments in
      // customer order through their index instead: every payment read at random, 31 s, in each of three workers).
      const [t] = await this.database.readQuery<{ rows: number; devices: number; total_paid: string; remaining: string; expected: string; paid_towards: string }>(Prisma.sql`
        WITH c AS MATERIALIZED (
          SELECT customer_id FROM customers WHERE organization_id = ${orgId}${periodSql(Prisma.sql`created_at`, period)}
        ), pp AS MATERIALIZED (
          SELECT customer_id, sum(amount) AS paid FROM payments
          WHERE organization_id = ${orgId} AND customer_id IS NOT NULL AND status IN ${SUCCESSFUL}
          GROUP BY customer_id + 0, customer_id
        ), d AS MATERIALIZED (
          SELECT customer_id, devices, remaining, expected, paid_towards, ${standingSql('b')} AS standing FROM ${customerBalances(orgId)} b
        )
        SELECT count(*)::int AS rows, coalesce(sum(coalesce(d.devices, 0)), 0)::int AS devices,
               coalesce(sum(coalesce(pp.paid, 0)), 0)::numeric(20,2)::text AS total_paid,
               coalesce(sum(d.remaining), 0)::numeric(20,2)::text AS remaining,
               coalesce(sum(d.expected), 0)::numeric(20,2)::text AS expected,
               coalesce(sum(d.paid_towards), 0)::numeric(20,2)::text AS paid_towards
        FROM c
        LEFT JOIN d ON d.customer_id = c.customer_id
        LEFT JOIN pp ON pp.customer_id = c.customer_id
        ${standing ? Prisma.sql`WHERE d.standing IN (${Prisma.join(standing)})` : Prisma.empty}`);
      return t!;
    };
    return withRepaidShare((await this.snapshots.get(orgId, key, compute, PAGED_TOTALS_MAX_AGE_S)).value);
  }

  /**
   * One page of a report (`limit` rows from `offset`) with the totals of the
   * whole of it. The revenue and token reports are a row per month or per
   * day and type, read whole and cut; the customer report reads the page's
   * customers only, its totals aggregated (see customerTotals).
   */
  async page(orgId: string, req: ReportRequest & { limit: number }): Promise<ReportStream> {
    const offset = req.offset ?? 0;
    const once = (rows: Row[]) => (async function* () { yield rows; })();
    if (req.report !== 'customers') {
      const whole = this.open(orgId, req);
      const rows: Row[] = [];
      for await (const batch of whole.batches) rows.push(...batch);
      return { ...whole, batches: once(rows.slice(offset, offset + req.limit)) };
    }
    const period = toPeriod(req.from, req.to, this.calendar);
    const [rows, totals] = await Promise.all([
      req.standing
        ? this.filteredPage(orgId, period, req.standing, offset, req.limit)
        : this.customers(orgId, period, Prisma.sql`ORDER BY customer_id LIMIT ${req.limit}::int OFFSET ${offset}::int`),
      this.customerTotals(orgId, period, req),
    ]);
    return {
      meta: metaOf(req),
      batches: once(rows),
      totals: () => totals,
      timeZone: this.calendar.zone,
      ...(req.standing ? { note: () => standingNote(req.standing!) } : {}),
    };
  }

  /**
   * A page of the customer report filtered by standing. Among the first
   * `streamBelow` rows, from the filtered stream (the customers from the
   * first, a batch at a time, until the page is full: on the large
   * organization a few hundred milliseconds for the first pages); deeper,
   * by one hashed pass over the organization's devices for the page's
   * customers, then their rows (seconds, whatever the depth, as the totals;
   * docs/performance.md, "Repayment standing").
   */
  async filteredPage(orgId: string, period: Period, standing: RepaymentStanding[], offset: number, limit: number, streamBelow = FILTERED_STREAM_BELOW): Promise<Row[]> {
    if (offset + limit > streamBelow) {
      const ids = await this.database.readQuery<{ customer_id: number }>(Prisma.sql`
        WITH d AS MATERIALIZED (SELECT b.customer_id, ${standingSql('b')} AS standing FROM ${customerBalances(orgId)} b)
        SELECT c.customer_id FROM customers c JOIN d ON d.customer_id = c.customer_id
        WHERE c.organization_id = ${orgId}${periodSql(Prisma.sql`c.created_at`, period)} AND d.standing IN (${Prisma.join(standing)})
        ORDER BY c.customer_id OFFSET ${offset}::int LIMIT ${limit}::int`);
      if (!ids.length) return [];
      return this.customers(orgId, period, Prisma.sql`AND customer_id = ANY(${ids.map((r) => r.customer_id)}::int[]) ORDER BY customer_id`);
    }
    const rows: Row[] = [];
    let skip = offset;
    for await (const batch of this.customerRows(orgId, period, standing)) {
      const from = Math.min(skip, batch.length);
      skip -= from;
      rows.push(...batch.slice(from, from + limit - rows.length));
      if (rows.length >= limit) break;
    }
    return rows;
  }

  /** Devices repossessed in the period, newest first (a few a day at most: read whole, by the repossessed_at index). */
  private async *repossessionRows(orgId: string, period: Period): AsyncGenerator<Row[]> {
    yield await this.database.read.$queryRaw<Row[]>`
      SELECT to_char(r.repossessed_at AT TIME ZONE ${this.calendar.zone}, 'YYYY-MM-DD') AS repossessed_at, i.serial_number,
             c.customer_name, r.total_paid::numeric(20,2)::text AS total_paid, r.written_off::numeric(20,2)::text AS written_off,
             CASE WHEN r.status = 'retired' THEN 'No' ELSE 'Yes' END AS recovered, r.reason, r.repossessed_by
      FROM repossessions r
      JOIN items i ON i.organization_id = r.organization_id AND i.item_id = r.item_id
      JOIN customers c ON c.organization_id = r.organization_id AND c.customer_id = r.customer_id
      WHERE r.organization_id = ${orgId} ${periodSql(Prisma.sql`r.repossessed_at`, period)}
      ORDER BY r.repossessed_at DESC, r.repossession_id DESC`;
  }

  /** Discounts given in the period and not voided, newest first (a few a week: read whole, by the given_at index). */
  private async *discountRows(orgId: string, period: Period): AsyncGenerator<Row[]> {
    yield await this.database.read.$queryRaw<Row[]>`
      SELECT to_char(d.given_at AT TIME ZONE ${this.calendar.zone}, 'YYYY-MM-DD') AS given_at, i.serial_number, c.customer_name,
             d.amount::numeric(20,2)::text AS amount, d.currency, d.remaining_before::numeric(20,2)::text AS remaining_before,
             d.remaining_after::numeric(20,2)::text AS remaining_after,
             CASE WHEN d.unlock_token_count IS NOT NULL THEN 'Yes' ELSE 'No' END AS paid_off, d.reason, d.given_by
      FROM device_discounts d
      JOIN items i ON i.organization_id = d.organization_id AND i.item_id = d.item_id
      JOIN customers c ON c.organization_id = d.organization_id AND c.customer_id = d.customer_id
      WHERE d.organization_id = ${orgId} AND d.voided_at IS NULL ${periodSql(Prisma.sql`d.given_at`, period)}
      ORDER BY d.given_at DESC, d.discount_id DESC`;
  }

  /**
   * Devices swapped in the period, newest first (a few a week: read whole, by the swapped_at index), with the faulty
   * device's product and maker (its OEM when no maker is recorded): a warranty claim's list.
   */
  private async *swapRows(orgId: string, period: Period): AsyncGenerator<Row[]> {
    yield await this.database.read.$queryRaw<Row[]>`
      SELECT to_char(s.swapped_at AT TIME ZONE ${this.calendar.zone}, 'YYYY-MM-DD') AS swapped_at, o.serial_number, o.product_name,
             coalesce(o.manufacturer, o.product_oem) AS manufacturer, n.serial_number AS new_serial_number, c.customer_name,
             s.days_moved, s.reason,
             -- The old device's warranty as it stood on the day of the swap (README "Warranties").
             CASE WHEN s.warranty_until IS NULL THEN 'None set' WHEN s.swapped_at < s.warranty_until THEN 'In warranty' ELSE 'Out of warranty' END AS warranty,
             to_char(s.warranty_until AT TIME ZONE ${this.calendar.zone}, 'YYYY-MM-DD') AS warranty_until, s.swapped_by
      FROM device_swaps s
      JOIN items o ON o.organization_id = s.organization_id AND o.item_id = s.old_item_id
      JOIN items n ON n.organization_id = s.organization_id AND n.item_id = s.new_item_id
      JOIN customers c ON c.organization_id = s.organization_id AND c.customer_id = s.customer_id
      WHERE s.organization_id = ${orgId} ${periodSql(Prisma.sql`s.swapped_at`, period)}
      ORDER BY s.swapped_at DESC, s.swap_id DESC`;
  }

  /**
   * Service tickets opened in the period, newest first, in keyset batches on
   * (opened_at, ticket_id) (its index on them): a year of a
   * large organization's tickets streams at constant memory.
   */
  private async *ticketRows(orgId: string, period: Period): AsyncGenerator<Row[]> {
    let after: { at: Date; id: number } | null = null;
    for (;;) {
      const rows: (Row & { at: Date })[] = await this.database.readQuery(Prisma.sql`
        SELECT t.opened_at AS at, t.ticket_id, to_char(t.opened_at AT TIME ZONE ${this.calendar.zone}, 'YYYY-MM-DD') AS opened_at,
               i.serial_number, c.customer_name,
               ${Prisma.raw(`CASE t.category ${Object.entries(TICKET_CATEGORY_LABELS).map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} END`)} AS category,
               ${Prisma.raw(`CASE t.status ${Object.entries(TICKET_STATUS_LABELS).map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} END`)} AS status,
               u.username AS assigned_to,
               to_char(t.resolved_at AT TIME ZONE ${this.calendar.zone}, 'YYYY-MM-DD') AS resolved_at,
               CASE WHEN t.resolved_at IS NOT NULL THEN floor(extract(epoch FROM t.resolved_at - t.opened_at) / 86400)::int END AS days_to_resolve,
               t.compensation_days AS free_days
        FROM service_tickets t
        JOIN items i ON i.organization_id = t.organization_id AND i.item_id = t.item_id
        LEFT JOIN customers c ON c.organization_id = t.organization_id AND c.customer_id = t.customer_id
        LEFT JOIN users u ON u.user_id = t.assigned_to
        WHERE t.organization_id = ${orgId} ${periodSql(Prisma.sql`t.opened_at`, period)}
          ${after ? Prisma.sql`AND (t.opened_at, t.ticket_id) < (${after.at}::timestamptz, ${after.id}::int)` : Prisma.empty}
        ORDER BY t.opened_at DESC, t.ticket_id DESC LIMIT ${CUSTOMER_BATCH}::int`);
      if (!rows.length) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, id: last.ticket_id as number };
      yield rows.map(({ at: _at, ...row }) => row);
      if (rows.length < CUSTOMER_BATCH) return;
    }
  }

  /**
   * Per sales agent (customers.agent_id, trimmed; NO_AGENT for none): the
   * customers registered and devices given in the period, the successful
   * payments of their customers in the period (the payments' (organization,
   * paid_at) range, each joined to its customer by key), the commission on
   * them (the organization's commission settings), and their devices out of
   * credit now (open_accounts, which keep each account's agent: one pass over
   * them, no join). Most revenue first.
   */
  private async *agentRows(orgId: string, period: Period, note: { text: string | null }): AsyncGenerator<Row[]> {
    const agent = agentOfSql;
    const [rates] = await this.database.read.$queryRaw<{ per_device: string; percent: string }[]>`
      SELECT commission_per_device::text AS per_device, commission_percent::text AS percent FROM organizations WHERE organization_id = ${orgId}`;
    note.text =
      !rates || (Number(rates.per_device) === 0 && Number(rates.percent) === 0)
        ? 'No agent commissions are set: owners and admins set them in Settings, Agent Commissions.'
        : `Commission: ${rates.per_device} per device given and ${rates.percent}% of payments collected, as set in Settings, Agent Commissions.`;
    yield await this.database.read.$queryRaw<Row[]>`
      WITH nc AS (
        SELECT ${agent} AS agent, count(*)::int AS n FROM customers c
        WHERE c.organization_id = ${orgId} ${periodSql(Prisma.sql`c.created_at`, period)} GROUP BY 1
      ), dg AS (${devicesGivenByAgentSql(orgId, period)}
      ), pm AS (${paymentsByAgentSql(orgId, period)}
      ), oc AS (
        SELECT coalesce(o.agent, ${NO_AGENT}) AS agent, count(*) FILTER (WHERE o.since <= now())::int AS n,
               count(*) FILTER (WHERE o.since <= now() - interval '31 days')::int AS over30
        FROM open_accounts o
        WHERE o.organization_id = ${orgId} GROUP BY 1
      ), agents AS (SELECT agent FROM nc UNION SELECT agent FROM dg UNION SELECT agent FROM pm UNION SELECT agent FROM oc)
      SELECT a.agent, coalesce(nc.n, 0) AS new_customers, coalesce(dg.n, 0) AS devices_given, coalesce(pm.n, 0) AS payments,
             coalesce(pm.revenue, 0)::numeric(20,2)::text AS revenue,
             ${commissionSql(
               Prisma.sql`k.commission_per_device`,
               Prisma.sql`k.commission_percent`,
               Prisma.sql`coalesce(dg.n, 0)`,
               Prisma.sql`coalesce(pm.revenue, 0)`,
             )}::numeric(20,2)::text AS commission,
             coalesce(oc.n, 0) AS out_of_credit, coalesce(oc.over30, 0) AS over_30_days
      FROM agents a
      CROSS JOIN (SELECT commission_per_device, commission_percent FROM organizations WHERE organization_id = ${orgId}) k
      LEFT JOIN nc ON nc.agent = a.agent LEFT JOIN dg ON dg.agent = a.agent LEFT JOIN pm ON pm.agent = a.agent LEFT JOIN oc ON oc.agent = a.agent
      WHERE coalesce(nc.n, 0) + coalesce(dg.n, 0) + coalesce(pm.n, 0) + coalesce(oc.n, 0) > 0
      ORDER BY coalesce(pm.revenue, 0) DESC, (a.agent = ${NO_AGENT}), a.agent`;
  }

  /**
   * The devices given in the period by sales agent (as agentRows counts them)
   * and how complete their customers' files are, the least complete agent
   * first: the kinds of the period's customers' documents, read from the
   * (organization, customer, kind) index and grouped once per customer.
   * `whole` takes the sums, with the share complete over all of them.
   */
  private async *documentRows(orgId: string, period: Period, whole: { row: Row | null }): AsyncGenerator<Row[]> {
    const agent = agentOfSql;
    // A file is complete as the customer's page says it is: every kind of REQUIRED_DOCUMENT_KINDS (columns of docs below).
    const isComplete = Prisma.raw(REQUIRED_DOCUMENT_KINDS.map((k) => `d.${k}`).join(' AND '));
    const rows = await this.database.read.$queryRaw<
      { agent: string; devices_given: number; id_card: number; photo: number; agreement: number; complete: number }[]
    >`
      WITH given AS MATERIALIZED (
        SELECT ${agent} AS agent, a.customer_id
        FROM item_assignments a
        JOIN customers c ON c.organization_id = a.organization_id AND c.customer_id = a.customer_id
        WHERE a.organization_id = ${orgId} AND a.swapped_from_item_id IS NULL AND a.brought_over_at IS NULL AND a.transferred_from_customer_id IS NULL AND c.status <> 'erased' ${periodSql(Prisma.sql`a.assigned_at`, period)}
      ), docs AS (
        -- The kinds of the period's customers only, from the (organization, customer, kind) index.
        SELECT x.customer_id, bool_or(x.kind = 'id_front') AS id_front, bool_or(x.kind = 'id_back') AS id_back,
               bool_or(x.kind = 'photo') AS photo, bool_or(x.kind = 'agreement') AS agreement
        FROM customer_documents x
        WHERE x.organization_id = ${orgId} AND x.customer_id IN (SELECT customer_id FROM given)
        GROUP BY x.customer_id
      ), g AS (
        SELECT n.agent, count(*)::int AS devices_given,
               count(*) FILTER (WHERE d.id_front AND d.id_back)::int AS id_card,
               count(*) FILTER (WHERE d.photo)::int AS photo,
               count(*) FILTER (WHERE d.agreement)::int AS agreement,
               count(*) FILTER (WHERE ${isComplete})::int AS complete
        FROM given n LEFT JOIN docs d ON d.customer_id = n.customer_id
        GROUP BY n.agent
      )
      SELECT * FROM g ORDER BY g.complete::numeric / g.devices_given, g.devices_given DESC, (g.agent = ${NO_AGENT}), g.agent`;
    const share = (complete: number, given: number) => (given ? Math.round((1000 * complete) / given) / 10 : null);
    const sum = (key: 'devices_given' | 'id_card' | 'photo' | 'agreement' | 'complete') => rows.reduce((n, r) => n + r[key], 0);
    const given = sum('devices_given');
    const complete = sum('complete');
    whole.row = {
      rows: rows.length,
      devices_given: given,
      id_card: sum('id_card'),
      photo: sum('photo'),
      agreement: sum('agreement'),
      complete,
      complete_share: share(complete, given),
      missing: given - complete,
    };
    yield rows.map((r) => ({ ...r, complete_share: share(r.complete, r.devices_given), missing: r.devices_given - r.complete }));
  }

  /**
   * The Ask to Pay requests sent in the period, by who sent them (a user since removed is "(removed user)", Pay Now on the customer's page "(the customer: page or USSD)") and with
   * what (M-Pesa Express, MTN MoMo, Airtel Money) in which money, the most money collected first; `whole` takes the sums and the share
   * paid over all of them (the amount only when they are all in one money). A request still pending
   * (waiting, or past its 3 minutes without a result) counts as no answer yet. From `(organization_id, created_at)`.
   */
  private async *paymentRequestRows(orgId: string, period: Period, whole: { row: Row | null }): AsyncGenerator<Row[]> {
    const rows = await this.database.read.$queryRaw<
      { sent_by: string; provider: string; currency: string; requests: number; paid: number; paid_cents: bigint; cancelled: number; failed: number; no_answer: number }[]
    >`
      SELECT CASE WHEN r.from_customer_page THEN '(the customer: page or USSD)' ELSE coalesce(u.username, '(removed user)') END AS sent_by,
             r.provider, r.currency, count(*)::int AS requests,
             count(*) FILTER (WHERE r.status = 'paid')::int AS paid,
             coalesce(sum(r.amount * 100) FILTER (WHERE r.status = 'paid'), 0)::bigint AS paid_cents,
             count(*) FILTER (WHERE r.status = 'cancelled')::int AS cancelled,
             count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
             count(*) FILTER (WHERE r.status = 'pending')::int AS no_answer
      FROM payment_requests r LEFT JOIN users u ON u.user_id = r.requested_by
      WHERE r.organization_id = ${orgId} ${periodSql(Prisma.sql`r.created_at`, period)}
      GROUP BY 1, 2, 3
      ORDER BY paid_cents DESC, requests DESC, sent_by, r.provider, r.currency`;
    const share = (paid: number, requests: number) => (requests ? Math.round((1000 * paid) / requests) / 10 : null);
    const money = (cents: bigint | number) => (Number(cents) / 100).toFixed(2);
    const sum = (key: 'requests' | 'paid' | 'cancelled' | 'failed' | 'no_answer') => rows.reduce((n, r) => n + r[key], 0);
    const requests = sum('requests');
    const paid = sum('paid');
    whole.row = {
      rows: rows.length,
      requests,
      paid,
      paid_amount: new Set(rows.map((r) => r.currency)).size > 1 ? null : money(rows.reduce((n, r) => n + BigInt(r.paid_cents), 0n)),
      cancelled: sum('cancelled'),
      failed: sum('failed'),
      no_answer: sum('no_answer'),
      paid_share: share(paid, requests),
    };
    yield rows.map(({ paid_cents, provider, sent_by, ...r }) => ({
      sent_by,
      paid_with: PAYMENT_REQUEST_PROVIDER_LABELS[provider as PaymentRequestProvider] ?? provider,
      ...r,
      paid_amount: money(paid_cents),
      paid_share: share(r.paid, r.requests),
    }));
  }

  /**
   * The sales cohorts of the period, oldest first (portfolio.ts): `whole`
   * takes the figures over all of them as the report's totals. On a large
   * organization they take seconds (every account of the period and its
   * payments: docs/performance.md), so they are kept up to
   * PORTFOLIO_MAX_AGE_S when slow, and the note says when they were worked out.
   */
  private async *portfolioRows(orgId: string, req: ReportRequest, period: Period, whole: { row: Row | null }, note: { text: string | null }): AsyncGenerator<Row[]> {
    // An agent's name is up to 64 characters: its digest keeps the key within its column.
    const agent = req.agent === undefined ? '' : `.${createHash('sha256').update(req.agent).digest('hex').slice(0, 16)}`;
    const key = `${REPORT_KEY_PREFIX}portfolio.${req.from ?? ''}.${req.to ?? ''}${agent}`;
    const { value: rows, computedAt } = await this.snapshots.get(orgId, key, () => this.computePortfolio(orgId, period, req.agent), PORTFOLIO_MAX_AGE_S, {
      waitWhenOld: true,
    });
    const lines: string[] = [];
    if (req.agent !== undefined) lines.push(`Agent: ${req.agent === NO_AGENT ? 'the customers without an agent' : req.agent}.`);
    if (Date.now() - computedAt.getTime() > 5_000) {
      const at = localTime(this.calendar.zone)(computedAt.toISOString(), 16);
      lines.push(`Figures as of ${at} (${this.calendar.zone}): on a large portfolio they are kept for up to ${PORTFOLIO_MAX_AGE_S / 60} minutes.`);
    }
    note.text = lines.length ? lines.join(' ') : null;
    const cohorts = rows.filter((r) => r.month !== null);
    const { month: _all, ...all } = rows.find((r) => r.month === null) ?? {};
    whole.row = { rows: cohorts.length, ...all };
    yield cohorts;
  }

  /**
   * The portfolio report's rows, the cohorts' and the last (month null) for
   * all of them, worked out now in one statement. It hashes every account of
   * the period and their payments, so it gets room to (as the dashboard's
   * performance figures do), and nested loops are off: the accounts' payment
   * sums are estimated at one row (the payments' device and customer go
   * together, which the planner cannot know), and a loop over them for every
   * account would take hours where the hash join takes seconds.
   */
  async computePortfolio(orgId: string, period: Period, agent?: string): Promise<Row[]> {
    return this.database.read.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL work_mem = '256MB'`;
      await tx.$executeRaw`SET LOCAL enable_nestloop = off`;
      return tx.$queryRaw<Row[]>(portfolioSql(orgId, period, this.calendar.zone, agent));
    }, { timeout: 600_000, maxWait: 10_000 });
  }

  /** Tokens per business day and token type, from their daily totals (token_stats; rows only for part days). */
  private async *tokenRows(orgId: string, period: Period): AsyncGenerator<Row[]> {
    yield await this.database.read.$queryRaw<{ day: string; token_type: string; tokens: number; days: number }[]>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, token_type::text AS token_type, sum(n)::int AS tokens, coalesce(sum(days), 0)::float8 AS days
      FROM ${tokensByDay(orgId, period, this.calendar)} t
      GROUP BY day, token_type
      HAVING sum(n) <> 0
      ORDER BY 1, 2`;
  }
}
