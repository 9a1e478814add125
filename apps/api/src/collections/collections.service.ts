import { Injectable } from '@nestjs/common';
import {
  NO_AGENT,
  MAX_AGENTS_LISTED,
  type CollectionAgentsReply,
  COLLECTION_BUCKET_DAYS,
  COLLECTION_BUCKET_LABELS,
  COLLECTION_BUCKETS,
  type CollectionAccount,
  type CollectionBucket,
  type CollectionsReply,
  type CollectionsSummaryReply,
  type Contact,
  type ContactListReply,
  type ContactOutcome,
  type ContactReply,
  MAX_PROMISE_DAYS,
  PROMISE_STATUSES,
  PROMISE_WINDOW_DAYS,
  type PromiseRow,
  type PromisesReply,
  type PromiseStatus,
  type PromisesSummaryReply,
  type TicketCategory,
  type TicketStatus,
  ZCollectionsQuerySchema,
  ZPromisesQuerySchema,
  ZContactInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import { isoDayOf, SUCCESSFUL } from '../metrics/period.js';
import { Calendar, dayNumber } from '../common/calendar.js';
import { Errors } from '../common/errors.js';
import { pageBounds, searchPage, type PageStart } from '../common/list-counts.js';
import { pagePagination } from '../common/pagination.js';
import { streamReply, type HttpReply } from '../common/http.js';
import type { AuthUser } from '../common/tenancy.js';
import { streamCsvByKeys } from '../catalog/csv-write.js';
import { remainingSql } from '../customers/balances.js';
import { devicePlanJoin } from '../templates/device-plan.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';

type ListQuery = z.output<typeof ZCollectionsQuerySchema>;
type BucketFilter = ListQuery['bucket'];
/** Which accounts: a band (or all), of one sales agent's customers or everyone's. */
export interface AccountScope {
  bucket: BucketFilter;
  agent?: string | undefined;
}

/** One agent's open accounts, on open_accounts `o` (their agent column: the (organization_id, agent, since, item_id) index). */
const agentCondition = (agent: string | undefined): Prisma.Sql =>
  agent === undefined ? Prisma.empty : agent === NO_AGENT ? Prisma.sql`AND o.agent IS NULL` : Prisma.sql`AND o.agent = ${agent}`;
type ContactInput = z.output<typeof ZContactInputSchema>;
type PromisesQuery = z.output<typeof ZPromisesQuerySchema>;

/** How many of a device's contacts GET /collections/{item_id}/contacts gives. */
export const CONTACTS_SHOWN = 100;

interface ContactRow {
  contact_id: number;
  item_id: number;
  customer_id: number;
  outcome: ContactOutcome;
  note: string | null;
  promised_on: string | null;
  contacted_by: string | null;
  created_at: Date;
  paid_at: Date | null;
  promise_status: PromiseStatus | null;
}

const toContact = (r: ContactRow): Contact => ({
  contact_id: r.contact_id,
  item_id: r.item_id,
  customer_id: r.customer_id,
  outcome: r.outcome,
  note: r.note,
  promised_on: r.promised_on,
  contacted_by: r.contacted_by,
  created_at: r.created_at.toISOString(),
  paid_at: r.paid_at?.toISOString() ?? null,
  promise_status: r.promise_status,
});

/**
 * A promise's status (PROMISE_STATUSES) from what it carries on
 * collection_contacts `cc` (see 0031_promise_days): the business day
 * (kidogo_day, TIME_ZONE) of the first payment since it was logged against
 * the promised day, else the promised day against `today` (a date).
 */
function promiseStatusSql(today: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`CASE WHEN kidogo_day(cc.paid_at) <= cc.promised_on THEN 'kept'
                         WHEN cc.paid_at IS NOT NULL THEN 'paid_late'
                         WHEN cc.promised_on > ${today} THEN 'upcoming'
                         WHEN cc.promised_on = ${today} THEN 'due'
                         ELSE 'broken' END`;
}

/** A contact's promise status, null for other outcomes; today is PostgreSQL's business day. */
const CONTACT_PROMISE_STATUS = Prisma.sql`CASE WHEN cc.outcome = 'promised_to_pay' THEN ${promiseStatusSql(Prisma.sql`kidogo_day(now())`)} END`;

/** A contact's columns as ContactRow has them, from collection_contacts `cc` (users `u` joined for the name). */
const CONTACT_COLUMNS = Prisma.sql`cc.contact_id, cc.item_id, cc.customer_id, cc.outcome::text AS outcome, cc.note,
  to_char(cc.promised_on, 'YYYY-MM-DD') AS promised_on, u.username AS contacted_by, cc.created_at,
  cc.paid_at, ${CONTACT_PROMISE_STATUS} AS promise_status`;

/** How long a large organization's bucket counts are kept (see MetricSnapshots). */
export const SUMMARY_MAX_AGE_S = 60;
// v2: with what is left to pay (outstanding, PAR30); a kept v1 figure lacks them.
const SUMMARY_KEY = 'collections.summary.v2';
const EXPORT_BATCH = 1000;
/** Batches of the export read at once: one per core of a 2-core machine's PostgreSQL. */
const EXPORT_DEPTH = 2;

type AccountRow = {
  item_id: number;
  serial_number: string;
  product_name: string;
  customer_id: number;
  customer_name: string;
  phone_number: string | null;
  sms_opted_out: boolean;
  credit_until: Date | null;
  since: Date;
  days: number;
  last_payment_at: Date | null;
  last_payment_amount: string | null;
  total_paid: string;
  template_name: string | null;
  daily_price: string | null;
  currency: string | null;
  remaining: string | null;
  last_contact: (Omit<ContactRow, 'created_at' | 'paid_at'> & { created_at: string; paid_at: string | null }) | null;
  open_ticket: { ticket_id: number; category: TicketCategory; status: TicketStatus; opened_at: string } | null;
};

export const COLLECTIONS_CSV_COLUMNS = [
  'customer_id',
  'customer_name',
  'phone_number',
  'serial_number',
  'product_name',
  'days_without_credit',
  'out_of_credit_since',
  'credit_until',
  'last_payment_at',
  'last_payment_amount',
  'total_paid',
  'template_name',
  'daily_price',
  'currency',
  'remaining',
  'last_contact_at',
  'last_contact_outcome',
  'promised_on',
  'last_contact_note',
] as const;

type PromiseDbRow = ContactRow & {
  status: PromiseStatus;
  serial_number: string;
  product_name: string;
  customer_name: string;
  phone_number: string | null;
  sms_opted_out: boolean;
  days: number | null;
  paid_amount: string | null;
};

const fixed = (v: string | null) => (v === null ? null : Number(v).toFixed(2));

/** The bucket of a number of whole days without credit. */
export function bucketOf(days: number): CollectionBucket {
  return COLLECTION_BUCKETS.find((b) => {
    const { min, max } = COLLECTION_BUCKET_DAYS[b];
    return days >= min && (max === null || days <= max);
  })!;
}

function toAccount(r: AccountRow): CollectionAccount {
  return {
    item_id: r.item_id,
    serial_number: r.serial_number,
    product_name: r.product_name,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
    phone_number: r.phone_number,
    sms_opted_out: r.sms_opted_out,
    credit_until: r.credit_until?.toISOString() ?? null,
    out_of_credit_since: r.since.toISOString(),
    days_without_credit: r.days,
    bucket: bucketOf(r.days),
    last_payment_at: r.last_payment_at?.toISOString() ?? null,
    last_payment_amount: fixed(r.last_payment_amount),
    total_paid: fixed(r.total_paid)!,
    template_name: r.template_name,
    daily_price: fixed(r.daily_price),
    currency: r.currency,
    remaining: fixed(r.remaining),
    // A JSON object from PostgreSQL: its time as PostgreSQL writes it, read back to the reply's ISO form.
    last_contact: r.last_contact
      ? toContact({
          ...r.last_contact,
          created_at: new Date(r.last_contact.created_at),
          paid_at: r.last_contact.paid_at === null ? null : new Date(r.last_contact.paid_at),
        })
      : null,
    open_ticket: r.open_ticket ? { ...r.open_ticket, opened_at: new Date(r.open_ticket.opened_at).toISOString() } : null,
  };
}

/** An account's CSV cells, in COLLECTIONS_CSV_COLUMNS' order. */
function csvCells(a: CollectionAccount): unknown[] {
  const c = a.last_contact;
  return COLLECTIONS_CSV_COLUMNS.map((k) => {
    switch (k) {
      case 'last_contact_at':
        return c?.created_at ?? null;
      case 'last_contact_outcome':
        return c?.outcome ?? null;
      case 'promised_on':
        return c?.promised_on ?? null;
      case 'last_contact_note':
        return c?.note ?? null;
      default:
        return a[k];
    }
  });
}

/**
 * The Collections screen: the devices out of credit, from open_accounts
 * (kept by triggers on items, see 0029_open_accounts), the most recently run
 * out first. Days without credit are whole periods of 24 hours since the
 * credit ran out (or since the device was assigned, when no payment has
 * bought it any days), as PostgreSQL's clock has them.
 */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly snapshots: MetricSnapshots,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
  ) {}

  /** The open accounts of `bucket` (all out of credit for 'all'), of one agent's customers when named, as a condition on open_accounts `o`. */
  private where(orgId: string, { bucket, agent }: AccountScope): Prisma.Sql {
    const days = bucket === 'all' ? { min: 0, max: null } : COLLECTION_BUCKET_DAYS[bucket];
    // days ≥ min ⇔ since ≤ now − min days; days ≤ max ⇔ since > now − (max + 1) days.
    return Prisma.sql`o.organization_id = ${orgId} ${agentCondition(agent)}
      AND o.since <= now() - make_interval(days => ${days.min}::int)
      AND o.since > ${days.max === null ? Prisma.sql`'-infinity'::timestamptz` : Prisma.sql`now() - make_interval(days => ${days.max + 1}::int)`}`;
  }

  /**
   * The accounts' rows, in list order, for the keys `keys` selects from
   * open_accounts `o` (item_id and since, ordered and limited): the device,
   * its customer, the last successful payment (the (organization_id,
   * item_id, paid_at DESC) index), the customer's active plan and what is
   * left to pay (remainingSql: the same figure as the customer's status).
   * Six relations, so that PostgreSQL plans it in a fraction of a
   * millisecond: with deviceBalances joined in (nine), planning it took
   * longer than running it, on every request.
   */
  private rows(orgId: string, keys: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`
      SELECT i.item_id, i.serial_number, i.product_name, i.customer_id, c.customer_name, c.phone_contact AS phone_number,
             c.sms_opted_out_at IS NOT NULL AS sms_opted_out, i.credit_until, k.since, floor(extract(epoch FROM now() - k.since) / 86400)::int AS days,
             lp.paid_at AS last_payment_at, lp.amount::text AS last_payment_amount, i.total_paid::text AS total_paid,
             t.template_name, t.daily_price::text AS daily_price, t.currency, (${remainingSql('i', 't')})::text AS remaining,
             lc.contact AS last_contact, ot.ticket AS open_ticket
      FROM (${keys}) k
      JOIN items i ON i.organization_id = ${orgId} AND i.item_id = k.item_id
      JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
      ${devicePlanJoin()}
      LEFT JOIN LATERAL (
        SELECT p.paid_at, p.amount FROM payments p
        WHERE p.organization_id = i.organization_id AND p.item_id = i.item_id AND p.status IN ${SUCCESSFUL}
        ORDER BY p.paid_at DESC LIMIT 1
      ) lp ON true
      LEFT JOIN LATERAL (
        SELECT json_build_object('contact_id', cc.contact_id, 'item_id', cc.item_id, 'customer_id', cc.customer_id,
                 'outcome', cc.outcome, 'note', cc.note, 'promised_on', to_char(cc.promised_on, 'YYYY-MM-DD'),
                 'contacted_by', u.username, 'created_at', cc.created_at,
                 'paid_at', cc.paid_at, 'promise_status', ${CONTACT_PROMISE_STATUS}) AS contact
        FROM collection_contacts cc LEFT JOIN users u ON u.user_id = cc.user_id
        WHERE cc.organization_id = i.organization_id AND cc.item_id = i.item_id AND cc.customer_id = i.customer_id
        ORDER BY cc.created_at DESC, cc.contact_id DESC LIMIT 1
      ) lc ON true
      LEFT JOIN LATERAL (
        SELECT json_build_object('ticket_id', st.ticket_id, 'category', st.category, 'status', st.status, 'opened_at', st.opened_at) AS ticket
        FROM service_tickets st
        WHERE st.organization_id = i.organization_id AND st.item_id = i.item_id AND st.status <> 'resolved'
        ORDER BY st.ticket_id DESC LIMIT 1
      ) ot ON true
      ORDER BY k.since DESC, k.item_id DESC`;
  }

  /**
   * A page, with its total from searchPage: kept a few seconds when large,
   * and a deep page started from the kept place of an account before it.
   */
  async list(orgId: string, q: ListQuery): Promise<CollectionsReply> {
    const where = this.where(orgId, q);
    const offset = (q.page - 1) * q.limit;
    const keys = ({ anchor, skip }: PageStart) => Prisma.sql`
      SELECT o.item_id, o.since FROM open_accounts o WHERE ${where}
      ${anchor ? Prisma.sql`AND (o.since, o.item_id) <= (${anchor.time}::timestamptz, ${anchor.id}::int)` : Prisma.empty}
      ORDER BY o.since DESC, o.item_id DESC ${pageBounds(q.limit, skip)}`;
    const key = q.agent === undefined ? q.bucket : JSON.stringify([q.bucket, q.agent]);
    const { rows, total } = await searchPage<AccountRow>(this.database.runs, orgId, 'collections', key, offset, {
      count: Prisma.sql`SELECT count(*)::int AS total FROM open_accounts o WHERE ${where}`,
      page: (_kept, start) => ({ prepared: this.rows(orgId, keys(start)) }),
      anchors: Prisma.sql`SELECT o.since AS t, o.item_id AS id FROM open_accounts o WHERE ${where}`,
    });
    return { data: { items: rows.map(toAccount), pagination: pagePagination(total, q.page, q.limit) } };
  }

  /**
   * Every account of the band, in list order, when there are at most `max`
   * (null when there are more): for a text to the whole band.
   */
  async band(orgId: string, scope: AccountScope, max: number): Promise<CollectionAccount[] | null> {
    const where = this.where(orgId, scope);
    // Counted on the keys alone first: a band too large is refused without reading its rows.
    const [{ n }] = (await this.database.query<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM open_accounts o WHERE ${where} LIMIT ${max + 1}::int) k`,
    )) as [{ n: number }];
    if (n > max) return null;
    const rows = await this.database.query<AccountRow>(
      this.rows(orgId, Prisma.sql`SELECT o.item_id, o.since FROM open_accounts o WHERE ${where} ORDER BY o.since DESC, o.item_id DESC`),
    );
    return rows.map(toAccount);
  }

  /**
   * The sales agents with open accounts, by name, NO_AGENT last when some
   * customers with open accounts have none: the agent index skipped through
   * one agent at a time (a key lookup each), never read whole.
   */
  async agents(orgId: string): Promise<CollectionAgentsReply> {
    const rows = await this.database.query<{ agent: string }>(Prisma.sql`
      WITH RECURSIVE a(agent) AS (
        (SELECT o.agent FROM open_accounts o WHERE o.organization_id = ${orgId} AND o.agent IS NOT NULL ORDER BY o.agent LIMIT 1)
        UNION ALL
        SELECT (SELECT o.agent FROM open_accounts o WHERE o.organization_id = ${orgId} AND o.agent > a.agent ORDER BY o.agent LIMIT 1)
        FROM a WHERE a.agent IS NOT NULL
      )
      SELECT agent FROM a WHERE agent IS NOT NULL LIMIT ${MAX_AGENTS_LISTED + 1}::int`);
    const [none] = await this.database.query<{ any: boolean }>(Prisma.sql`
      SELECT EXISTS (SELECT 1 FROM open_accounts o WHERE o.organization_id = ${orgId} AND o.agent IS NULL) AS any`);
    const agents = rows.slice(0, MAX_AGENTS_LISTED).map((r) => r.agent);
    return { data: { agents: none?.any ? [...agents, NO_AGENT] : agents, truncated: rows.length > MAX_AGENTS_LISTED } };
  }

  /** The bucket counts: live for a small organization, kept up to SUMMARY_MAX_AGE_S for a large one. */
  async summary(orgId: string, agent?: string): Promise<CollectionsSummaryReply> {
    // One agent's are a range of the agent index, a fraction of the whole: kept each under its own key all the same.
    const key = agent === undefined ? SUMMARY_KEY : `${SUMMARY_KEY}:${agent}`;
    const { value, computedAt } = await this.snapshots.get(orgId, key, () => this.count(orgId, agent), SUMMARY_MAX_AGE_S);
    return { data: { ...value, as_of: computedAt.toISOString(), today: isoDayOf(this.calendar.today()) } };
  }

  /**
   * The open accounts, those out of credit per band, and what is left to pay
   * on them (remainingSql over each device's plan): one pass over the open
   * accounts, their devices and plans, hashed (1-1.5 s on 900,000 open
   * accounts, so a large organization's are kept: see summary).
   */
  private async count(orgId: string, agent: string | undefined): Promise<Omit<CollectionsSummaryReply['data'], 'as_of' | 'today'>> {
    const inBand = COLLECTION_BUCKETS.map((b) => {
      const { min, max } = COLLECTION_BUCKET_DAYS[b];
      const upper = max === null ? Prisma.empty : Prisma.sql`AND o.since > now() - make_interval(days => ${max + 1}::int)`;
      return Prisma.sql`o.since <= now() - make_interval(days => ${min}::int) ${upper}`;
    });
    const [row] = await this.database.readQuery<{ open: number; counts: number[]; outstanding: string; owed: string[]; at_risk: string }>(Prisma.sql`
      SELECT count(*)::int AS open,
             ARRAY[${Prisma.join(inBand.map((band) => Prisma.sql`count(*) FILTER (WHERE ${band})::int`))}] AS counts,
             coalesce(sum(r.remaining), 0)::numeric(20,2)::text AS outstanding,
             ARRAY[${Prisma.join(inBand.map((band) => Prisma.sql`coalesce(sum(r.remaining) FILTER (WHERE ${band}), 0)::numeric(20,2)::text`))}] AS owed,
             coalesce(sum(r.remaining) FILTER (WHERE o.since <= now() - make_interval(days => 31)), 0)::numeric(20,2)::text AS at_risk
      FROM open_accounts o
      JOIN items i ON i.organization_id = o.organization_id AND i.item_id = o.item_id
      ${devicePlanJoin()}
      CROSS JOIN LATERAL (SELECT ${remainingSql('i', 't')} AS remaining) r
      WHERE o.organization_id = ${orgId} ${agentCondition(agent)}`);
    const counts = row?.counts ?? COLLECTION_BUCKETS.map(() => 0);
    const buckets = COLLECTION_BUCKETS.map((bucket, i) => ({
      bucket,
      label: COLLECTION_BUCKET_LABELS[bucket],
      devices: counts[i] ?? 0,
      outstanding: row?.owed?.[i] ?? '0.00',
    }));
    const outstanding = Number(row?.outstanding ?? 0);
    return {
      open_accounts: row?.open ?? 0,
      out_of_credit: buckets.reduce((n, b) => n + b.devices, 0),
      buckets,
      outstanding: row?.outstanding ?? '0.00',
      portfolio_at_risk_30: outstanding > 0 ? Math.round((Number(row.at_risk) / outstanding) * 10_000) / 10_000 : 0,
    };
  }

  /**
   * Every account of the bucket as CSV, in list order, streamed with flat
   * memory: the keys of each EXPORT_BATCH accounts from open_accounts' index,
   * one batch after another (a millisecond each), and the accounts' rows, five
   * key lookups each and PostgreSQL's work, for EXPORT_DEPTH batches at once,
   * written in order as they come (with backpressure). Stops when the client
   * goes.
   */
  async export(orgId: string, scope: AccountScope, reply: HttpReply, actor: AuthUser): Promise<void> {
    const where = this.where(orgId, scope);
    type Key = { item_id: number; since: Date };
    const keys = (after: Key | null) =>
      this.database.prepared<Key>(Prisma.sql`
        SELECT o.item_id, o.since FROM open_accounts o WHERE ${where}
        ${after ? Prisma.sql`AND (o.since, o.item_id) < (${after.since.toISOString()}::timestamptz, ${after.item_id}::int)` : Prisma.empty}
        ORDER BY o.since DESC, o.item_id DESC LIMIT ${EXPORT_BATCH}::int`);
    const rows = (batch: Key[]) =>
      this.database.prepared<AccountRow>(
        this.rows(
          orgId,
          Prisma.sql`SELECT * FROM unnest(${batch.map((k) => k.item_id)}::int[], ${batch.map((k) => k.since)}::timestamptz[]) AS k(item_id, since)`,
        ),
      );
    const res = streamReply(reply, 'text/csv; charset=utf-8', 'collections.csv');
    const { count, complete } = await streamCsvByKeys(res, COLLECTIONS_CSV_COLUMNS, { size: EXPORT_BATCH, depth: EXPORT_DEPTH }, keys, rows, (row) =>
      csvCells(toAccount(row)),
    );
    this.audit.recordQuietly({
      organizationId: orgId,
      actor,
      action: 'collections.exported',
      entityType: 'item',
      description: `Exported ${count} devices out of credit${scope.agent === undefined ? '' : ` of agent ${scope.agent}`} to CSV`,
      metadata: { count, bucket: scope.bucket, ...(scope.agent === undefined ? {} : { agent: scope.agent }), complete },
    });
  }

  /** The promises the list covers, on collection_contacts `cc`: not superseded, the day from `from` on (the promise_days index). */
  private static promisesIn(orgId: string, from: string): Prisma.Sql {
    return Prisma.sql`cc.organization_id = ${orgId} AND cc.outcome = 'promised_to_pay' AND NOT cc.superseded AND cc.promised_on >= ${from}::date`;
  }

  /** The condition for `status` alone, on top of promisesIn, written so that the index bounds the days where it can. */
  private static statusFilter(status: PromiseStatus | 'all', today: string): Prisma.Sql {
    switch (status) {
      case 'all':
        return Prisma.empty;
      case 'due':
        return Prisma.sql`AND cc.promised_on = ${today}::date AND cc.paid_at IS NULL`;
      case 'upcoming':
        return Prisma.sql`AND cc.promised_on > ${today}::date AND cc.paid_at IS NULL`;
      case 'broken':
        return Prisma.sql`AND cc.promised_on < ${today}::date AND cc.paid_at IS NULL`;
      // One time zone conversion a promise (kidogo_day), where comparing with the day's end takes four.
      case 'kept':
        return Prisma.sql`AND kidogo_day(cc.paid_at) <= cc.promised_on`;
      case 'paid_late':
        return Prisma.sql`AND kidogo_day(cc.paid_at) > cc.promised_on`;
    }
  }

  /** Today's business day and the first promised day the Promises list covers. */
  private promiseWindow(): { today: string; from: string } {
    const today = this.calendar.today();
    return { today: isoDayOf(today), from: isoDayOf(today - PROMISE_WINDOW_DAYS) };
  }

  /**
   * The promises by status from their totals per promised day and kind
   * (promise_stats, 0033): a few rows a day of the window however many
   * promises there are; unpaid ones are due, upcoming or broken by their
   * day against today.
   */
  private async promiseCounts(orgId: string, today: string, from: string): Promise<Record<PromiseStatus, number>> {
    const rows = await this.database.prepared<{ status: PromiseStatus; n: number }>(Prisma.sql`
      SELECT CASE s.kind WHEN 'kept' THEN 'kept' WHEN 'late' THEN 'paid_late'
                  ELSE CASE WHEN s.promised_on > ${today}::date THEN 'upcoming' WHEN s.promised_on = ${today}::date THEN 'due' ELSE 'broken' END
             END AS status,
             sum(s.n)::int AS n
      FROM promise_stats s
      WHERE s.organization_id = ${orgId} AND s.promised_on >= ${from}::date
      GROUP BY 1`);
    const counts = Object.fromEntries(PROMISE_STATUSES.map((st) => [st, 0])) as Record<PromiseStatus, number>;
    for (const r of rows) counts[r.status] = r.n;
    return counts;
  }

  /** The promises by status, and the share of the settled ones (kept, paid late, broken) that were kept. */
  async promisesSummary(orgId: string): Promise<PromisesSummaryReply> {
    const { today, from } = this.promiseWindow();
    const counts = await this.promiseCounts(orgId, today, from);
    const settled = counts.kept + counts.paid_late + counts.broken;
    const kept_rate = settled === 0 ? null : Math.round((counts.kept / settled) * 1000) / 10;
    return { data: { today, from, counts, kept_rate } };
  }

  /**
   * A page of the promises of `status`: upcoming and due ones soonest day
   * first, the others the most recent day first (then the latest logged).
   */
  async promises(orgId: string, q: PromisesQuery): Promise<PromisesReply> {
    const { today, from } = this.promiseWindow();
    const counts = await this.promiseCounts(orgId, today, from);
    const total = q.status === 'all' ? PROMISE_STATUSES.reduce((n, st) => n + counts[st], 0) : counts[q.status];
    const soonestFirst = q.status === 'upcoming' || q.status === 'due';
    const order = soonestFirst ? Prisma.sql`cc.promised_on ASC, cc.contact_id ASC` : Prisma.sql`cc.promised_on DESC, cc.contact_id DESC`;
    const offset = (q.page - 1) * q.limit;
    const rows =
      offset >= total
        ? []
        : await this.database.prepared<PromiseDbRow>(Prisma.sql`
            SELECT ${CONTACT_COLUMNS}, ${promiseStatusSql(Prisma.sql`${today}::date`)} AS status, i.serial_number, i.product_name,
                   c.customer_name, c.phone_contact AS phone_number, c.sms_opted_out_at IS NOT NULL AS sms_opted_out,
                   CASE WHEN o.since <= now() THEN floor(extract(epoch FROM now() - o.since) / 86400)::int END AS days,
                   cc.paid_amount::text AS paid_amount
            FROM (
              SELECT cc.contact_id FROM collection_contacts cc
              WHERE ${CollectionsService.promisesIn(orgId, from)} ${CollectionsService.statusFilter(q.status, today)}
              ORDER BY ${order} ${pageBounds(q.limit, offset)}
            ) k
            JOIN collection_contacts cc ON cc.organization_id = ${orgId} AND cc.contact_id = k.contact_id
            LEFT JOIN users u ON u.user_id = cc.user_id
            JOIN items i ON i.organization_id = cc.organization_id AND i.item_id = cc.item_id
            JOIN customers c ON c.organization_id = cc.organization_id AND c.customer_id = cc.customer_id
            LEFT JOIN open_accounts o ON o.organization_id = i.organization_id AND o.item_id = i.item_id
            ORDER BY ${order}`);
    const items: PromiseRow[] = rows.map((r) => ({
      contact: toContact(r),
      status: r.status,
      item_id: r.item_id,
      serial_number: r.serial_number,
      product_name: r.product_name,
      customer_id: r.customer_id,
      customer_name: r.customer_name,
      phone_number: r.phone_number,
      sms_opted_out: r.sms_opted_out,
      days_without_credit: r.days,
      paid_at: r.paid_at?.toISOString() ?? null,
      paid_amount: fixed(r.paid_amount),
    }));
    return { data: { items, pagination: pagePagination(total, q.page, q.limit) } };
  }

  /** The device `itemId` of the organization with its customer, or 404; 409 when it has none. */
  private async customerOf(orgId: string, itemId: number): Promise<{ serial: string; customerId: number | null }> {
    const item = await this.database.db.item.findUnique({
      where: { organization_id_id: { organization_id: orgId, id: itemId } },
      select: { serial_number: true, customer_id: true },
    });
    if (!item) throw Errors.notFound('Device');
    return { serial: item.serial_number, customerId: item.customer_id };
  }

  /**
   * Logs a call or visit about the device with its customer, by `actor`. A
   * promised day runs from today (the business day, TIME_ZONE) to
   * MAX_PROMISE_DAYS ahead.
   */
  async addContact(orgId: string, itemId: number, input: ContactInput, actor: AuthUser): Promise<ContactReply> {
    if (input.promised_on) {
      const day = dayNumber(input.promised_on);
      const today = this.calendar.today();
      if (day < today) throw Errors.badRequest('promised_on', `must be today (${isoDayOf(today)}) or later`);
      if (day > today + MAX_PROMISE_DAYS) throw Errors.badRequest('promised_on', `must be at most ${MAX_PROMISE_DAYS} days ahead (${isoDayOf(today + MAX_PROMISE_DAYS)})`);
    }
    const promise = input.outcome === 'promised_to_pay';
    // The device's row locked, as the payment pipeline locks it: a payment being written now is either committed
    // (and counted below) or waits and finds this promise (its trigger); two promises at once supersede in turn.
    const row = await this.database.transaction(async (run) => {
      const [item] = await run<{ serial_number: string; customer_id: number | null }>(Prisma.sql`
        SELECT serial_number, customer_id FROM items WHERE organization_id = ${orgId} AND item_id = ${itemId}::int
        ${promise ? Prisma.sql`FOR UPDATE` : Prisma.empty}`);
      if (!item) throw Errors.notFound('Device');
      if (item.customer_id === null) throw Errors.conflict(`Device ${item.serial_number} has no customer to contact`);
      const [written] = await run<ContactRow>(Prisma.sql`
        WITH earlier AS (
          UPDATE collection_contacts SET superseded = true
          WHERE ${promise} AND organization_id = ${orgId} AND item_id = ${itemId}::int AND customer_id = ${item.customer_id}::int
            AND outcome = 'promised_to_pay' AND NOT superseded
        ), cc AS (
          INSERT INTO collection_contacts (organization_id, item_id, customer_id, user_id, outcome, note, promised_on, paid_at, paid_amount)
          SELECT ${orgId}, ${itemId}::int, ${item.customer_id}::int, ${actor.user_id}::int, ${input.outcome}::"ContactOutcome",
                 ${input.note ?? null}, ${input.promised_on ?? null}::date, fp.paid_at, fp.amount
          FROM (SELECT 1) one
          LEFT JOIN LATERAL (
            SELECT p.paid_at, p.amount FROM payments p
            WHERE ${promise} AND p.organization_id = ${orgId} AND p.item_id = ${itemId}::int AND p.status IN ${SUCCESSFUL}
              AND p.paid_at >= now()
            ORDER BY p.paid_at LIMIT 1
          ) fp ON true
          RETURNING *
        )
        SELECT ${CONTACT_COLUMNS} FROM cc LEFT JOIN users u ON u.user_id = cc.user_id`);
      await run(webhookEventSql(orgId, 'contact.logged', { ...toContact(written!), serial_number: item.serial_number }));
      // The activity log entry commits with the contact it describes.
      const description = `Contact about device ${item.serial_number}: ${input.outcome}${input.promised_on ? ` (pays by ${input.promised_on})` : ''}`;
      const metadata = { contact_id: written!.contact_id, customer_id: item.customer_id, outcome: input.outcome, promised_on: input.promised_on ?? null };
      await run(Prisma.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        VALUES (${orgId}, ${actor.user_id}::int, ${actor.username}, 'collection.contact_logged', 'item', ${String(itemId)}, ${description},
                ${JSON.stringify(metadata)}::jsonb)`);
      return written!;
    });
    return { data: toContact(row) };
  }

  /** The device's contacts with its current customer, newest first (CONTACTS_SHOWN at most). */
  async contacts(orgId: string, itemId: number): Promise<ContactListReply> {
    const { customerId } = await this.customerOf(orgId, itemId);
    if (customerId === null) return { data: [] };
    const rows = await this.database.prepared<ContactRow>(Prisma.sql`
      SELECT ${CONTACT_COLUMNS}
      FROM collection_contacts cc LEFT JOIN users u ON u.user_id = cc.user_id
      WHERE cc.organization_id = ${orgId} AND cc.item_id = ${itemId}::int AND cc.customer_id = ${customerId}::int
      ORDER BY cc.created_at DESC, cc.contact_id DESC
      LIMIT ${CONTACTS_SHOWN}::int`);
    return { data: rows.map(toContact) };
  }
}
