import { Injectable } from '@nestjs/common';
import type {
  Customer,
  CustomerInputParsed,
  CustomerInsights,
  CustomerListReply,
  CustomerPaymentsReply,
  CustomerStatusReply,
  CustomerUpdateParsed,
  Item,
  SmsOptOutReply,
} from '@kidogo/contracts';
import { ZCustomerListQuerySchema, ZCustomerPaymentsQuerySchema, ZFetchCustomerSchema } from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { ERASED_CUSTOMER, Errors } from '../common/errors.js';
import { offsetPagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { Prisma } from '../generated/prisma/client.js';
import { money } from '../catalog/format.js';
import { ITEM_SELECT, toItem } from '../items/items.mapper.js';
import { customersByDay } from '../stats/totals.js';
import { Calendar } from '../common/calendar.js';
import { deviceBalances, toDeviceStatus, toRepayment, type DeviceBalanceRow } from './balances.js';
import { listCustomers } from './customer-list.js';
import { DEFAULT_PHONE_COUNTRY, lockPhoneCountry, phoneCountry, prismaRun, unreadablePhone } from './phone-country.js';
import { SMS_OPT_OUT_FIELDS, toCustomer, toCustomerCreate, toCustomerPayment, toCustomerUpdate } from './customers.mapper.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { withdrawCampaignTextsSql } from '../sms-campaigns/campaign-texts.js';
import { paidBeforeSql } from '../items/brought-over.js';

type ListQuery = z.output<typeof ZCustomerListQuerySchema>;

/** The customer fields whose value differs (updated_at aside): what a customer.updated event names as changed. */
function changedFields(before: Customer, after: Customer): string[] {
  return (Object.keys(after) as (keyof Customer)[]).filter((k) => k !== 'updated_at' && before[k] !== after[k]);
}
type FetchQuery = z.output<typeof ZFetchCustomerSchema>;
type PaymentsQuery = z.output<typeof ZCustomerPaymentsQuerySchema>;

const DAY_MS = 86_400_000;
const SUCCESSFUL: ('success' | 'completed')[] = ['success', 'completed'];

export const duplicateIdNumber = (idNumber: string) => Errors.conflict(`A customer with ID number ${idNumber} already exists`);

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';

@Injectable()
export class CustomersService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
  ) {}

  /** Newest first; see listCustomers for how deep pages and searches stay fast. */
  async list(orgId: string, q: ListQuery): Promise<CustomerListReply> {
    const { rows, total } = await listCustomers(this.database.runs, orgId, q);
    return { data: rows.map(toCustomer), pagination: offsetPagination(total, q.limit, q.offset) };
  }

  async register(orgId: string, input: CustomerInputParsed, actor: AuthUser): Promise<Customer> {
    const existing = await this.database.db.customer.findUnique({
      where: { organization_id_id_number: { organization_id: orgId, id_number: input.id_number } },
      select: { id: true },
    });
    if (existing) throw duplicateIdNumber(input.id_number);
    try {
      // The customer.created event commits with the customer.
      const row = await this.database.db.$transaction(async (tx) => {
        const country = await lockPhoneCountry(prismaRun(tx), orgId);
        const data = toCustomerCreate(orgId, input, country);
        if (!data.phone_normalized) throw Errors.badRequest('phone_contact', unreadablePhone(country));
        const created = await tx.customer.create({ data });
        await tx.$executeRaw(webhookEventSql(orgId, 'customer.created', { ...toCustomer(created), source: 'register' }));
        await this.audit.record(
          {
            organizationId: orgId,
            actor,
            action: 'customer.created',
            entityType: 'customer',
            entityId: created.id,
            description: `Registered customer ${created.customer_name} (ID number ${created.id_number})`,
          },
          tx,
        );
        return created;
      });
      return toCustomer(row);
    } catch (e) {
      // Two registrations of one ID number at the same moment: the unique key decides.
      if (isUniqueViolation(e)) throw duplicateIdNumber(input.id_number);
      throw e;
    }
  }

  /** By customer_id, else id_number, else phone (in its normal form, newest customer first). */
  async fetch(orgId: string, q: FetchQuery): Promise<Customer> {
    const db = this.database.db.customer;
    let row = null;
    if (q.customer_id !== undefined) {
      row = await db.findUnique({ where: { organization_id_id: { organization_id: orgId, id: q.customer_id } } });
    } else if (q.id_number) {
      row = await db.findUnique({ where: { organization_id_id_number: { organization_id: orgId, id_number: q.id_number } } });
    } else if (q.phone_contact) {
      const normalized = normalizePhone(q.phone_contact, await phoneCountry(this.database.query, orgId));
      row = await db.findFirst({
        where: normalized
          ? { organization_id: orgId, phone_normalized: normalized }
          : { organization_id: orgId, phone_contact: q.phone_contact },
        orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      });
    }
    if (!row) throw Errors.notFound('Customer');
    return toCustomer(row);
  }

  async findOne(orgId: string, id: number): Promise<Customer> {
    return toCustomer(await this.row(orgId, id));
  }

  private async row(orgId: string, id: number) {
    const row = await this.database.db.customer.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
    if (!row) throw Errors.notFound('Customer');
    return row;
  }

  async update(orgId: string, id: number, input: CustomerUpdateParsed, actor: AuthUser): Promise<Customer> {
    const before = await this.row(orgId, id);
    if (before.status === 'erased') throw Errors.conflict(ERASED_CUSTOMER);
    if (input.id_number !== undefined && input.id_number !== before.id_number) {
      const clash = await this.database.db.customer.findUnique({
        where: { organization_id_id_number: { organization_id: orgId, id_number: input.id_number } },
        select: { id: true },
      });
      if (clash) throw duplicateIdNumber(input.id_number);
    }
    try {
      // The customer.updated event commits with the change, and only for a change.
      const row = await this.database.db.$transaction(async (tx) => {
        // A new phone is read with the organization's calling code, which cannot change until this commits.
        const country = input.phone_contact === undefined ? DEFAULT_PHONE_COUNTRY : await lockPhoneCountry(prismaRun(tx), orgId);
        const data = toCustomerUpdate(input, country);
        if (input.phone_contact !== undefined && !data.phone_normalized) throw Errors.badRequest('phone_contact', unreadablePhone(country));
        const updated = await tx.customer.update({ where: { organization_id_id: { organization_id: orgId, id } }, data });
        const changed = changedFields(toCustomer(before), toCustomer(updated));
        if (changed.length) await tx.$executeRaw(webhookEventSql(orgId, 'customer.updated', { ...toCustomer(updated), changed, source: 'staff' }));
        if (updated.status !== before.status) {
          await this.audit.record(
            {
              organizationId: orgId,
              actor,
              action: 'customer.status_changed',
              entityType: 'customer',
              entityId: id,
              description: `Customer ${updated.customer_name}: status ${before.status} → ${updated.status}`,
              metadata: { from: before.status, to: updated.status },
            },
            tx,
          );
        }
        return updated;
      });
      return toCustomer(row);
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateIdNumber(input.id_number ?? before.id_number);
      throw e;
    }
  }

  /**
   * The customer asked staff for no texts nobody asked for (optedOut), or to
   * have them again (README "Texts a customer can stop"). Nothing changes
   * when it is already so; a change is audited.
   */
  async setSmsOptOut(orgId: string, id: number, optedOut: boolean, actor: AuthUser): Promise<SmsOptOutReply> {
    const before = await this.row(orgId, id);
    const name = before.customer_name;
    if ((before.sms_opted_out_at !== null) === optedOut) {
      return {
        message: optedOut ? `${name} had already asked for no texts` : `${name} already takes texts`,
        customer: toCustomer(before),
      };
    }
    const row = await this.database.db.$transaction(async (tx) => {
      const updated = await tx.customer.update({
        where: { organization_id_id: { organization_id: orgId, id } },
        data: optedOut ? { sms_opted_out_at: new Date(), sms_opt_out_source: 'staff' } : { sms_opted_out_at: null, sms_opt_out_source: null },
      });
      await tx.$executeRaw(webhookEventSql(orgId, 'customer.updated', { ...toCustomer(updated), changed: SMS_OPT_OUT_FIELDS, source: 'staff' }));
      // A bulk SMS set to go later is not sent to them (the phone it was queued to).
      const phone = before.phone_normalized ?? normalizePhone(before.phone_contact, await phoneCountry(prismaRun(tx), orgId));
      if (optedOut && phone) await tx.$executeRaw(withdrawCampaignTextsSql(orgId, [phone]));
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: optedOut ? 'customer.sms_opted_out' : 'customer.sms_opted_in',
          entityType: 'customer',
          entityId: id,
          description: optedOut
            ? `Customer ${name} asked for no texts (recorded by ${actor.username})`
            : `Customer ${name} takes texts again (recorded by ${actor.username}; before: ${before.sms_opt_out_source === 'sms' ? 'texted STOP' : 'asked staff'})`,
          metadata: { source: 'staff', ...(optedOut ? {} : { opted_out_at: before.sms_opted_out_at?.toISOString(), was: before.sms_opt_out_source }) },
        },
        tx,
      );
      return updated;
    });
    return {
      message: optedOut
        ? `${name} will get no more reminders or texts from staff; payment codes and balance replies still go`
        : `${name} takes reminders and texts again`,
      customer: toCustomer(row),
    };
  }

  /**
   * Refused while the customer holds devices or has payments or tokens in
   * the books (their history would lose its owner). Otherwise the customer
   * goes with their template assignments and ended device-assignment
   * history, in one transaction.
   */
  async remove(orgId: string, id: number, actor: AuthUser): Promise<{ message: string }> {
    return this.database.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ customer_name: string }[]>`
        SELECT customer_name FROM customers WHERE organization_id = ${orgId} AND customer_id = ${id}::int FOR UPDATE`;
      if (!locked.length) throw Errors.notFound('Customer');
      const [devices, payments, tokens] = await Promise.all([
        tx.item.count({ where: { organization_id: orgId, customer_id: id } }),
        tx.payment.count({ where: { organization_id: orgId, customer_id: id } }),
        tx.tokenLog.count({ where: { organization_id: orgId, customer_id: id } }),
      ]);
      if (devices || payments) {
        throw Errors.conflict(`Customer has ${devices} device(s) and ${payments} payment(s); unassign or keep the customer`);
      }
      if (tokens) throw Errors.conflict(`Customer has ${tokens} token(s) in device histories; keep the customer`);
      const repossessed = await tx.repossession.count({ where: { organization_id: orgId, customer_id: id } });
      if (repossessed) throw Errors.conflict(`Customer had ${repossessed} device(s) repossessed, written off in the books; keep the customer`);
      const swapped = await tx.deviceSwap.count({ where: { organization_id: orgId, customer_id: id } });
      if (swapped) throw Errors.conflict(`Customer had ${swapped} device(s) swapped, kept in the devices' histories; keep the customer`);
      await tx.templateAssignment.deleteMany({ where: { organization_id: orgId, customer_id: id } });
      await tx.itemAssignment.deleteMany({ where: { organization_id: orgId, customer_id: id } });
      const deleted = await tx.customer.delete({ where: { organization_id_id: { organization_id: orgId, id } } });
      await tx.$executeRaw(webhookEventSql(orgId, 'customer.deleted', { customer_id: id, customer_name: deleted.customer_name, id_number: deleted.id_number }));
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'customer.deleted',
          entityType: 'customer',
          entityId: id,
          description: `Deleted customer ${locked[0].customer_name}`,
        },
        tx as unknown as Prisma.TransactionClient,
      );
      return { message: `Customer ${locked[0].customer_name} deleted` };
    });
  }

  /** The customer's devices now, most recently assigned first. */
  async items(orgId: string, id: number): Promise<{ data: Item[] }> {
    await this.row(orgId, id);
    const rows = await this.database.db.item.findMany({
      where: { organization_id: orgId, customer_id: id },
      select: ITEM_SELECT,
      orderBy: [{ assigned_at: 'desc' }, { id: 'desc' }],
    });
    return { data: rows.map(toItem) };
  }

  /** Newest first, by when they were paid. */
  async payments(orgId: string, id: number, q: PaymentsQuery): Promise<CustomerPaymentsReply> {
    await this.row(orgId, id);
    const where = { organization_id: orgId, customer_id: id };
    const [rows, total] = await Promise.all([
      this.database.db.payment.findMany({
        where,
        include: { item: { select: { serial_number: true } } },
        orderBy: [{ paid_at: 'desc' }, { id: 'desc' }],
        skip: q.offset,
        take: q.limit,
      }),
      this.database.db.payment.count({ where }),
    ]);
    return { data: rows.map(toCustomerPayment), pagination: offsetPagination(total, q.limit, q.offset) };
  }

  /** Each device's payoff price and what is left on it, as deviceBalances has them; the balance is their sum. */
  async status(orgId: string, id: number): Promise<CustomerStatusReply> {
    const customer = await this.row(orgId, id);
    const [devices, paid, assignment, [before]] = await Promise.all([
      this.database.prepared<DeviceBalanceRow>(Prisma.sql`
        SELECT d.serial_number, d.product_name, d.status, d.total_paid, d.credit_until, d.paid_off_at, d.payoff, d.remaining,
               d.plan_template_id, d.plan_template_name, d.plan_daily_price, d.plan_currency, d.plan_own, d.expected, d.paid_towards
        FROM ${deviceBalances(orgId, Prisma.sql`${id}::int`)} d
        ORDER BY d.assigned_at DESC, d.item_id DESC`),
      this.database.db.payment.aggregate({
        where: { organization_id: orgId, customer_id: id, status: { in: SUCCESSFUL } },
        _sum: { amount: true },
        _count: { _all: true },
      }),
      this.database.db.templateAssignment.findFirst({
        where: { organization_id: orgId, customer_id: id, item_id: null, is_active: true },
        select: { template: { select: { id: true, template_name: true, daily_price: true, currency: true } } },
      }),
      this.database.read.$queryRaw<{ paid: string }[]>`SELECT ${paidBeforeSql(orgId, Prisma.sql`${id}::int`)} AS paid`,
    ]);
    const template = assignment?.template ?? null;
    const now = Date.now();
    let balance = new Prisma.Decimal(0);
    let expected: Prisma.Decimal | null = null;
    let towards = new Prisma.Decimal(0);
    let allPaidOff = true;
    const rows = devices.map((d) => {
      if (d.remaining) balance = balance.plus(d.remaining as Prisma.Decimal);
      if (d.expected !== null) {
        expected = (expected ?? new Prisma.Decimal(0)).plus(d.expected as Prisma.Decimal);
        towards = towards.plus(d.paid_towards as Prisma.Decimal);
        allPaidOff &&= d.paid_off_at !== null;
      }
      return toDeviceStatus(d, now);
    });
    return {
      customer_id: customer.id,
      customer_name: customer.customer_name,
      status: customer.status as CustomerStatusReply['status'],
      devices: rows,
      total_paid: money(paid._sum.amount ?? 0),
      payments_count: paid._count._all,
      paid_before: before!.paid,
      balance: money(balance),
      repayment: toRepayment(expected, towards, allPaidOff),
      template: template
        ? {
            template_id: template.id,
            template_name: template.template_name,
            daily_price: money(template.daily_price),
            currency: template.currency,
          }
        : null,
    };
  }

  /** The counts from customer_stats, one grouped query for the counties. */
  async insights(orgId: string): Promise<CustomerInsights> {
    const now = Date.now();
    const since7 = new Date(now - 7 * DAY_MS);
    const since30 = new Date(now - 30 * DAY_MS);
    const read = this.database.read;
    const [[counts], [devices], counties] = await Promise.all([
      read.$queryRaw<{ total: number; active: number; inactive: number; suspended: number; d7: number; d30: number }[]>`
        SELECT coalesce(sum(n), 0)::int AS total,
               coalesce(sum(n) FILTER (WHERE status = 'active'), 0)::int AS active,
               coalesce(sum(n) FILTER (WHERE status = 'inactive'), 0)::int AS inactive,
               coalesce(sum(n) FILTER (WHERE status = 'suspended'), 0)::int AS suspended,
               (SELECT coalesce(sum(n), 0)::int FROM ${customersByDay(orgId, { from: since7, until: null }, this.calendar)} w) AS d7,
               (SELECT coalesce(sum(n), 0)::int FROM ${customersByDay(orgId, { from: since30, until: null }, this.calendar)} m) AS d30
        FROM ${customersByDay(orgId, { from: null, until: null }, this.calendar)} c`,
      read.$queryRaw<{ with_devices: number }[]>`
        SELECT count(DISTINCT customer_id)::int AS with_devices
        FROM items WHERE organization_id = ${orgId} AND customer_id IS NOT NULL`,
      read.$queryRaw<{ county: string; count: number }[]>`
        SELECT county, count(*)::int AS count
        FROM customers WHERE organization_id = ${orgId} AND county IS NOT NULL AND county <> ''
        GROUP BY county ORDER BY count(*) DESC, county LIMIT 10`,
    ]);
    return {
      total: counts.total,
      by_status: { active: counts.active, inactive: counts.inactive, suspended: counts.suspended },
      new_last_7_days: counts.d7,
      new_last_30_days: counts.d30,
      with_devices: devices.with_devices,
      without_devices: counts.total - devices.with_devices,
      top_counties: counties,
    };
  }
}
