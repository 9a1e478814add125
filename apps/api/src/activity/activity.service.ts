import { Injectable } from '@nestjs/common';
import type { CustomerPaymentDetails, DeviceActivity, DeviceActivityQuery } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { SUCCESSFUL, money } from '../metrics/period.js';
import { ActivityMapper, type PaymentHistoryRow } from './activity.mapper.js';

const PAYMENT_COLUMNS = Prisma.sql`
  p.payment_id, p.amount::numeric(20,2)::text AS amount, p.paid_at, p.status::text AS status,
  coalesce(c.customer_name, p.payer_name) AS customer_name, i.serial_number AS device_serial,
  p.transaction_code, p.payment_method`;

/** What happened to one device, and where one customer stands with paying. */
@Injectable()
export class ActivityService {
  constructor(private readonly database: DatabaseService) {}

  async describeDevice(orgId: string, serial: string, query: DeviceActivityQuery): Promise<DeviceActivity> {
    const db = this.database.db;
    const item = await db.item.findUnique({
      where: { organization_id_serial_number: { organization_id: orgId, serial_number: serial } },
      include: { customer: { select: { customer_name: true } } },
    });
    if (!item) throw Errors.notFound('Device');
    const skip = (query.page - 1) * query.limit;
    const byItem = { organization_id: orgId, item_id: item.id };
    const newest = [{ created_at: 'desc' as const }, { id: 'desc' as const }];
    const [tokens, tokenTotal, payments, paymentTotal, messages, messageTotal] = await Promise.all([
      db.tokenLog.findMany({ where: byItem, orderBy: newest, skip, take: query.limit }),
      db.tokenLog.count({ where: byItem }),
      db.$queryRaw<PaymentHistoryRow[]>`
        SELECT ${PAYMENT_COLUMNS}
        FROM payments p
        LEFT JOIN customers c ON c.organization_id = p.organization_id AND c.customer_id = p.customer_id
        LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
        WHERE p.organization_id = ${orgId} AND p.item_id = ${item.id}::int
        ORDER BY p.paid_at DESC, p.payment_id DESC
        OFFSET ${skip}::int LIMIT ${query.limit}::int`,
      db.payment.count({ where: byItem }),
      db.message.findMany({ where: byItem, orderBy: newest, skip, take: query.limit }),
      db.message.count({ where: byItem }),
    ]);
    return {
      data: {
        device_info: ActivityMapper.device(item),
        token_history: { items: tokens.map(ActivityMapper.token), total: tokenTotal },
        payment_history: { items: payments.map(ActivityMapper.payment), total: paymentTotal },
        message_history: { items: messages.map(ActivityMapper.message), total: messageTotal },
        page: query.page,
        limit: query.limit,
      },
    };
  }

  async describeCustomerPayments(orgId: string, customerId: number, limit: number): Promise<CustomerPaymentDetails> {
    const db = this.database.db;
    const customer = await db.customer.findUnique({ where: { organization_id_id: { organization_id: orgId, id: customerId } } });
    if (!customer) throw Errors.notFound('Customer');
    const [device, assignment, [totals], history] = await Promise.all([
      db.item.findFirst({
        where: { organization_id: orgId, customer_id: customerId },
        orderBy: [{ assigned_at: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }],
      }),
      db.templateAssignment.findFirst({
        where: { organization_id: orgId, customer_id: customerId, is_active: true },
        include: { template: true },
        orderBy: { assigned_at: 'desc' },
      }),
      db.$queryRaw<{ paid: string; count: number }[]>`
        SELECT coalesce(sum(amount) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::numeric(20,2)::text AS paid,
               count(*)::int AS count
        FROM payments WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int`,
      db.$queryRaw<PaymentHistoryRow[]>`
        SELECT ${PAYMENT_COLUMNS}
        FROM payments p
        LEFT JOIN customers c ON c.organization_id = p.organization_id AND c.customer_id = p.customer_id
        LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
        WHERE p.organization_id = ${orgId} AND p.customer_id = ${customerId}::int
        ORDER BY p.paid_at DESC, p.payment_id DESC
        LIMIT ${limit}::int`,
    ]);
    const template = assignment?.template ?? null;
    // Cents, so progress and balance carry no float error.
    const paid = toCents(totals.paid);
    const price = toCents(template?.free_code_price != null ? money(template.free_code_price) : device ? money(device.price) : '0');
    const remaining = Math.max(price - paid, 0);
    const progress = price > 0 ? Math.min(100, Math.round((paid / price) * 10_000) / 100) : 0;
    return {
      data: {
        customer_info: {
          customer_id: customer.id,
          customer_name: customer.customer_name,
          phone_contact: customer.phone_contact,
          email: customer.email,
          status: customer.status,
          device_serial: device?.serial_number ?? null,
          product_name: device?.product_name ?? null,
          product_oem: device?.product_oem ?? null,
        },
        payment_template: template
          ? {
              template_id: template.id,
              template_name: template.template_name,
              daily_price: money(template.daily_price),
              activation_price: money(template.activation_price),
              grace_period_days: template.grace_period_days,
              currency: template.currency || 'KES',
              deposit_made: money(template.deposit_made),
            }
          : null,
        payment_summary: {
          total_paid: fromCents(paid),
          free_code_price: fromCents(price),
          remaining_balance: fromCents(remaining),
          payment_progress: progress,
          is_fully_paid: price > 0 && paid >= price,
          payment_count: totals.count,
        },
        payment_history: history.map(ActivityMapper.payment),
      },
    };
  }
}

const toCents = (s: string) => Math.round(Number(s) * 100);
const fromCents = (c: number) => (c / 100).toFixed(2);
