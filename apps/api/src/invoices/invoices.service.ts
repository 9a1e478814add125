import { Injectable } from '@nestjs/common';
import type {
  AdminInvoiceListQuery,
  CreateInvoiceInput,
  Invoice,
  InvoiceListQuery,
  InvoiceSettings,
  InvoiceSettingsUpdate,
  InvoiceStats,
  InvoiceStatus,
  OrgInvoiceSettings,
  OrgInvoiceSettingsUpdate,
  SubmitPaymentInput,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { offsetPagination, pagePagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { isoDay } from '../metrics/period.js';
import { Calendar } from '../common/calendar.js';
import { InvoicesMapper, OPEN_STATUSES } from './invoices.mapper.js';

const SETTINGS_LOCK = 7_202_613;
const DAY_MS = 86_400_000;
const withOrg = { organization: { select: { name: true } } } as const;

/** Which invoices the caller may touch: one organization's, or (super admin) every organization's. */
export type InvoiceScope = { orgId: string } | 'all';

export const scopeOf = (user: AuthUser): InvoiceScope => (user.role === 'super_admin' ? 'all' : { orgId: user.organization_id });

/** Invoices whose status reads as `status` today (overdue is computed, not only stored). */
function statusWhere(status: InvoiceStatus, today: Date): Prisma.InvoiceWhereInput {
  if (status === 'overdue') return { OR: [{ status: 'overdue' }, { status: { in: OPEN_STATUSES }, due_date: { lt: today } }] };
  if (OPEN_STATUSES.includes(status)) return { status, OR: [{ due_date: null }, { due_date: { gte: today } }] };
  return { status };
}

const cents = (n: number) => Math.round(n * 100);
const fromCents = (c: number) => (c / 100).toFixed(2);

/** The platform bills organizations: numbering, totals, status, settings. */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
  ) {}

  private get db() {
    return this.database.platform;
  }

  /** Today's business day (TIME_ZONE) as a due date is kept: a DATE, at UTC midnight. */
  today(): Date {
    return new Date(this.calendar.today() * DAY_MS);
  }

  async list(query: AdminInvoiceListQuery) {
    const today = this.today();
    const and: Prisma.InvoiceWhereInput[] = [];
    if (query.organization_id) and.push({ organization_id: query.organization_id });
    if (query.status) and.push(statusWhere(query.status, today));
    if (query.search) {
      const contains = query.search;
      and.push({
        OR: [
          { invoice_number: { contains, mode: 'insensitive' } },
          { organization_id: { contains, mode: 'insensitive' } },
          { customer_name: { contains, mode: 'insensitive' } },
          { customer_email: { contains, mode: 'insensitive' } },
        ],
      });
    }
    const where: Prisma.InvoiceWhereInput = { AND: and };
    const [rows, total] = await Promise.all([
      this.db.invoice.findMany({ where, include: withOrg, orderBy: [{ created_at: 'desc' }, { id: 'desc' }], skip: query.offset, take: query.limit }),
      this.db.invoice.count({ where }),
    ]);
    return { data: rows.map((r) => InvoicesMapper.invoice(r, today)), pagination: offsetPagination(total, query.limit, query.offset) };
  }

  async listForOrg(orgId: string, query: InvoiceListQuery) {
    const today = this.today();
    const where: Prisma.InvoiceWhereInput = { organization_id: orgId, ...(query.status ? statusWhere(query.status, today) : {}) };
    const [rows, total] = await Promise.all([
      this.db.invoice.findMany({
        where,
        include: withOrg,
        orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
        skip: (query.page - 1) * query.limit,
        take: query.limit,
      }),
      this.db.invoice.count({ where }),
    ]);
    return { data: rows.map((r) => InvoicesMapper.invoice(r, today)), pagination: pagePagination(total, query.page, query.limit) };
  }

  async summarize(scope: InvoiceScope): Promise<InvoiceStats> {
    const today = isoDay(this.today());
    const orgFilter = scope === 'all' ? Prisma.empty : Prisma.sql`WHERE organization_id = ${scope.orgId}`;
    const [row] = await this.db.$queryRaw<{ total: number; paid: number; pending: number; overdue: number }[]>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE status = 'paid')::int AS paid,
             count(*) FILTER (WHERE status = 'pending' AND (due_date IS NULL OR due_date >= ${today}::date))::int AS pending,
             count(*) FILTER (WHERE status = 'overdue'
                               OR (status IN ('pending', 'sent', 'draft') AND due_date < ${today}::date))::int AS overdue
      FROM invoices ${orgFilter}`;
    const money = await this.db.$queryRaw<{ currency: string; total_revenue: string; outstanding_amount: string }[]>`
      SELECT currency,
             coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0)::numeric(20,2)::text AS total_revenue,
             coalesce(sum(amount) FILTER (WHERE status NOT IN ('paid', 'cancelled')), 0)::numeric(20,2)::text AS outstanding_amount
      FROM invoices ${orgFilter} GROUP BY currency ORDER BY currency`;
    const global = await this.globalSettings();
    const own = scope === 'all' ? null : await this.db.invoiceSettings.findUnique({ where: { organization_id: scope.orgId } });
    const currency = own?.default_currency ?? global.default_currency;
    const main = money.find((m) => m.currency === currency);
    return {
      total_invoices: row!.total,
      paid_invoices: row!.paid,
      pending_invoices: row!.pending,
      overdue_invoices: row!.overdue,
      currency,
      total_revenue: main?.total_revenue ?? '0.00',
      outstanding_amount: main?.outstanding_amount ?? '0.00',
      by_currency: money,
    };
  }

  /** One invoice the scope may see; another organization's reads as not found. */
  async findOne(scope: InvoiceScope, id: string): Promise<Invoice> {
    return InvoicesMapper.invoice(await this.findRow(scope, id), this.today());
  }

  async findRow(scope: InvoiceScope, id: string) {
    const row = await this.db.invoice.findFirst({
      where: { id, ...(scope === 'all' ? {} : { organization_id: scope.orgId }) },
      include: withOrg,
    });
    if (!row) throw Errors.notFound('Invoice');
    return row;
  }

  async create(actor: AuthUser, organizationId: string, input: CreateInvoiceInput): Promise<Invoice> {
    return this.db.$transaction(async (tx) => {
      const org = await tx.organization.findUnique({ where: { id: organizationId } });
      if (!org) throw Errors.notFound('Organization');
      const settings = await this.globalSettings(tx);
      const orgSettings = await tx.invoiceSettings.findUnique({ where: { organization_id: organizationId } });
      const currency = input.currency ?? orgSettings?.default_currency ?? settings.default_currency;
      const terms = orgSettings?.default_payment_terms ?? settings.default_payment_terms;

      let lines: { description: string; quantity: number; unit_price: string; total_amount: string }[];
      let subtotal: number;
      let taxRate: number;
      if (input.line_items) {
        lines = input.line_items.map((l) => {
          const total = Math.round((cents(l.quantity) * cents(l.unit_price)) / 100);
          return { description: l.description, quantity: l.quantity, unit_price: l.unit_price.toFixed(2), total_amount: fromCents(total) };
        });
        subtotal = lines.reduce((s, l) => s + cents(Number(l.total_amount)), 0);
        taxRate = Number(settings.default_tax_rate.toFixed(2));
      } else {
        const amount = cents(input.amount!);
        lines = [{ description: input.description || 'Services', quantity: 1, unit_price: fromCents(amount), total_amount: fromCents(amount) }];
        subtotal = amount;
        taxRate = 0;
      }
      const tax = Math.round((subtotal * taxRate) / 100);
      // numeric(14,2) holds at most 999,999,999,999.99.
      if (subtotal + tax > 99_999_999_999_999) throw Errors.badRequest('amount', 'is too large');

      const [{ n }] = await tx.$queryRaw<{ n: bigint }[]>`SELECT nextval('invoice_number_seq') AS n`;
      const invoiceNumber = `${settings.invoice_prefix}-${String(n).padStart(6, '0')}`;
      const due = input.due_date
        ? new Date(`${input.due_date}T00:00:00.000Z`)
        : new Date(this.today().getTime() + terms * DAY_MS);
      const status = input.status ?? 'pending';
      const row = await tx.invoice.create({
        data: {
          organization_id: organizationId,
          invoice_number: invoiceNumber,
          customer_name: input.customer_name ?? org.name ?? org.id,
          customer_email: input.customer_email ?? null,
          customer_phone: input.customer_phone ?? null,
          description: input.description ?? null,
          line_items: lines,
          subtotal: fromCents(subtotal),
          tax_rate: taxRate.toFixed(2),
          tax_amount: fromCents(tax),
          amount: fromCents(subtotal + tax),
          currency,
          status,
          due_date: due,
          paid_at: status === 'paid' ? new Date() : null,
          created_by: actor.username,
        },
        include: withOrg,
      });
      await this.audit.record(
        {
          organizationId,
          actor,
          action: 'invoice.created',
          entityType: 'invoice',
          entityId: row.id,
          description: `Invoice ${invoiceNumber} for ${fromCents(subtotal + tax)} ${currency} created by ${actor.username}`,
        },
        tx,
      );
      return InvoicesMapper.invoice(row, this.today());
    });
  }

  async updateStatus(actor: AuthUser, scope: InvoiceScope, id: string, status: InvoiceStatus): Promise<Invoice> {
    return this.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM invoices WHERE id = ${id}::uuid FOR UPDATE`;
      if (!rows.length) throw Errors.notFound('Invoice');
      const current = await tx.invoice.findUniqueOrThrow({ where: { id } });
      if (scope !== 'all' && current.organization_id !== scope.orgId) throw Errors.notFound('Invoice');
      const row = await tx.invoice.update({
        where: { id },
        data: {
          status,
          // Paid keeps its first paid_at; leaving paid clears it.
          paid_at: status === 'paid' ? (current.paid_at ?? new Date()) : null,
        },
        include: withOrg,
      });
      await this.audit.record(
        {
          organizationId: row.organization_id,
          actor,
          action: 'invoice.status_changed',
          entityType: 'invoice',
          entityId: id,
          description: `Invoice ${row.invoice_number} marked ${status} by ${actor.username}`,
          metadata: { from: current.status, to: status },
        },
        tx,
      );
      return InvoicesMapper.invoice(row, this.today());
    });
  }

  async remove(actor: AuthUser, scope: InvoiceScope, id: string): Promise<{ message: string }> {
    return this.db.$transaction(async (tx) => {
      const row = await tx.invoice.findFirst({ where: { id, ...(scope === 'all' ? {} : { organization_id: scope.orgId }) } });
      if (!row) throw Errors.notFound('Invoice');
      await tx.invoice.delete({ where: { id } });
      await this.audit.record(
        {
          organizationId: row.organization_id,
          actor,
          action: 'invoice.deleted',
          entityType: 'invoice',
          entityId: id,
          description: `Invoice ${row.invoice_number} deleted by ${actor.username}`,
        },
        tx,
      );
      return { message: 'Invoice deleted successfully' };
    });
  }

  /** The organization reports having paid; the status stays until a super admin confirms it. */
  async submitPayment(actor: AuthUser, orgId: string, input: SubmitPaymentInput): Promise<Invoice> {
    return this.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM invoices WHERE id = ${input.payment_id}::uuid AND organization_id = ${orgId} FOR UPDATE`;
      if (!rows.length) throw Errors.notFound('Invoice');
      const current = await tx.invoice.findUniqueOrThrow({ where: { id: input.payment_id } });
      if (current.status === 'paid' || current.status === 'cancelled') {
        throw Errors.conflict(`Invoice ${current.invoice_number} is ${current.status}; no payment can be submitted for it`);
      }
      const row = await tx.invoice.update({
        where: { id: input.payment_id },
        data: { payment_tx_hash: input.tx_hash, payment_submitted_at: new Date() },
        include: withOrg,
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'invoice.payment_submitted',
          entityType: 'invoice',
          entityId: row.id,
          description: `Payment submitted for invoice ${row.invoice_number} by ${actor.username} (reference ${input.tx_hash})`,
        },
        tx,
      );
      return InvoicesMapper.invoice(row, this.today());
    });
  }

  // ------------------------------------------------------------ settings

  /** The platform-wide row (organization_id null), created with the defaults on first use. */
  async globalSettings(tx: Prisma.TransactionClient = this.db) {
    const found = await tx.invoiceSettings.findFirst({ where: { organization_id: null }, orderBy: { id: 'asc' } });
    if (found) return found;
    const create = async (t: Prisma.TransactionClient) => {
      // NULL never collides in a unique index: a lock keeps two first reads from creating two rows.
      await t.$executeRaw`SELECT pg_advisory_xact_lock(${SETTINGS_LOCK}::int)`;
      const again = await t.invoiceSettings.findFirst({ where: { organization_id: null }, orderBy: { id: 'asc' } });
      return again ?? t.invoiceSettings.create({ data: { organization_id: null } });
    };
    return tx === this.db ? this.db.$transaction(create) : create(tx);
  }

  async getSettings(): Promise<InvoiceSettings> {
    return InvoicesMapper.settings(await this.globalSettings());
  }

  async updateSettings(actor: AuthUser, input: InvoiceSettingsUpdate): Promise<InvoiceSettings> {
    const current = await this.globalSettings();
    const row = await this.db.invoiceSettings.update({
      where: { id: current.id },
      data: {
        ...(input.default_tax_rate !== undefined ? { default_tax_rate: input.default_tax_rate.toFixed(2) } : {}),
        ...(input.default_currency ? { default_currency: input.default_currency } : {}),
        ...(input.invoice_prefix ? { invoice_prefix: input.invoice_prefix } : {}),
        ...(input.template_html !== undefined ? { template_html: input.template_html || null } : {}),
        ...(input.default_payment_terms !== undefined ? { default_payment_terms: input.default_payment_terms } : {}),
        ...(input.issuer_name !== undefined ? { issuer_name: input.issuer_name || null } : {}),
        ...(input.issuer_details !== undefined ? { issuer_details: input.issuer_details || null } : {}),
      },
    });
    await this.audit.record({
      organizationId: actor.organization_id,
      actor,
      action: 'invoice_settings.updated',
      entityType: 'invoice_settings',
      entityId: row.id,
      description: `Global invoice settings updated by ${actor.username}`,
      metadata: { fields: Object.keys(input) },
    });
    return InvoicesMapper.settings(row);
  }

  async getOrgSettings(orgId: string): Promise<OrgInvoiceSettings> {
    const [row, global] = await Promise.all([
      this.db.invoiceSettings.findUnique({ where: { organization_id: orgId } }),
      this.globalSettings(),
    ]);
    return InvoicesMapper.orgSettings(orgId, row, global);
  }

  async updateOrgSettings(actor: AuthUser, orgId: string, input: OrgInvoiceSettingsUpdate): Promise<OrgInvoiceSettings> {
    const global = await this.globalSettings();
    const data = {
      ...(input.default_currency ? { default_currency: input.default_currency } : {}),
      ...(input.default_payment_terms !== undefined ? { default_payment_terms: input.default_payment_terms } : {}),
      ...(input.billing_name !== undefined ? { issuer_name: input.billing_name || null } : {}),
      ...(input.billing_details !== undefined ? { issuer_details: input.billing_details || null } : {}),
    };
    const row = await this.db.invoiceSettings.upsert({
      where: { organization_id: orgId },
      create: {
        organization_id: orgId,
        default_currency: global.default_currency,
        default_payment_terms: global.default_payment_terms,
        invoice_prefix: global.invoice_prefix,
        ...data,
      },
      update: data,
    });
    await this.audit.record({
      organizationId: orgId,
      actor,
      action: 'invoice_settings.updated',
      entityType: 'invoice_settings',
      entityId: row.id,
      description: `Billing preferences updated by ${actor.username}`,
    });
    return InvoicesMapper.orgSettings(orgId, row, global);
  }
}
