import { Injectable } from '@nestjs/common';
import type { OdysseyCustomersReply, OdysseyQuery } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { offsetPagination } from '../common/pagination.js';
import { toOdysseyCustomer } from './external.mapper.js';

/**
 * Export for energy-access data platforms (Odyssey): customers in a stable
 * order (by id) with their devices and payment totals. Three queries per
 * page whatever its size: customers, their devices, their payment totals.
 */
@Injectable()
export class ExternalService {
  constructor(private readonly database: DatabaseService) {}

  async odysseyCustomers(orgId: string, q: OdysseyQuery): Promise<OdysseyCustomersReply> {
    const db = this.database.read;
    const where = { organization_id: orgId };
    const [customers, total] = await Promise.all([
      db.customer.findMany({
        where,
        orderBy: { id: 'asc' },
        take: q.limit,
        skip: q.offset,
        select: { id: true, customer_name: true, phone_contact: true, county: true },
      }),
      db.customer.count({ where }),
    ]);
    const ids = customers.map((c) => c.id);
    const [items, totals] = ids.length
      ? await Promise.all([
          db.item.findMany({
            where: { organization_id: orgId, customer_id: { in: ids } },
            orderBy: { id: 'asc' },
            select: { customer_id: true, serial_number: true, product_name: true, status: true, total_paid: true, paid_off_at: true, activated_at: true },
          }),
          db.payment.groupBy({
            by: ['customer_id'],
            where: { organization_id: orgId, customer_id: { in: ids }, status: { in: ['success', 'completed'] } },
            _sum: { amount: true },
            _max: { paid_at: true },
          }),
        ])
      : [[], []];
    const devicesOf = new Map<number | null, typeof items>();
    for (const i of items) {
      const list = devicesOf.get(i.customer_id);
      if (list) list.push(i);
      else devicesOf.set(i.customer_id, [i]);
    }
    const totalsOf = new Map(totals.map((t) => [t.customer_id, t]));
    return {
      data: customers.map((c) => toOdysseyCustomer(c, devicesOf.get(c.id) ?? [], totalsOf.get(c.id))),
      pagination: offsetPagination(total, q.limit, q.offset),
    };
  }
}
