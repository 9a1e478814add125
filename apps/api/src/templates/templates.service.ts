import { Injectable } from '@nestjs/common';
import {
  ZTemplateAssignmentsQuerySchema,
  ZTemplateListQuerySchema,
  type PaymentTemplate,
  type TemplateAssignReply,
  type TemplateAssignmentEndReply,
  type TemplateAssignmentsReply,
  type TemplateInputParsed,
  type TemplateListReply,
  type TemplatePerformance,
  type TemplateSummary,
  type TemplateUpdateParsed,
  type TemplateUsageReply,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { ERASED_CUSTOMER, Errors } from '../common/errors.js';
import { offsetPagination } from '../common/pagination.js';
import { searchPage } from '../common/list-counts.js';
import { MetricSnapshots } from '../metrics/metric-snapshots.js';
import type { AuthUser } from '../common/tenancy.js';
import { Prisma, type TemplateAssignment as AssignmentRow } from '../generated/prisma/client.js';
import { containsText, money, toDbDate } from '../catalog/format.js';
import type { Tx } from '../items/items.service.js';
import { serialWhere } from '../tokens/token-device.js';
import { devicePlanJoin } from './device-plan.js';
import { ASSIGNMENT_INCLUDE, toAssignment, toTemplate, toTemplateCreate, toTemplateUpdate } from './templates.mapper.js';

type ListQuery = z.output<typeof ZTemplateListQuerySchema>;
type AssignmentsQuery = z.output<typeof ZTemplateAssignmentsQuerySchema>;
export interface AssignTemplateInput {
  customer_id: number;
  template_id: number;
  /** The device whose own plan this is; absent or null for the customer's plan. */
  serial_number?: string | null;
  start_date?: string | null;
  end_date?: string | null;
  notes?: string | null;
}

const asAuditTx = (tx: Tx) => tx as unknown as Prisma.TransactionClient;
/** How old the templates' performance figures may be on a large organization (see performance). */
const PERFORMANCE_MAX_AGE_S = 60;

interface PerformanceRow {
  template_id: number;
  template_name: string;
  currency: string;
  daily_price: Prisma.Decimal;
  customers_assigned: number;
  revenue_collected: Prisma.Decimal;
  payments_count: number;
  average_days_bought: Prisma.Decimal;
  devices_assigned: number;
  devices_paid_up: number;
}

/** A plan's terms: what a device paid on it is expected to pay, and what a payment buys (README "Payment rules"). */
const PLAN_TERMS = ['deposit_made', 'daily_price', 'activation_price', 'grace_period_days', 'currency', 'free_code_price'] as const;
const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

@Injectable()
export class TemplatesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    private readonly snapshots: MetricSnapshots,
  ) {}

  async list(orgId: string, q: ListQuery): Promise<TemplateListReply> {
    const where: Prisma.PaymentTemplateWhereInput = { organization_id: orgId };
    if (q.search_term) (where as Record<string, unknown>)[q.search_field] = containsText(q.search_term);
    const [rows, total] = await Promise.all([
      this.database.db.paymentTemplate.findMany({
        where,
        orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
        skip: q.offset,
        take: q.limit,
      }),
      this.database.db.paymentTemplate.count({ where }),
    ]);
    return { data: { data: rows.map(toTemplate), pagination: offsetPagination(total, q.limit, q.offset) } };
  }

  async create(orgId: string, input: TemplateInputParsed, actor: AuthUser): Promise<PaymentTemplate> {
    return this.database.db.$transaction(async (tx) => {
      const template = toTemplate(await tx.paymentTemplate.create({ data: toTemplateCreate(orgId, input) }));
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'template.created',
          entityType: 'payment_template',
          entityId: template.template_id,
          description: `Created payment template ${template.template_name}: ${template.currency} ${template.daily_price} a day`,
          metadata: pick(template, PLAN_TERMS),
        },
        asAuditTx(tx),
      );
      return template;
    });
  }

  async findOne(orgId: string, id: number): Promise<PaymentTemplate> {
    return toTemplate(await this.row(orgId, id));
  }

  private async row(orgId: string, id: number) {
    const row = await this.database.db.paymentTemplate.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
    if (!row) throw Errors.notFound('Payment template');
    return row;
  }

  /**
   * Changes the fields sent. A change of its terms (PLAN_TERMS) is a change of the contracts of every device paid
   * on it: audited with each field before and after, and how many assignments it is the plan of. A request that
   * changes nothing writes nothing.
   */
  async update(orgId: string, id: number, input: TemplateUpdateParsed, actor: AuthUser): Promise<PaymentTemplate> {
    return this.database.db.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ template_id: number }[]>`
        SELECT template_id FROM payment_templates WHERE organization_id = ${orgId} AND template_id = ${id}::int FOR UPDATE`;
      if (!locked) throw Errors.notFound('Payment template');
      const where = { organization_id_id: { organization_id: orgId, id } };
      const row = await tx.paymentTemplate.findUniqueOrThrow({ where });
      const data = toTemplateUpdate(input);
      // The template as it would read afterwards: a field sent with the value it has is no change.
      const [before, candidate] = [toTemplate(row), toTemplate({ ...row, ...data } as typeof row)];
      const changes = Object.fromEntries(
        (Object.keys(data) as (keyof PaymentTemplate)[])
          .filter((k) => String(candidate[k] ?? '') !== String(before[k] ?? ''))
          .map((k) => [k, { from: before[k], to: candidate[k] }]),
      );
      if (!Object.keys(changes).length) return before;
      const after = toTemplate(await tx.paymentTemplate.update({ where, data }));
      const terms = PLAN_TERMS.filter((k) => k in changes);
      const onIt = terms.length ? await tx.templateAssignment.count({ where: { organization_id: orgId, template_id: id, is_active: true } }) : 0;
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'template.updated',
          entityType: 'payment_template',
          entityId: id,
          description:
            `Changed payment template ${before.template_name}: ` +
            Object.entries(changes)
              .map(([k, c]) => `${k} ${c.from ?? 'none'} → ${c.to ?? 'none'}`)
              .join(', ') +
            (onIt ? ` (the plan of ${onIt} assignment${onIt === 1 ? '' : 's'})` : ''),
          metadata: { changes, active_assignments: onIt },
        },
        asAuditTx(tx),
      );
      return after;
    });
  }

  /** Refused while customers are on it; its ended assignments (history) go with it. */
  async remove(orgId: string, id: number, actor: AuthUser): Promise<{ message: string }> {
    return this.database.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ template_name: string }[]>`
        SELECT template_name FROM payment_templates
        WHERE organization_id = ${orgId} AND template_id = ${id}::int FOR UPDATE`;
      if (!locked.length) throw Errors.notFound('Payment template');
      const name = locked[0].template_name;
      const active = await tx.templateAssignment.count({ where: { organization_id: orgId, template_id: id, is_active: true } });
      if (active) throw Errors.conflict(`Template ${name} is assigned to ${active} customer(s); assign them another template first`);
      await tx.templateAssignment.deleteMany({ where: { organization_id: orgId, template_id: id } });
      await tx.paymentTemplate.delete({ where: { organization_id_id: { organization_id: orgId, id } } });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'template.deleted',
          entityType: 'payment_template',
          entityId: id,
          description: `Deleted payment template ${name}`,
        },
        asAuditTx(tx),
      );
      return { message: `Payment template ${name} deleted` };
    });
  }

  async summary(orgId: string): Promise<TemplateSummary> {
    const [agg, customers] = await Promise.all([
      this.database.read.paymentTemplate.aggregate({
        where: { organization_id: orgId },
        _count: { _all: true },
        _avg: { daily_price: true },
      }),
      // Customers with a plan of their own, plus those whose devices alone have one (few).
      this.database.read.$queryRaw<{ n: number }[]>`
        SELECT ((SELECT count(*) FROM template_assignments
                 WHERE organization_id = ${orgId} AND is_active AND item_id IS NULL)
              + (SELECT count(DISTINCT d.customer_id) FROM template_assignments d
                 WHERE d.organization_id = ${orgId} AND d.is_active AND d.item_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM template_assignments a
                                   WHERE a.organization_id = d.organization_id AND a.customer_id = d.customer_id
                                     AND a.is_active AND a.item_id IS NULL)))::int AS n`,
    ]);
    return {
      total_templates: agg._count._all,
      average_daily_price: money(agg._avg.daily_price ?? 0),
      customers_on_templates: customers[0].n,
    };
  }

  /**
   * Every figure in one statement, grouped by template (see the contract's
   * ZTemplatePerformanceSchema for what each one means). It reads every
   * payment of every assigned customer (4,500,000: 3 s), so on a large
   * organization the figures are kept and served up to
   * PERFORMANCE_MAX_AGE_S old (MetricSnapshots; a small one's are live).
   */
  async performance(orgId: string, templateId?: number): Promise<TemplatePerformance[]> {
    const key = templateId === undefined ? 'templates.performance' : `templates.performance.${templateId}`;
    return (await this.snapshots.get(orgId, key, () => this.computePerformance(orgId, templateId), PERFORMANCE_MAX_AGE_S)).value;
  }

  private async computePerformance(orgId: string, templateId?: number): Promise<TemplatePerformance[]> {
    const only = templateId === undefined ? Prisma.empty : Prisma.sql`AND t.template_id = ${templateId}::int`;
    const rows = await this.database.read.$queryRaw<PerformanceRow[]>`
      WITH t AS NOT MATERIALIZED (
        SELECT template_id, template_name, currency, daily_price, created_at
        FROM payment_templates t
        WHERE t.organization_id = ${orgId} ${only}
      ),
      -- The payments of each customer's plan, plus those of each device's own
      -- plan, less those the customer's plan counted on a device that was on
      -- its own plan then. Set-wise, so that the few plans of a device's own
      -- cost a few index probes, not an anti-join over every payment (the
      -- customer's plans stay one parallel hash join: 4.2-4.5 s on 4,500,000
      -- payments, as before device plans). Not materialized, so as to keep it.
      parts AS (
        SELECT ta.template_id, sum(p.amount) AS amount, count(*) AS n, sum(p.days_bought) AS days, count(p.days_bought) AS with_days
        FROM template_assignments ta
        JOIN t USING (template_id)
        JOIN payments p
          ON p.organization_id = ta.organization_id AND p.customer_id = ta.customer_id
         AND p.paid_at >= ta.assigned_at AND (ta.ended_at IS NULL OR p.paid_at < ta.ended_at)
        WHERE ta.organization_id = ${orgId} AND ta.item_id IS NULL AND p.status IN ('success', 'completed')
        GROUP BY ta.template_id
        UNION ALL
        SELECT ta.template_id, sum(p.amount), count(*), sum(p.days_bought), count(p.days_bought)
        FROM template_assignments ta
        JOIN t USING (template_id)
        JOIN payments p
          ON p.organization_id = ta.organization_id AND p.item_id = ta.item_id AND p.customer_id = ta.customer_id
         AND p.paid_at >= ta.assigned_at AND (ta.ended_at IS NULL OR p.paid_at < ta.ended_at)
        WHERE ta.organization_id = ${orgId} AND ta.item_id IS NOT NULL AND p.status IN ('success', 'completed')
        GROUP BY ta.template_id
        UNION ALL
        SELECT c.template_id, -sum(p.amount), -count(*), -sum(p.days_bought), -count(p.days_bought)
        FROM template_assignments o
        JOIN payments p
          ON p.organization_id = o.organization_id AND p.item_id = o.item_id AND p.customer_id = o.customer_id
         AND p.paid_at >= o.assigned_at AND (o.ended_at IS NULL OR p.paid_at < o.ended_at)
        JOIN template_assignments c
          ON c.organization_id = o.organization_id AND c.customer_id = o.customer_id AND c.item_id IS NULL
         AND p.paid_at >= c.assigned_at AND (c.ended_at IS NULL OR p.paid_at < c.ended_at)
        JOIN t ON t.template_id = c.template_id
        WHERE o.organization_id = ${orgId} AND o.item_id IS NOT NULL AND p.status IN ('success', 'completed')
        GROUP BY c.template_id
      ),
      revenue AS (
        SELECT template_id, sum(amount) AS revenue, sum(n)::int AS n, sum(days) / nullif(sum(with_days), 0) AS avg_days
        FROM parts GROUP BY template_id
      ),
      devices AS (
        SELECT pl.template_id, count(*)::int AS devices,
               count(*) FILTER (WHERE i.paid_off_at IS NOT NULL OR i.credit_until >= now())::int AS paid_up
        FROM items i
        ${devicePlanJoin('i', 'pl')}
        WHERE i.organization_id = ${orgId} AND i.is_assigned AND pl.template_id IN (SELECT template_id FROM t)
        GROUP BY pl.template_id
      ),
      customers AS (
        SELECT ta.template_id, count(DISTINCT ta.customer_id)::int AS n
        FROM template_assignments ta JOIN t USING (template_id)
        WHERE ta.organization_id = ${orgId} AND ta.is_active
        GROUP BY ta.template_id
      )
      SELECT t.template_id, t.template_name, t.currency, t.daily_price,
             coalesce(c.n, 0) AS customers_assigned,
             coalesce(r.revenue, 0) AS revenue_collected,
             coalesce(r.n, 0) AS payments_count,
             coalesce(round(r.avg_days, 1), 0) AS average_days_bought,
             coalesce(d.devices, 0) AS devices_assigned,
             coalesce(d.paid_up, 0) AS devices_paid_up
      FROM t
      LEFT JOIN customers c USING (template_id)
      LEFT JOIN revenue r USING (template_id)
      LEFT JOIN devices d USING (template_id)
      ORDER BY t.created_at DESC, t.template_id DESC`;
    if (templateId !== undefined && !rows.length) throw Errors.notFound('Payment template');
    return rows.map((r) => ({
      template_id: r.template_id,
      template_name: r.template_name,
      currency: r.currency as TemplatePerformance['currency'],
      daily_price: money(r.daily_price),
      customers_assigned: r.customers_assigned,
      revenue_collected: money(r.revenue_collected),
      payments_count: r.payments_count,
      average_days_bought: Number(r.average_days_bought),
      devices_assigned: r.devices_assigned,
      devices_paid_up: r.devices_paid_up,
      paid_up_share: r.devices_assigned ? Math.round((r.devices_paid_up / r.devices_assigned) * 10_000) / 10_000 : 0,
    }));
  }

  async usage(orgId: string, id: number): Promise<TemplateUsageReply> {
    const template = await this.row(orgId, id);
    const [[counts], months] = await Promise.all([
      this.database.read.$queryRaw<{ active: number; ended: number; customers: number }[]>`
        SELECT count(*) FILTER (WHERE is_active)::int AS active,
               count(*) FILTER (WHERE NOT is_active)::int AS ended,
               count(DISTINCT customer_id)::int AS customers
        FROM template_assignments WHERE organization_id = ${orgId} AND template_id = ${id}::int`,
      this.database.read.$queryRaw<{ month: string; assignments: number }[]>`
        SELECT to_char(m, 'YYYY-MM') AS month, count(ta.assignment_id)::int AS assignments
        FROM generate_series(
               date_trunc('month', kidogo_day(now())::timestamp) - interval '11 months',
               date_trunc('month', kidogo_day(now())::timestamp),
               interval '1 month') AS m
        LEFT JOIN template_assignments ta
          ON ta.organization_id = ${orgId} AND ta.template_id = ${id}::int
         AND date_trunc('month', kidogo_day(ta.assigned_at)::timestamp) = m
        GROUP BY m ORDER BY m`,
    ]);
    return {
      data: {
        template_id: template.id,
        template_name: template.template_name,
        active_assignments: counts.active,
        ended_assignments: counts.ended,
        customers_ever: counts.customers,
        assignments_by_month: months,
      },
    };
  }

  async assign(orgId: string, input: AssignTemplateInput, actor: AuthUser): Promise<TemplateAssignReply> {
    return this.database.db.$transaction((tx) => this.assignInTx(tx, orgId, input, actor));
  }

  /**
   * Inside the caller's transaction. The customer row is locked so that two
   * assignments for one customer run one after the other; the current
   * assignment is ended (kept as history) and the new one made active. The
   * same template again changes nothing.
   *
   * With a serial number it is the device's own plan: the device must be
   * the customer's, and its current plan of its own (not the customer's,
   * which its other devices keep) is the one ended.
   */
  async assignInTx(tx: Tx, orgId: string, input: AssignTemplateInput, actor: AuthUser): Promise<TemplateAssignReply> {
    const customer = await tx.$queryRaw<{ customer_name: string; status: string }[]>`
      SELECT customer_name, status FROM customers
      WHERE organization_id = ${orgId} AND customer_id = ${input.customer_id}::int FOR NO KEY UPDATE`;
    if (!customer.length) throw Errors.notFound('Customer');
    if (customer[0].status === 'erased') throw Errors.conflict(ERASED_CUSTOMER);
    const name = customer[0].customer_name;
    const template = await tx.paymentTemplate.findUnique({
      where: { organization_id_id: { organization_id: orgId, id: input.template_id } },
      select: { id: true, template_name: true },
    });
    if (!template) throw Errors.notFound('Payment template');
    const device = input.serial_number ? await this.customersDevice(tx, orgId, input.customer_id, name, input.serial_number) : null;
    const current = await tx.templateAssignment.findFirst({
      where: device
        ? { organization_id: orgId, item_id: device.item_id, is_active: true }
        : { organization_id: orgId, customer_id: input.customer_id, item_id: null, is_active: true },
      include: ASSIGNMENT_INCLUDE,
    });
    const whose = device ? `${name}'s device ${device.serial_number}` : name;
    if (current?.template_id === template.id) {
      return { message: `${whose} is already on ${template.template_name}`, changed: false, assignment: toAssignment(current) };
    }
    if (current) {
      await tx.templateAssignment.update({
        where: { organization_id_id: { organization_id: orgId, id: current.id } },
        data: { is_active: false, ended_at: new Date() },
      });
    }
    const created = await tx.templateAssignment.create({
      data: {
        organization_id: orgId,
        customer_id: input.customer_id,
        template_id: template.id,
        item_id: device?.item_id ?? null,
        start_date: toDbDate(input.start_date ?? null),
        end_date: toDbDate(input.end_date ?? null),
        notes: input.notes ?? null,
        assigned_by: actor.username,
        is_active: true,
      },
      include: ASSIGNMENT_INCLUDE,
    });
    await this.audit.record(
      {
        organizationId: orgId,
        actor,
        action: 'template.assigned',
        entityType: device ? 'item' : 'customer',
        entityId: device ? device.serial_number : input.customer_id,
        description: current
          ? `Moved ${whose} from ${current.template.template_name} to ${template.template_name}`
          : `Put ${whose} on ${template.template_name}`,
        metadata: {
          customer_id: input.customer_id,
          template_id: template.id,
          previous_template_id: current?.template_id ?? null,
          item_id: device?.item_id ?? null,
        },
      },
      asAuditTx(tx),
    );
    return {
      message: device
        ? `Payment template ${template.template_name} assigned to ${name} for device ${device.serial_number}`
        : `Payment template ${template.template_name} assigned to ${name}`,
      changed: true,
      assignment: toAssignment(created),
    };
  }

  /** Ends a device's own plan; its customer's plan covers the device again. */
  async endAssignment(orgId: string, id: number, actor: AuthUser): Promise<TemplateAssignmentEndReply> {
    return this.database.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ assignment_id: number }[]>`
        SELECT assignment_id FROM template_assignments
        WHERE organization_id = ${orgId} AND assignment_id = ${id}::int FOR NO KEY UPDATE`;
      if (!locked.length) throw Errors.notFound('Template assignment');
      const where = { organization_id_id: { organization_id: orgId, id } };
      const current = await tx.templateAssignment.findUniqueOrThrow({ where, include: ASSIGNMENT_INCLUDE });
      if (!current.is_active) throw Errors.conflict('This plan has ended already');
      if (current.item === null) {
        throw Errors.conflict("A customer's plan is not ended: put the customer on another template instead");
      }
      const ended = await tx.templateAssignment.update({
        where,
        data: { is_active: false, ended_at: new Date() },
        include: ASSIGNMENT_INCLUDE,
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'template.ended',
          entityType: 'item',
          entityId: current.item.serial_number,
          description: `Ended the plan ${current.template.template_name} of ${current.customer.customer_name}'s device ${current.item.serial_number}`,
          metadata: { customer_id: current.customer_id, template_id: current.template_id, item_id: current.item_id, assignment_id: id },
        },
        asAuditTx(tx),
      );
      const customersPlan = await tx.templateAssignment.findFirst({
        where: { organization_id: orgId, customer_id: current.customer_id, item_id: null, is_active: true },
        select: { template: { select: { template_name: true } } },
      });
      const serial = current.item.serial_number;
      const name = current.customer.customer_name;
      return {
        message: customersPlan
          ? `Device ${serial} is back on ${name}'s plan, ${customersPlan.template.template_name}`
          : `Device ${serial} has no plan now: ${name} is on none`,
        assignment: toAssignment(ended),
      };
    });
  }

  /** The device (locked) for a plan of its own: it must be assigned to the customer now. */
  private async customersDevice(tx: Tx, orgId: string, customerId: number, customerName: string, serial: string) {
    const s = serialWhere(serial);
    const [device] = await tx.$queryRaw<{ item_id: number; serial_number: string; customer_id: number | null }[]>`
      SELECT i.item_id, i.serial_number, i.customer_id FROM items i
      WHERE i.organization_id = ${orgId} AND ${s.where} ${s.order} LIMIT 1 FOR NO KEY UPDATE`;
    if (!device) throw Errors.notFound('Device');
    if (device.customer_id !== customerId) {
      throw Errors.badRequest('serial_number', `device ${device.serial_number} is not assigned to ${customerName}`);
    }
    return device;
  }

  /** Newest first (by assignment id, which follows the order they were made, on the primary key index). */
  /**
   * Assignments, newest first, optionally of one template or customer and
   * active or ended. Counting them was most of the page (900,000
   * assignments: 100 ms on every page), so the total comes from searchPage:
   * counted once and kept for a few seconds when 100 or more, as a search's
   * is, while each page's rows are read live. A page is found in the
   * (organization_id, assignment_id) key alone and only its rows are joined
   * to their customer and template.
   */
  async assignments(orgId: string, q: AssignmentsQuery): Promise<TemplateAssignmentsReply> {
    const filters = [Prisma.sql`organization_id = ${orgId}`];
    if (q.template_id !== undefined) filters.push(Prisma.sql`template_id = ${q.template_id}::int`);
    if (q.customer_id !== undefined) filters.push(Prisma.sql`customer_id = ${q.customer_id}::int`);
    if (q.active !== undefined) filters.push(Prisma.sql`is_active = ${q.active}::boolean`);
    const where = Prisma.join(filters, ' AND ');
    const key = JSON.stringify([q.template_id ?? null, q.customer_id ?? null, q.active ?? null]);
    const { rows, total } = await searchPage<AssignmentListRow>(this.database.runs, orgId, 'assignments', key, q.offset, {
      count: Prisma.sql`SELECT count(*)::int AS total FROM template_assignments WHERE ${where}`,
      page: (_kept, { skip }) => Prisma.sql`
        SELECT a.assignment_id AS id, a.organization_id, a.customer_id, a.template_id, a.start_date, a.end_date, a.notes,
               a.is_active, a.assigned_by, a.assigned_at, a.ended_at, a.item_id, c.customer_name, t.template_name, i.serial_number
        FROM (
          SELECT assignment_id FROM template_assignments WHERE ${where}
          ORDER BY assignment_id DESC LIMIT ${q.limit}::int OFFSET ${skip}::int
        ) k
        JOIN template_assignments a ON a.organization_id = ${orgId} AND a.assignment_id = k.assignment_id
        JOIN customers c ON c.organization_id = a.organization_id AND c.customer_id = a.customer_id
        JOIN payment_templates t ON t.organization_id = a.organization_id AND t.template_id = a.template_id
        LEFT JOIN items i ON i.organization_id = a.organization_id AND i.item_id = a.item_id
        ORDER BY a.assignment_id DESC`,
    });
    const data = rows.map(({ customer_name, template_name, serial_number, ...a }) =>
      toAssignment({ ...a, customer: { customer_name }, template: { template_name }, item: serial_number === null ? null : { serial_number } }),
    );
    return { data, pagination: offsetPagination(total, q.limit, q.offset) };
  }
}

type AssignmentListRow = AssignmentRow & { customer_name: string; template_name: string; serial_number: string | null };
