import { Injectable } from '@nestjs/common';
import {
  PRODUCT_CSV_COLUMNS,
  PRODUCT_EXPORT_FILE_NAME,
  ZProductExportQuerySchema,
  ZProductListQuerySchema,
  type ProductListReply,
  type ProductsSummaryReply,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { pagePagination } from '../common/pagination.js';
import { Prisma } from '../generated/prisma/client.js';
import { textMatch } from '../catalog/search.js';
import { ItemsService } from '../items/items.service.js';
import { itemTotals } from '../stats/totals.js';
import { AuditService } from '../audit/audit.service.js';
import { streamCsv } from '../catalog/csv-write.js';
import { streamReply, type HttpReply } from '../common/http.js';
import type { AuthUser } from '../common/tenancy.js';

type ListQuery = z.output<typeof ZProductListQuerySchema>;
type ExportQuery = z.output<typeof ZProductExportQuerySchema>;

/** Devices read per statement of the export (as the customers' export: flat memory, the next batch read while one is written). */
const EXPORT_BATCH = 1000;
const SEARCHED = ['serial_number', 'product_name', 'manufacturer', 'product_oem'];

/** The Product Management screen's view of the devices. */
@Injectable()
export class ProductsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly items: ItemsService,
    private readonly audit: AuditService,
  ) {}

  /** Both counts from item_stats (kept by triggers). */
  async summary(orgId: string): Promise<ProductsSummaryReply> {
    const [row] = await this.database.readQuery<{ assigned: number; unassigned: number }>(Prisma.sql`
      SELECT coalesce(sum(n) FILTER (WHERE is_assigned), 0)::int AS assigned,
             coalesce(sum(n) FILTER (WHERE NOT is_assigned), 0)::int AS unassigned
      FROM ${itemTotals(orgId)} t`);
    const assigned = row?.assigned ?? 0;
    const unassigned = row?.unassigned ?? 0;
    return { data: { total_products: assigned + unassigned, assigned_products: assigned, unassigned_products: unassigned } };
  }

  async list(orgId: string, q: ListQuery): Promise<ProductListReply> {
    const search = q.search ? [textMatch(SEARCHED, q.search)] : [];
    const assigned = q.status === 'all' ? null : q.status === 'assigned';
    const page = await this.items.page(
      orgId,
      { search, assigned, location: q.location_id, key: JSON.stringify(['products', q.search ?? '']) },
      q.limit,
      (q.page - 1) * q.limit,
    );
    return { data: { items: page.data, pagination: pagePagination(page.pagination.total, q.page, q.limit) } };
  }

  /**
   * The devices of the page's filters as CSV (PRODUCT_CSV_COLUMNS), oldest
   * first, in keyset batches over the primary key written as they come: a
   * stock take's list of one place, or every device for the accounts. Stops
   * when the client goes.
   */
  async export(orgId: string, q: ExportQuery, reply: HttpReply, actor: AuthUser): Promise<void> {
    const where = Prisma.join(
      [
        Prisma.sql`i.organization_id = ${orgId}`,
        ...(q.status === 'all' ? [] : [Prisma.sql`i.is_assigned = ${q.status === 'assigned'}::boolean`]),
        ...(q.location_id === undefined ? [] : [q.location_id === 'none' ? Prisma.sql`i.location_id IS NULL` : Prisma.sql`i.location_id = ${q.location_id}::int`]),
        ...(q.search ? [textMatch(SEARCHED, q.search)] : []),
      ],
      ' AND ',
    );
    const res = streamReply(reply, 'text/csv; charset=utf-8', PRODUCT_EXPORT_FILE_NAME);
    const { count, complete } = await streamCsv<unknown[]>(
      res,
      PRODUCT_CSV_COLUMNS,
      EXPORT_BATCH,
      (after) =>
        this.database.readArrays(Prisma.sql`
          SELECT i.serial_number, i.product_name, i.product_type, i.manufacturer, i.model, i.description, i.price::text,
                 i.status::text, i.product_oem, l.name, i.customer_id, c.customer_name,
                 to_char(i.assigned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), i.total_paid::text,
                 to_char(i.credit_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), i.paid_off_at IS NOT NULL, i.token_count,
                 to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), i.item_id
          FROM items i
          LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
          LEFT JOIN stock_locations l ON l.organization_id = i.organization_id AND l.location_id = i.location_id
          WHERE ${where} AND i.item_id > ${after ? (after[PRODUCT_CSV_COLUMNS.length] as number) : 0}::int
          ORDER BY i.item_id
          LIMIT ${EXPORT_BATCH}::int`),
      (row) => row.slice(0, PRODUCT_CSV_COLUMNS.length),
    );
    this.audit.recordQuietly({
      organizationId: orgId,
      actor,
      action: 'items.exported',
      entityType: 'item',
      description: `Exported ${count} devices to CSV`,
      // Whether it was searched, not the words (a serial or a name typed there is not the log's to keep).
      metadata: { count, complete, searched: Boolean(q.search), status: q.status, location_id: q.location_id ?? null },
    });
  }
}
