import { Injectable } from '@nestjs/common';
import {
  AUDIT_CATEGORIES,
  AUDIT_LOG_CSV_COLUMNS,
  auditCategoryOf,
  parseAuditCursor,
  type AuditLogExportQuery,
  type AuditLogQuery,
  type AuditLogReply,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf, toPeriod } from '../metrics/period.js';
import { streamCsv } from '../catalog/csv-write.js';
import { streamReply, type HttpReply } from '../common/http.js';
import type { AuthUser } from '../common/tenancy.js';
import { AuditService } from './audit.service.js';

/** Entries a batch of the CSV export reads (one index range each, from after the last one's place). */
const EXPORT_BATCH = 1000;

interface EntryRow {
  id: number;
  created_at: Date;
  action: string;
  actor_username: string | null;
  entity_type: string | null;
  entity_id: string | null;
  description: string;
  ip: string | null;
  metadata: unknown;
}

/** The one action left out of the kind and user indexes (migration 0038): a token issued for a payment. */
const PIPELINE_TOKENS = 'token.generate';

/**
 * The organization's audit entries for its owners and admins (the Activity
 * Log page), newest first. Each page starts after the last one's (created_at,
 * id), so a page deep in millions of entries is one index range, not an
 * offset walked; filters by kind and by user read their own indexes.
 */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    private readonly audit: AuditService,
  ) {}

  /** The conditions of the filters (not the cursor), in the order the indexes read them. */
  private filters(orgId: string, q: AuditLogExportQuery): Prisma.Sql[] {
    const period = toPeriod(q.from, q.to, this.calendar);
    const where: Prisma.Sql[] = [Prisma.sql`organization_id = ${orgId}`];
    // Said outright so that the kind index (which leaves these out) is seen to hold every match.
    if (q.category && q.category !== 'tokens') where.push(Prisma.sql`action <> ${PIPELINE_TOKENS}`);
    if (q.actor) where.push(Prisma.sql`actor_username = ${q.actor}`);
    if (period.from) where.push(Prisma.sql`created_at >= ${period.from.toISOString()}::timestamptz`);
    if (period.until) where.push(Prisma.sql`created_at < ${period.until.toISOString()}::timestamptz`);
    return where;
  }

  /**
   * Every entry the filters match, newest first, streamed as CSV in batches
   * that each start after the last one's (created_at, id): a million entries
   * never sit in memory. The export is itself recorded.
   */
  async export(orgId: string, q: AuditLogExportQuery, reply: HttpReply, actor: AuthUser): Promise<void> {
    const where = this.filters(orgId, q);
    const prefixes = q.category ? AUDIT_CATEGORIES[q.category] : null;
    const read = (after: EntryRow | null) =>
      this.database.query<EntryRow>(
        this.page(
          after ? [...where, Prisma.sql`(created_at, id) < (${after.created_at.toISOString()}::timestamptz, ${after.id}::int)`] : where,
          prefixes,
          EXPORT_BATCH,
        ),
      );
    const res = streamReply(reply, 'text/csv; charset=utf-8', `activity-log-${isoDayOf(this.calendar.today())}.csv`);
    const { count, complete } = await streamCsv(res, AUDIT_LOG_CSV_COLUMNS, EXPORT_BATCH, read, (r) => [
      r.created_at.toISOString(),
      auditCategoryOf(r.action) ?? '',
      r.action,
      r.actor_username ?? '',
      r.description,
      r.entity_type ?? '',
      r.entity_id ?? '',
      r.ip ?? '',
      r.metadata == null ? '' : JSON.stringify(r.metadata),
    ]);
    const filters = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>;
    this.audit.recordQuietly({
      organizationId: orgId,
      actor,
      action: 'audit_log.exported',
      description: `Exported ${count} Activity Log entries to CSV`,
      metadata: { count, complete, filters },
    });
  }

  /**
   * The newest `limit` entries matching `where`, and of one of the action
   * prefixes when given: one branch per prefix, each read in the page order
   * from the kind index and cut at `limit`, then merged. With all the prefixes
   * in one condition, PostgreSQL read every entry of the kind and sorted them
   * (20,000 payments: 9 ms of its time per page, against 0.3 ms).
   */
  private page(where: Prisma.Sql[], prefixes: readonly string[] | null, limit: number): Prisma.Sql {
    const branch = (extra: Prisma.Sql | null) => Prisma.sql`
      SELECT id, created_at, action, actor_username, entity_type, entity_id, description, ip, metadata
      FROM audit_logs WHERE ${Prisma.join(extra ? [...where, extra] : where, ' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT ${limit}::int`;
    if (!prefixes) return branch(null);
    const branches = prefixes.map((p) => Prisma.sql`(${branch(Prisma.sql`split_part(action, '.', 1) = ${p}`)})`);
    return Prisma.sql`SELECT * FROM (${Prisma.join(branches, ' UNION ALL ')}) u ORDER BY created_at DESC, id DESC LIMIT ${limit}::int`;
  }

  async list(orgId: string, q: AuditLogQuery): Promise<AuditLogReply> {
    const where = this.filters(orgId, q);
    const cursor = q.cursor ? parseAuditCursor(q.cursor) : null;
    if (cursor) where.push(Prisma.sql`(created_at, id) < (${cursor.at}::timestamptz, ${cursor.id}::int)`);
    const rows = await this.database.query<EntryRow>(this.page(where, q.category ? AUDIT_CATEGORIES[q.category] : null, q.limit + 1));
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      data: page.map((r) => ({
        id: r.id,
        timestamp: r.created_at.toISOString(),
        action: r.action,
        category: auditCategoryOf(r.action),
        actor: r.actor_username,
        entity_type: r.entity_type,
        entity_id: r.entity_id,
        description: r.description,
        ip: r.ip,
        details: r.metadata && typeof r.metadata === 'object' && !Array.isArray(r.metadata) ? (r.metadata as Record<string, unknown>) : null,
      })),
      next_cursor: rows.length > q.limit && last ? `${last.created_at.toISOString()}_${last.id}` : null,
    };
  }
}
