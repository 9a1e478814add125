import { Injectable } from '@nestjs/common';
import type { MessageDebugReply, MessageListReply, MessagesQuery, MessageStats } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { likePattern } from '../common/pagination.js';
import { type PageStart, searchPage } from '../common/list-counts.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import { Calendar } from '../common/calendar.js';
import { toMessageRow, type MessageListRow } from './messages.mapper.js';

const DEBUG_LIMIT = 50;
/** Up to this many matches (a kept total), a search's page reads every match and sorts them. */
const FEW_MATCHES = 2_000;
/** How old the Messages page's history figures may be on a large organization (see stats). */
const STATS_MAX_AGE_S = 60;

@Injectable()
export class MessagesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly snapshots: MetricSnapshots,
    private readonly calendar: Calendar,
  ) {}

  /**
   * Incoming texts with their replies, newest first; search over both texts
   * and the phone numbers (trigram indexes). The total comes from searchPage:
   * counted once and kept for a few seconds when 100 or more (1,200,000
   * messages took 55 ms to count on every page, a search matching most of
   * them 0.8 s), while every page's rows are read live. A page is found in
   * the newest-first index before its rows are read, a deep one from the
   * kept place of a message before it.
   */
  async list(orgId: string, q: MessagesQuery): Promise<MessageListReply> {
    const offset = (q.page - 1) * q.page_size;
    const term = q.search?.trim();
    const pattern = term ? likePattern(term) : null;
    const filter = pattern
      ? Prisma.sql`organization_id = ${orgId} AND (received_message ILIKE ${pattern} OR forwarded_message ILIKE ${pattern}
          OR recipient_number ILIKE ${pattern} OR sender ILIKE ${pattern})`
      : Prisma.sql`organization_id = ${orgId}`;
    const page = (start: PageStart, few: boolean) => {
      const from = start.anchor
        ? Prisma.sql`AND (created_at, message_id) <= (${start.anchor.time}::timestamptz, ${start.anchor.id}::int)`
        : Prisma.empty;
      // Few matches: all of them from the trigram indexes, then sorted (OFFSET 0 keeps PostgreSQL from walking
      // the whole newest-first index instead); otherwise the newest-first index, from the page's place.
      const keys = few
        ? Prisma.sql`SELECT message_id, created_at FROM (SELECT message_id, created_at FROM messages WHERE ${filter} ${from} OFFSET 0) m`
        : Prisma.sql`SELECT message_id, created_at FROM messages WHERE ${filter} ${from}`;
      return Prisma.sql`
        SELECT m.message_id AS id, m.received_message, m.forwarded_message, m.recipient_number, m.sender, m.amount, m.received_at,
               m.status::text AS status, m.delivery_status::text AS delivery_status, m.payment_id, m.transaction_code, m.sent_by,
               coalesce(m.parse_error,
                        (SELECT p.hold_reason FROM payments p
                         WHERE m.status = 'rejected' AND p.organization_id = m.organization_id AND p.payment_id = m.payment_id),
                        m.result #>> '{outcome,hold_reason}',
                        (SELECT p.hold_reason FROM payments p
                         WHERE m.status = 'unmatched' AND p.organization_id = m.organization_id AND p.payment_id = m.payment_id)) AS note
        FROM (${keys} ORDER BY created_at DESC, message_id DESC LIMIT ${q.page_size}::int OFFSET ${start.skip}::int) k
        JOIN messages m ON m.organization_id = ${orgId} AND m.message_id = k.message_id
        ORDER BY m.created_at DESC, m.message_id DESC`;
    };
    const { rows, total } = await searchPage<MessageListRow>(this.database.runs, orgId, 'messages', JSON.stringify([term ?? null]), offset, {
      count: Prisma.sql`SELECT count(*)::int AS total FROM messages WHERE ${filter}`,
      page: (kept, start) => page(start, pattern !== null && kept.total <= FEW_MATCHES),
      // No counted page: a word of the payment notices ("Confirmed", the gateway's name) is in every message.
      // A deep page starts from the kept place of a message before it (page 5,000 skipped 100,000 index entries: 7 ms).
      anchors: Prisma.sql`SELECT created_at AS t, message_id AS id FROM messages WHERE ${filter}`,
    });
    const totalPages = Math.ceil(total / q.page_size);
    return {
      data: rows.map(toMessageRow),
      total_pages: totalPages,
      current_page: q.page,
      page_size: q.page_size,
      total_items: total,
      has_next: q.page < totalPages,
      has_previous: q.page > 1,
    };
  }

  /**
   * The Messages page's figures. They read every message (1,200,000: 0.43 s),
   * so on a large organization they are kept and served up to
   * STATS_MAX_AGE_S old (MetricSnapshots: a small one's are always live).
   * That includes the outbox's counts: an organization with no SMS provider
   * keeps its replies queued (the benchmark's 213,000 took 0.14 s to count).
   */
  async stats(orgId: string): Promise<MessageStats> {
    const { value } = await this.snapshots.get(orgId, 'messages.stats', () => this.figures(orgId), STATS_MAX_AGE_S);
    return value;
  }

  private async figures(orgId: string): Promise<MessageStats> {
    // Today is the business day (TIME_ZONE) so far.
    const midnight = this.calendar.startOf(this.calendar.today()).toISOString();
    const [s] = await this.database.readQuery<{
      today: number;
      this_week: number;
      processed: number;
      duplicate: number;
      unmatched: number;
      unparsed: number;
      amount: string;
      queued: number;
      sent: number;
      failed: number;
    }>(Prisma.sql`
      SELECT
        count(*) FILTER (WHERE raw_payload IS NOT NULL AND created_at >= ${midnight}::timestamptz)::int AS today,
        count(*) FILTER (WHERE raw_payload IS NOT NULL AND created_at >= now() - interval '7 days')::int AS this_week,
        count(*) FILTER (WHERE status = 'processed'::"MessageStatus" AND raw_payload IS NOT NULL)::int AS processed,
        count(*) FILTER (WHERE status = 'duplicate'::"MessageStatus")::int AS duplicate,
        count(*) FILTER (WHERE status = 'unmatched'::"MessageStatus")::int AS unmatched,
        count(*) FILTER (WHERE status = 'unparsed'::"MessageStatus")::int AS unparsed,
        coalesce(sum(amount) FILTER (WHERE raw_payload IS NOT NULL AND status IN ('processed'::"MessageStatus", 'unmatched'::"MessageStatus")), 0)::numeric(14,2)::text AS amount,
        count(*) FILTER (WHERE delivery_status = 'queued'::"DeliveryStatus")::int AS queued,
        count(*) FILTER (WHERE delivery_status = 'sent'::"DeliveryStatus")::int AS sent,
        count(*) FILTER (WHERE delivery_status = 'failed'::"DeliveryStatus")::int AS failed
      FROM messages WHERE organization_id = ${orgId}`);
    return {
      today: s!.today,
      this_week: s!.this_week,
      processed: s!.processed,
      duplicate: s!.duplicate,
      unmatched: s!.unmatched,
      unparsed: s!.unparsed,
      amount_received: s!.amount,
      outbox: { queued: s!.queued, sent: s!.sent, failed: s!.failed },
    };
  }

  /** The last raw gateway payloads with what the receiver made of them. */
  async debug(orgId: string): Promise<MessageDebugReply> {
    const rows = await this.database.db.message.findMany({
      where: { organization_id: orgId, raw_payload: { not: Prisma.AnyNull } },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: DEBUG_LIMIT,
      select: { id: true, received_at: true, status: true, sender: true, received_message: true, raw_payload: true, parse_error: true, result: true, payment_id: true },
    });
    return {
      data: rows.map((r) => {
        const result = (r.result ?? null) as { parsed?: unknown; outcome?: unknown } | null;
        return {
          id: r.id,
          received_at: r.received_at.toISOString(),
          status: r.status,
          sender: r.sender,
          received_message: r.received_message,
          raw_payload: r.raw_payload,
          parse_error: r.parse_error,
          parsed: result?.parsed ?? null,
          result: result?.outcome ?? null,
          payment_id: r.payment_id,
        };
      }),
    };
  }
}
