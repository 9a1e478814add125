import { Injectable } from '@nestjs/common';
import { ZProductListQuerySchema, type ProductListReply, type ProductsSummaryReply } from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { pagePagination } from '../common/pagination.js';
import { Prisma } from '../generated/prisma/client.js';
import { textMatch } from '../catalog/search.js';
import { ItemsService } from '../items/items.service.js';
import { itemTotals } from '../stats/totals.js';

type ListQuery = z.output<typeof ZProductListQuerySchema>;

/** The Product Management screen's view of the devices. */
@Injectable()
export class ProductsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly items: ItemsService,
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
    const search = q.search ? [textMatch(['serial_number', 'product_name', 'manufacturer', 'product_oem'], q.search)] : [];
    const assigned = q.status === 'all' ? null : q.status === 'assigned';
    const page = await this.items.page(
      orgId,
      { search, assigned, location: q.location_id, key: JSON.stringify(['products', q.search ?? '']) },
      q.limit,
      (q.page - 1) * q.limit,
    );
    return { data: { items: page.data, pagination: pagePagination(page.pagination.total, q.page, q.limit) } };
  }
}
