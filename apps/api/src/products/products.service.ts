import { Injectable } from '@nestjs/common';
import { ZProductListQuerySchema, type ProductListReply, type ProductsSummaryReply } from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { pagePagination } from '../common/pagination.js';
import { Prisma } from '../generated/prisma/client.js';
import { textMatch } from '../catalog/search.js';
import { ItemsService } from '../items/items.service.js';

type ListQuery = z.output<typeof ZProductListQuerySchema>;

/** The Product Management screen's view of the devices. */
@Injectable()
export class ProductsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly items: ItemsService,
  ) {}

  /** Both counts from the (organization_id, is_assigned, created_at) index. */
  async summary(orgId: string): Promise<ProductsSummaryReply> {
    const groups = await this.database.read.item.groupBy({
      by: ['is_assigned'],
      where: { organization_id: orgId },
      _count: { _all: true },
    });
    const assigned = groups.find((g) => g.is_assigned)?._count._all ?? 0;
    const unassigned = groups.find((g) => !g.is_assigned)?._count._all ?? 0;
    return { data: { total_products: assigned + unassigned, assigned_products: assigned, unassigned_products: unassigned } };
  }

  async list(orgId: string, q: ListQuery): Promise<ProductListReply> {
    const conditions: Prisma.Sql[] = [];
    if (q.status !== 'all') conditions.push(Prisma.sql`is_assigned = ${q.status === 'assigned'}::boolean`);
    if (q.search) conditions.push(textMatch(['serial_number', 'product_name', 'manufacturer', 'product_oem'], q.search));
    const page = await this.items.page(orgId, conditions, q.limit, (q.page - 1) * q.limit);
    return { data: { items: page.data, pagination: pagePagination(page.pagination.total, q.page, q.limit) } };
  }
}
