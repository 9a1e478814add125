import { Injectable } from '@nestjs/common';
import type { MessageDebugReply, MessageListReply, MessagesQuery, MessageStats } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { likePattern } from '../common/pagination.js';
import { toMessageRow, type MessageListRow } from './messages.mapper.js';

const DEBUG_LIMIT = 50;

@Injectable()
export class MessagesService {
  constructor(private readonly database: DatabaseService) {}

  /** Incoming texts with their replies, newest first; search over both texts and the phone numbers (trigram indexes). */
  async list(orgId: string, q: MessagesQuery): Promise<MessageListReply> {
    const db = this.database.read;
    const offset = (q.page - 1) * q.page_size;
    const term = q.search?.trim();
    const filter = term
      ? Prisma.sql`organization_id = ${orgId} AND (received_message ILIKE ${likePattern(term)} OR forwarded_message ILIKE ${likePattern(term)}
          OR recipient_number ILIKE ${likePattern(term)} OR sender ILIKE ${likePattern(term)})`
      : Prisma.sql`organization_id = ${orgId}`;
    const [rows, count] = await Promise.all([
      db.$queryRaw<MessageListRow[]>`
        SELECT message_id AS id, received_message, forwarded_message, recipient_number, sender, amount, received_at,
               status::text AS status, delivery_status::text AS delivery_status, payment_id, transaction_code
        FROM messages WHERE ${filter}
        ORDER BY created_at DESC, message_id DESC
        LIMIT ${q.page_size}::int OFFSET ${offset}::int`,
      db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM messages WHERE ${filter}`,
    ]);
    const total = count[0]?.n ?? 0;
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

  async stats(orgId: string): Promise<MessageStats> {
    const [s] = await this.database.read.$queryRaw<
      { today: number; this_week: number; processed: number; duplicate: number; unmatched: number; unparsed: number; amount: string; queued: number; sent: number; failed: number }[]
    >`
      SELECT
        count(*) FILTER (WHERE raw_payload IS NOT NULL AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS today,
        count(*) FILTER (WHERE raw_payload IS NOT NULL AND created_at >= now() - interval '7 days')::int AS this_week,
        count(*) FILTER (WHERE status = 'processed'::"MessageStatus" AND raw_payload IS NOT NULL)::int AS processed,
        count(*) FILTER (WHERE status = 'duplicate'::"MessageStatus")::int AS duplicate,
        count(*) FILTER (WHERE status = 'unmatched'::"MessageStatus")::int AS unmatched,
        count(*) FILTER (WHERE status = 'unparsed'::"MessageStatus")::int AS unparsed,
        coalesce(sum(amount) FILTER (WHERE raw_payload IS NOT NULL AND status IN ('processed'::"MessageStatus", 'unmatched'::"MessageStatus")), 0)::numeric(14,2)::text AS amount,
        count(*) FILTER (WHERE delivery_status = 'queued'::"DeliveryStatus")::int AS queued,
        count(*) FILTER (WHERE delivery_status = 'sent'::"DeliveryStatus")::int AS sent,
        count(*) FILTER (WHERE delivery_status = 'failed'::"DeliveryStatus")::int AS failed
      FROM messages WHERE organization_id = ${orgId}`;
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
