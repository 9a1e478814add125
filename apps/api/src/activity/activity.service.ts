import { Injectable } from '@nestjs/common';
import type { CustomerPaymentDetails, DeviceActivity, DeviceActivityQuery, SmsOptOutSource } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { warrantyJoin } from '../warranties/warranty.js';
import { broughtOverNow, paidBeforeSql, transferredNow } from '../items/brought-over.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { SUCCESSFUL, money } from '../metrics/period.js';
import { customerBalances, expectedSql, paidTowardsSql, remainingSql, toDeviceStatus, toRepayment, type DeviceBalanceRow } from '../customers/balances.js';
import { devicePlanJoin } from '../templates/device-plan.js';
import { ActivityMapper, type PaymentHistoryRow, type TransferredJson } from './activity.mapper.js';

const PAYMENT_COLUMNS = Prisma.sql`
  p.payment_id, p.amount::numeric(20,2)::text AS amount, p.paid_at, p.status::text AS status,
  coalesce(c.customer_name, p.payer_name) AS customer_name, i.serial_number AS device_serial,
  p.transaction_code, p.payment_method`;

/** What happened to one device, and where one customer stands with paying. */
@Injectable()
export class ActivityService {
  constructor(private readonly database: DatabaseService) {}

  /**
   * One statement: the device, one page of each history and each history's
   * total (each an index range on (organization_id, item_id, ...)). Seven
   * Prisma queries before, on up to seven pooled connections at once.
   */
  async describeDevice(orgId: string, serial: string, query: DeviceActivityQuery): Promise<DeviceActivity> {
    const skip = (query.page - 1) * query.limit;
    const [row] = await this.database.prepared<DeviceRow>(Prisma.sql`
      SELECT i.serial_number, i.product_name, i.product_oem, i.manufacturer, i.status::text AS status, i.customer_id,
             i.token_count, i.is_assigned, i.assigned_at, i.price, i.total_paid, i.credit_until, c.customer_name,
             (SELECT name FROM stock_locations l WHERE l.organization_id = i.organization_id AND l.location_id = i.location_id) AS location_name,
             plan.template_id AS plan_template_id, plan.template_name AS plan_template_name,
             plan.daily_price AS plan_daily_price, plan.currency AS plan_currency, plan_own.assignment_id IS NOT NULL AS plan_own,
             ${expectedSql('i', 'plan')} AS expected, ${paidTowardsSql('i', 'plan')} AS paid_towards, i.paid_off_at,
             CASE WHEN i.customer_id IS NOT NULL THEN ${remainingSql('i', 'plan')} END AS remaining, i.discount,
             warranty.warranty_months, warranty.warranty_until,
             -- The account it holds, if it was brought over from another system: its first row, while the account lasts.
             (SELECT json_build_object('paid', a.brought_over_paid::text, 'started_at', a.assigned_at, 'imported_at', a.brought_over_at,
                                       'imported_by', a.assigned_by)
              FROM item_assignments a
              WHERE a.organization_id = i.organization_id AND a.item_id = i.item_id AND ${broughtOverNow('a', 'i')}
              LIMIT 1) AS brought_over,
             -- The account it holds, if its holder took it over from another customer: their transfer, while it lasts.
             (SELECT json_build_object('from_customer_id', a.transferred_from_customer_id, 'from_customer_name', f.customer_name,
                                       'paid', a.transferred_paid::text, 'transferred_at', a.assigned_at, 'transferred_by', a.assigned_by,
                                       'reason', a.transfer_reason)
              FROM item_assignments a
              JOIN customers f ON f.organization_id = a.organization_id AND f.customer_id = a.transferred_from_customer_id
              WHERE a.organization_id = i.organization_id AND a.item_id = i.item_id AND ${transferredNow('a', 'i')}
              ORDER BY a.assigned_at DESC LIMIT 1) AS transferred,
             (SELECT count(*)::int FROM token_logs WHERE organization_id = i.organization_id AND item_id = i.item_id) AS token_total,
             (SELECT coalesce(json_agg(t ORDER BY t.created_at DESC, t.id DESC), '[]') FROM (
                SELECT token_log_id AS id, token_value, token_type, days_generated, amount_paid, created_at, status, is_valid, generated_by, customer_name
                FROM token_logs WHERE organization_id = i.organization_id AND item_id = i.item_id
                ORDER BY created_at DESC, token_log_id DESC OFFSET ${skip}::int LIMIT ${query.limit}::int) t) AS tokens,
             (SELECT count(*)::int FROM payments WHERE organization_id = i.organization_id AND item_id = i.item_id) AS payment_total,
             (SELECT coalesce(json_agg(h ORDER BY h.paid_at DESC, h.payment_id DESC), '[]') FROM (
                SELECT ${PAYMENT_COLUMNS}
                FROM payments p
                LEFT JOIN customers c ON c.organization_id = p.organization_id AND c.customer_id = p.customer_id
                LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
                WHERE p.organization_id = ${orgId} AND p.item_id = d.item_id
                ORDER BY p.paid_at DESC, p.payment_id DESC OFFSET ${skip}::int LIMIT ${query.limit}::int) h) AS payments,
             (SELECT count(*)::int FROM messages WHERE organization_id = i.organization_id AND item_id = i.item_id) AS message_total,
             (SELECT coalesce(json_agg(m ORDER BY m.created_at DESC, m.id DESC), '[]') FROM (
                SELECT message_id AS id, received_message, forwarded_message, recipient_number, amount, received_at, status, created_at, sent_by
                FROM messages WHERE organization_id = i.organization_id AND item_id = i.item_id
                ORDER BY created_at DESC, message_id DESC OFFSET ${skip}::int LIMIT ${query.limit}::int) m) AS messages
      FROM items i
      CROSS JOIN LATERAL (SELECT i.item_id) d
      LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
      ${devicePlanJoin('i', 'plan')}
      ${warrantyJoin('i')}
      WHERE i.organization_id = ${orgId} AND i.serial_number = ${serial}`);
    if (!row) throw Errors.notFound('Device');
    return {
      data: {
        device_info: ActivityMapper.device(row),
        token_history: { items: row.tokens.map(ActivityMapper.token), total: row.token_total },
        payment_history: { items: row.payments.map(ActivityMapper.payment), total: row.payment_total },
        message_history: { items: row.messages.map(ActivityMapper.message), total: row.message_total },
        page: query.page,
        limit: query.limit,
      },
    };
  }

  /**
   * One statement: the customer, their first device and its plan (its own,
   * else the customer's; the customer's without a device), payment
   * totals, newest payments, and what is left to pay off on their devices
   * (customerBalances, the figures of GET /customers/{id}/status).
   */
  async describeCustomerPayments(orgId: string, customerId: number, limit: number): Promise<CustomerPaymentDetails> {
    const [row] = await this.database.prepared<CustomerRow>(Prisma.sql`
      SELECT c.customer_id, c.customer_name, c.phone_contact, c.email, c.status, c.sms_opted_out_at, c.sms_opt_out_source,
             d.serial_number, d.product_name, d.product_oem,
             t.template_id, t.template_name, t.daily_price, t.activation_price, t.grace_period_days, t.currency,
             t.deposit_made,
             s.paid, s.count, b.payoff, b.remaining, b.progress, b.paid_off, b.expected, b.paid_towards, b.repayment_paid_off,
             (SELECT coalesce(json_agg(h ORDER BY h.paid_at DESC, h.payment_id DESC), '[]') FROM (
                SELECT ${PAYMENT_COLUMNS}
                FROM payments p
                LEFT JOIN customers c ON c.organization_id = p.organization_id AND c.customer_id = p.customer_id
                LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
                WHERE p.organization_id = ${orgId} AND p.customer_id = ${customerId}::int
                ORDER BY p.paid_at DESC, p.payment_id DESC LIMIT ${limit}::int) h) AS history,
             b.device_rows, ${paidBeforeSql(orgId, Prisma.sql`c.customer_id`)} AS paid_before
      FROM customers c
      LEFT JOIN LATERAL (
        SELECT item_id, serial_number, product_name, product_oem FROM items
        WHERE organization_id = c.organization_id AND customer_id = c.customer_id
        ORDER BY assigned_at ASC NULLS LAST, item_id ASC LIMIT 1) d ON true
      LEFT JOIN LATERAL (
        SELECT pt.* FROM template_assignments ta
        JOIN payment_templates pt ON pt.organization_id = ta.organization_id AND pt.template_id = ta.template_id
        WHERE ta.organization_id = c.organization_id AND ta.customer_id = c.customer_id AND ta.is_active
          AND (ta.item_id IS NULL OR ta.item_id = d.item_id)
        ORDER BY ta.item_id IS NULL LIMIT 1) t ON true
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(amount) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::numeric(20,2)::text AS paid, count(*)::int AS count
        FROM payments WHERE organization_id = c.organization_id AND customer_id = c.customer_id) s
      LEFT JOIN LATERAL ${customerBalances(orgId, Prisma.sql`c.customer_id`, { deviceRows: true })} b ON true
      WHERE c.organization_id = ${orgId} AND c.customer_id = ${customerId}::int`);
    if (!row) throw Errors.notFound('Customer');
    const now = Date.now();
    const hasTemplate = row.template_id !== null;
    return {
      data: {
        customer_info: {
          customer_id: row.customer_id,
          customer_name: row.customer_name,
          phone_contact: row.phone_contact,
          email: row.email,
          status: row.status,
          sms_opted_out_at: row.sms_opted_out_at?.toISOString() ?? null,
          sms_opt_out_source: row.sms_opt_out_source as SmsOptOutSource | null,
          device_serial: row.serial_number,
          product_name: row.product_name,
          product_oem: row.product_oem,
        },
        payment_template: hasTemplate
          ? {
              template_id: row.template_id!,
              template_name: row.template_name!,
              daily_price: money(row.daily_price!),
              activation_price: money(row.activation_price!),
              grace_period_days: row.grace_period_days!,
              currency: row.currency || 'KES',
              deposit_made: money(row.deposit_made!),
            }
          : null,
        payment_summary: {
          total_paid: money(row.paid),
          free_code_price: money(row.payoff),
          remaining_balance: money(row.remaining),
          payment_progress: Number(row.progress ?? 0),
          is_fully_paid: row.paid_off ?? false,
          payment_count: row.count,
          paid_before: row.paid_before,
        },
        repayment: toRepayment(row.expected, row.paid_towards, row.repayment_paid_off ?? false),
        payment_history: row.history.map(ActivityMapper.payment),
        devices: (row.device_rows ?? []).map((d) => toDeviceStatus(d, now)),
      },
    };
  }
}

type Dec = Prisma.Decimal;

interface DeviceRow {
  serial_number: string;
  product_name: string;
  product_oem: string | null;
  manufacturer: string | null;
  status: string;
  customer_id: number | null;
  token_count: number;
  is_assigned: boolean;
  assigned_at: Date | null;
  price: Dec;
  total_paid: Dec;
  credit_until: Date | null;
  customer_name: string | null;
  location_name: string | null;
  plan_template_id: number | null;
  plan_template_name: string | null;
  plan_daily_price: Dec | null;
  plan_currency: string | null;
  plan_own: boolean;
  expected: Dec | null;
  paid_towards: Dec | null;
  paid_off_at: Date | null;
  remaining: Dec | null;
  discount: Dec;
  warranty_months: number | null;
  warranty_until: Date | null;
  brought_over: { paid: string; started_at: string; imported_at: string; imported_by: string | null } | null;
  transferred: TransferredJson | null;
  token_total: number;
  tokens: Parameters<typeof ActivityMapper.token>[0][];
  payment_total: number;
  payments: PaymentHistoryRow[];
  message_total: number;
  messages: Parameters<typeof ActivityMapper.message>[0][];
}

interface CustomerRow {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  email: string | null;
  status: string;
  sms_opted_out_at: Date | null;
  sms_opt_out_source: string | null;
  serial_number: string | null;
  product_name: string | null;
  product_oem: string | null;
  template_id: number | null;
  template_name: string | null;
  daily_price: Dec | null;
  activation_price: Dec | null;
  grace_period_days: number | null;
  currency: string | null;
  deposit_made: Dec | null;
  paid: string;
  count: number;
  paid_before: string;
  /** customerBalances; null when the customer has no device. */
  payoff: Dec | null;
  remaining: Dec | null;
  progress: Dec | null;
  paid_off: boolean | null;
  expected: Dec | null;
  paid_towards: Dec | null;
  repayment_paid_off: boolean | null;
  history: PaymentHistoryRow[];
  /** customerBalances' device_rows; null when the customer has no device. */
  device_rows: DeviceBalanceRow[] | null;
}
