import { Injectable } from '@nestjs/common';
import { ZProductListQuerySchema, type ProductListReply, type ProductsSummaryReply } from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { pagePagination } from '../common/pagination.js';
import type { Prisma } from '../generated/prisma/client.js';
import { containsText } from '../catalog/format.js';
import { ITEM_SELECT, toItem } from '../items/items.mapper.js';

type ListQuery = z.output<typeof ZProductListQuerySchema>;

/** The Product Management screen's view of the devices. */
@Injectable()
export class ProductsService {
  constructor(private readonly database: DatabaseService) {}

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
    const where: Prisma.ItemWhereInput = { organization_id: orgId };
    if (q.status !== 'all') where.is_assigned = q.status === 'assigned';
    if (q.search) {
      const match = containsText(q.search);
      where.OR = [{ serial_number: match }, { product_name: match }, { manufacturer: match }, { product_oem: match }];
    }
    const [rows, total] = await Promise.all([
      this.database.db.item.findMany({
        where,
        select: ITEM_SELECT,
        orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
        skip: (q.page - 1) * q.limit,
        take: q.limit,
      }),
      this.database.db.item.count({ where }),
    ]);
    return { data: { items: rows.map(toItem), pagination: pagePagination(total, q.page, q.limit) } };
  }
}
