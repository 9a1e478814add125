import { Injectable } from '@nestjs/common';
import type {
  CreateOrganizationInput,
  OrganizationActivity,
  OrganizationCounts,
  OrganizationDetail,
  OrganizationList,
  OrganizationListQuery,
  OrganizationStats,
  OrganizationStatusUpdate,
  UpdateOrganizationInput,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { likePattern, offsetPagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { UsersMapper, USER_SELECT } from '../users/users.mapper.js';
import { OrganizationsMapper, type OrganizationRow } from './organizations.mapper.js';

const ORG_COLUMNS = Prisma.sql`
  o.organization_id, o.external_key, o.name, o.app::text AS app, o.status::text AS status, o.disabled_reason, o.phone_country_code,
  o.status_changed_at, o.created_at,
  (SELECT count(*)::int FROM users u WHERE u.organization_id = o.organization_id) AS user_count,
  greatest(o.last_activity_at,
           (SELECT max(a.created_at) FROM audit_logs a WHERE a.organization_id = o.organization_id),
           (SELECT max(u.last_login_at) FROM users u WHERE u.organization_id = o.organization_id)) AS last_activity`;

const STATUS_WORD = { active: 'activated', suspended: 'suspended', disabled: 'disabled' } as const;

/** Tables of an organization, children first: the order a forced delete empties them in. */
const OWNED_TABLES = [
  'user_notifications',
  'token_logs',
  'messages',
  'payments',
  'item_assignments',
  'template_assignments',
  'repossessions',
  'device_discounts',
  'device_swaps',
  'product_warranties',
  'sms_campaigns',
  'cash_handovers',
  'commission_payouts',
  'ussd_sessions',
  'service_tickets',
  'customer_documents',
  'stock_movements',
  'customer_portal_links',
  'items',
  'stock_locations',
  'payment_templates',
  'customers',
  'invoices',
  'import_jobs',
  'config_entries',
  'product_oem_configs',
  'notifications',
  'payment_providers',
  'oem_credentials',
  'feature_flags',
  'org_plans',
  'invoice_settings',
  'audit_logs',
  'users',
] as const;

function plural(n: number, word: string): string {
  const irregular: Record<string, string> = { entry: 'entries' };
  return `${n} ${n === 1 ? word : (irregular[word] ?? `${word}s`)}`;
}

/** The super admin's view of organizations: list, create, status, delete, activity. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  private get db() {
    return this.database.platform;
  }

  async list(query: OrganizationListQuery): Promise<OrganizationList> {
    const conds: Prisma.Sql[] = [Prisma.sql`TRUE`];
    if (query.status) conds.push(Prisma.sql`o.status = ${query.status}::"OrgStatus"`);
    if (query.search) {
      const p = likePattern(query.search);
      conds.push(Prisma.sql`(o.organization_id ILIKE ${p} OR o.name ILIKE ${p} OR o.external_key ILIKE ${p})`);
    }
    const where = Prisma.join(conds, ' AND ');
    const [rows, [{ total }]] = await Promise.all([
      this.db.$queryRaw<OrganizationRow[]>`
        SELECT ${ORG_COLUMNS} FROM organizations o WHERE ${where}
        ORDER BY o.created_at DESC, o.organization_id
        LIMIT ${query.limit}::int OFFSET ${query.offset}::int`,
      this.db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM organizations o WHERE ${where}`,
    ]);
    return { data: rows.map(OrganizationsMapper.organization), pagination: offsetPagination(total, query.limit, query.offset) };
  }

  private async row(id: string): Promise<OrganizationRow> {
    const [row] = await this.db.$queryRaw<OrganizationRow[]>`SELECT ${ORG_COLUMNS} FROM organizations o WHERE o.organization_id = ${id}`;
    if (!row) throw Errors.notFound('Organization');
    return row;
  }

  async findOne(id: string): Promise<OrganizationDetail> {
    const row = await this.row(id);
    const [counts, users, plan] = await Promise.all([
      this.count(this.db, id),
      this.db.user.findMany({ where: { organization_id: id }, select: USER_SELECT, orderBy: [{ role: 'asc' }, { username: 'asc' }], take: 500 }),
      this.db.orgPlan.findUnique({ where: { organization_id: id } }),
    ]);
    return {
      ...OrganizationsMapper.organization(row),
      counts,
      users: users.map((u) => {
        const { organization_id: _o, ...rest } = UsersMapper.user(u);
        return rest;
      }),
      plan_code: plan?.plan_code ?? null,
    };
  }

  async create(actor: AuthUser, input: CreateOrganizationInput) {
    const exists = await this.db.organization.findUnique({ where: { id: input.organization_id }, select: { id: true } });
    if (exists) throw Errors.conflict(`Organization ${input.organization_id} already exists`);
    if (input.external_key) {
      const keyUsed = await this.db.organization.findUnique({ where: { external_key: input.external_key }, select: { id: true } });
      if (keyUsed) throw Errors.conflict(`The external key ${input.external_key} is already used by another organization`);
    }
    await this.db.$transaction(async (tx) => {
      await tx.organization.create({
        data: { id: input.organization_id, external_key: input.external_key, app: input.app, name: input.name, phone_country_code: input.phone_country_code },
      });
      await this.audit.record(
        {
          organizationId: input.organization_id,
          actor,
          action: 'organization.created',
          entityType: 'organization',
          entityId: input.organization_id,
          description: `Organization ${input.organization_id} created by ${actor.username}`,
        },
        tx,
      );
    });
    return OrganizationsMapper.organization(await this.row(input.organization_id));
  }

  async update(actor: AuthUser, id: string, input: UpdateOrganizationInput) {
    await this.row(id);
    if (input.external_key) {
      const keyUsed = await this.db.organization.findUnique({ where: { external_key: input.external_key }, select: { id: true } });
      if (keyUsed && keyUsed.id !== id) throw Errors.conflict(`The external key ${input.external_key} is already used by another organization`);
    }
    await this.db.$transaction(async (tx) => {
      await tx.organization.update({
        where: { id },
        data: {
          ...(input.external_key !== undefined ? { external_key: input.external_key } : {}),
          ...(input.app ? { app: input.app } : {}),
          ...(input.name !== undefined ? { name: input.name } : {}),
        },
      });
      await this.audit.record(
        {
          organizationId: id,
          actor,
          action: 'organization.updated',
          entityType: 'organization',
          entityId: id,
          description: `Organization ${id} updated by ${actor.username}`,
          metadata: { fields: Object.keys(input) },
        },
        tx,
      );
    });
    return OrganizationsMapper.organization(await this.row(id));
  }

  private async count(tx: Prisma.TransactionClient, id: string): Promise<OrganizationCounts> {
    const [c] = await tx.$queryRaw<OrganizationCounts[]>`
      SELECT (SELECT count(*)::int FROM customers WHERE organization_id = ${id}) AS customers,
             (SELECT count(*)::int FROM items WHERE organization_id = ${id}) AS devices,
             (SELECT count(*)::int FROM payments WHERE organization_id = ${id}) AS payments,
             (SELECT count(*)::int FROM users WHERE organization_id = ${id}) AS users,
             (SELECT count(*)::int FROM token_logs WHERE organization_id = ${id}) AS tokens,
             (SELECT count(*)::int FROM messages WHERE organization_id = ${id}) AS messages,
             (SELECT count(*)::int FROM invoices WHERE organization_id = ${id}) AS invoices`;
    return c;
  }

  /**
   * Refused while the organization holds customers, devices, payments or
   * users, unless forced; a forced delete removes everything of it in one
   * transaction. The super admin's own organization is never deleted.
   */
  async remove(actor: AuthUser, id: string, force: boolean) {
    if (id === actor.organization_id) throw Errors.conflict('You cannot delete your own organization');
    return this.db.$transaction(
      async (tx) => {
        const locked = await tx.$queryRaw<{ organization_id: string }[]>`
          SELECT organization_id FROM organizations WHERE organization_id = ${id} FOR UPDATE`;
        if (!locked.length) throw Errors.notFound('Organization');
        const counts = await this.count(tx, id);
        const held = (
          [
            [counts.customers, 'customer'],
            [counts.devices, 'device'],
            [counts.payments, 'payment'],
            [counts.users, 'user'],
          ] as const
        ).filter(([n]) => n > 0);
        if (held.length && !force) {
          const list = held.map(([n, w]) => plural(n, w));
          const text = list.length > 1 ? `${list.slice(0, -1).join(', ')} and ${list.at(-1)}` : list[0];
          const extra = [
            counts.tokens ? plural(counts.tokens, 'token') : null,
            counts.messages ? plural(counts.messages, 'message') : null,
            counts.invoices ? plural(counts.invoices, 'invoice') : null,
          ].filter(Boolean);
          throw Errors.conflict(
            `Organization ${id} still has ${text}${extra.length ? ` (and ${extra.join(', ')})` : ''}. ` +
              'Deleting it would permanently remove all of them. Repeat with force=true to delete everything.',
          );
        }
        for (const table of OWNED_TABLES) {
          await tx.$executeRawUnsafe(`DELETE FROM "${table}" WHERE organization_id = $1`, id);
        }
        await tx.organization.delete({ where: { id } });
        // Kept in the super admin's organization: the deleted one's log is gone with it.
        await this.audit.record(
          {
            organizationId: actor.organization_id,
            actor,
            action: 'organization.deleted',
            entityType: 'organization',
            entityId: id,
            description: `Organization ${id} deleted by ${actor.username}${force ? ' (forced)' : ''}`,
            metadata: { ...counts, force },
          },
          tx,
        );
        return { message: 'Organization deleted successfully', deleted: counts };
      },
      { timeout: 600_000, maxWait: 10_000 },
    );
  }

  async summarize(): Promise<OrganizationStats> {
    const [row] = await this.db.$queryRaw<OrganizationStats[]>`
      SELECT count(*)::int AS total_organizations,
             count(*) FILTER (WHERE status = 'active')::int AS active_organizations,
             count(*) FILTER (WHERE status = 'suspended')::int AS suspended_organizations,
             count(*) FILTER (WHERE status = 'disabled')::int AS disabled_organizations,
             (SELECT count(*)::int FROM users) AS total_users
      FROM organizations`;
    return row;
  }

  async listActivity(id: string, limit: number): Promise<OrganizationActivity> {
    await this.row(id);
    const rows = await this.db.auditLog.findMany({
      where: { organization_id: id },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return {
      data: rows.map((r) => ({ id: r.id, description: r.description, timestamp: r.created_at.toISOString(), action: r.action, actor: r.actor_username })),
    };
  }

  async getStatus(id: string) {
    const org = await this.db.organization.findUnique({ where: { id } });
    if (!org) throw Errors.notFound('Organization');
    return OrganizationsMapper.status(org);
  }

  /** The guard reads the organization on every request, so the new status applies to its very next call. */
  async changeStatus(actor: AuthUser, id: string, input: OrganizationStatusUpdate) {
    if (id === actor.organization_id && input.status !== 'active') {
      throw Errors.conflict('You cannot suspend or disable your own organization');
    }
    return this.db.$transaction(async (tx) => {
      const current = await tx.organization.findUnique({ where: { id } });
      if (!current) throw Errors.notFound('Organization');
      const org = await tx.organization.update({
        where: { id },
        data: { status: input.status, disabled_reason: input.status === 'active' ? null : input.reason, status_changed_at: new Date() },
      });
      await this.audit.record(
        {
          organizationId: id,
          actor,
          action: 'organization.status_changed',
          entityType: 'organization',
          entityId: id,
          description:
            `Organization ${STATUS_WORD[input.status]} by ${actor.username}` + (input.reason ? `: ${input.reason}` : ''),
          metadata: { from: current.status, to: input.status, reason: input.reason },
        },
        tx,
      );
      return { ...OrganizationsMapper.status(org), message: `Organization ${STATUS_WORD[input.status]} successfully` };
    });
  }
}
