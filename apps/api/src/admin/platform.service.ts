import { Injectable } from '@nestjs/common';
import type {
  AdminTokenLogList,
  AdminTokenLogQuery,
  FeatureFlag,
  FeatureFlagInput,
  OemCredential,
  OemCredentialInput,
  OemCredentialUpdate,
  OrgPlan,
  OrgPlanInput,
  PaymentProvider,
  PaymentProviderInput,
  PaymentProviderUpdate,
  Plan,
  PlanInput,
  PlanUpdate,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { SecretBox } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { periodSql, toPeriod } from '../metrics/period.js';
import { tokensByDay } from '../stats/totals.js';
import { Calendar } from '../common/calendar.js';
import type { TokenLogRow } from '../tokens/tokens.mapper.js';
import { maskObject, mergeMasked, openObject, sealObject } from './secret-config.js';

const FLAG_LOCK = 7_202_614;

type Dec = { toFixed(n: number): string };

/**
 * Platform-wide configuration the super admin keeps: token logs of every
 * organization, payment providers, OEM credentials, plans and feature flags.
 * Cross-organization by design, so it reads through DatabaseService.platform.
 */
@Injectable()
export class PlatformService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
  ) {}

  private get db() {
    return this.database.platform;
  }

  private async assertOrg(id: string, tx: Prisma.TransactionClient = this.db) {
    const org = await tx.organization.findUnique({ where: { id }, select: { id: true } });
    if (!org) throw Errors.notFound('Organization');
  }

  // ---------------------------------------------------------- token logs

  /**
   * Every organization's tokens, newest first. There is no index of all
   * tokens by time (each organization's own one serves its lists), so the
   * page merges the newest offset + limit of each organization, and the
   * total adds up each one's daily totals (token_stats; rows only for part
   * days), or for failed tokens counts them in their partial index (a
   * successful count is the rest). Sorting and counting 5,000,000 tokens took
   * 1.3 s per page.
   */
  async listTokenLogs(query: AdminTokenLogQuery): Promise<AdminTokenLogList> {
    const period = toPeriod(query.date_from, query.date_to, this.calendar);
    const orgs = query.organization_id
      ? Prisma.sql`SELECT organization_id FROM organizations WHERE organization_id = ${query.organization_id}`
      : Prisma.sql`SELECT organization_id FROM organizations`;
    const time = periodSql(Prisma.sql`created_at`, period);
    const status =
      query.status_filter === 'success' ? Prisma.sql`AND status = 'success'` : query.status_filter === 'error' ? Prisma.sql`AND status <> 'success'` : Prisma.empty;
    const own = Prisma.raw('o.organization_id');
    const [rows, [counts]] = await Promise.all([
      this.database.query<TokenLogRow & { organization_id: string }>(Prisma.sql`
        SELECT t.* FROM (${orgs}) o
        CROSS JOIN LATERAL (
          SELECT token_log_id AS id, organization_id, serial_number, token_value, token_type::text AS token_type, days_generated,
                 status, customer_name, generated_by, created_at
          FROM token_logs WHERE organization_id = o.organization_id ${time} ${status}
          ORDER BY created_at DESC, token_log_id DESC LIMIT ${query.offset + query.limit}::int
        ) t
        ORDER BY t.created_at DESC, t.id DESC LIMIT ${query.limit}::int OFFSET ${query.offset}::int`),
      // Failed tokens are counted only when the status filter needs them.
      this.database.query<{ tokens: number; failed: number }>(Prisma.sql`
        SELECT coalesce(sum(a.n), 0)::int AS tokens, coalesce(sum(f.n), 0)::int AS failed FROM (${orgs}) o
        CROSS JOIN LATERAL (SELECT sum(n) AS n FROM ${tokensByDay(own, period, this.calendar)} s) a
        CROSS JOIN LATERAL (
          SELECT count(*) AS n FROM token_logs
          WHERE ${query.status_filter ? Prisma.sql`true` : Prisma.sql`false`} AND organization_id = o.organization_id AND status <> 'success' ${time}
        ) f`),
    ]);
    const total = query.status_filter === 'success' ? counts!.tokens - counts!.failed : query.status_filter === 'error' ? counts!.failed : counts!.tokens;
    return {
      data: {
        items: rows.map((r) => ({
          id: r.id,
          organization_id: r.organization_id,
          serial_number: r.serial_number,
          generated_token: r.token_value,
          token_type: r.token_type as AdminTokenLogList['data']['items'][number]['token_type'],
          days_generated: Number(Number(r.days_generated.toString()).toFixed(2)),
          status: r.status === 'success' ? 'success' : 'error',
          customer_name: r.customer_name,
          generated_by: r.generated_by,
          created_at: r.created_at.toISOString(),
        })),
        total,
      },
    };
  }

  // -------------------------------------------------- payment providers

  private provider(r: { id: number; provider: string; organization_id: string; config_enc: string; is_active: boolean; created_at: Date; updated_at: Date }): PaymentProvider {
    return {
      id: r.id,
      provider: r.provider,
      organization_id: r.organization_id,
      config: maskObject(openObject(this.box, r.config_enc)),
      is_active: r.is_active,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  }

  async listProviders(orgId?: string) {
    const rows = await this.db.paymentProvider.findMany({ where: orgId ? { organization_id: orgId } : {}, orderBy: [{ organization_id: 'asc' }, { provider: 'asc' }] });
    return { data: rows.map((r) => this.provider(r)) };
  }

  async findProvider(id: number) {
    const row = await this.db.paymentProvider.findUnique({ where: { id } });
    if (!row) throw Errors.notFound('Payment provider');
    return this.provider(row);
  }

  async createProvider(actor: AuthUser, input: PaymentProviderInput) {
    await this.assertOrg(input.organization_id);
    const clash = await this.db.paymentProvider.findUnique({
      where: { organization_id_provider: { organization_id: input.organization_id, provider: input.provider } },
    });
    if (clash) throw Errors.conflict(`Organization ${input.organization_id} already has a ${input.provider} provider; update it instead`);
    const row = await this.db.paymentProvider.create({
      data: { organization_id: input.organization_id, provider: input.provider, config_enc: sealObject(this.box, input.config), is_active: input.is_active },
    });
    await this.record(actor, input.organization_id, 'payment_provider.created', 'payment_provider', row.id, `Payment provider ${input.provider} added by ${actor.username}`);
    return this.provider(row);
  }

  async updateProvider(actor: AuthUser, id: number, input: PaymentProviderUpdate) {
    const current = await this.db.paymentProvider.findUnique({ where: { id } });
    if (!current) throw Errors.notFound('Payment provider');
    const row = await this.db.paymentProvider.update({
      where: { id },
      data: {
        ...(input.provider ? { provider: input.provider } : {}),
        ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
        ...(input.config ? { config_enc: sealObject(this.box, mergeMasked(openObject(this.box, current.config_enc), input.config)) } : {}),
      },
    });
    await this.record(actor, row.organization_id, 'payment_provider.updated', 'payment_provider', id, `Payment provider ${row.provider} updated by ${actor.username}`);
    return this.provider(row);
  }

  async removeProvider(actor: AuthUser, id: number) {
    const row = await this.db.paymentProvider.findUnique({ where: { id } });
    if (!row) throw Errors.notFound('Payment provider');
    await this.db.paymentProvider.delete({ where: { id } });
    await this.record(actor, row.organization_id, 'payment_provider.deleted', 'payment_provider', id, `Payment provider ${row.provider} deleted by ${actor.username}`);
    return { message: 'Payment provider deleted' };
  }

  // ---------------------------------------------------- OEM credentials

  oemCredential(r: { id: number; oem_name: string; organization_id: string; credentials_enc: string; created_at: Date; updated_at: Date }): OemCredential {
    return {
      id: r.id,
      oem_name: r.oem_name,
      organization_id: r.organization_id,
      credentials: maskObject(openObject(this.box, r.credentials_enc)),
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  }

  async listOemCredentials(orgId?: string) {
    const rows = await this.db.oemCredential.findMany({ where: orgId ? { organization_id: orgId } : {}, orderBy: [{ organization_id: 'asc' }, { oem_name: 'asc' }] });
    return { data: rows.map((r) => this.oemCredential(r)) };
  }

  async findOemCredential(id: number) {
    const row = await this.db.oemCredential.findUnique({ where: { id } });
    if (!row) throw Errors.notFound('OEM credentials');
    return this.oemCredential(row);
  }

  async createOemCredential(actor: AuthUser, input: OemCredentialInput) {
    await this.assertOrg(input.organization_id);
    const clash = await this.db.oemCredential.findUnique({
      where: { organization_id_oem_name: { organization_id: input.organization_id, oem_name: input.oem_name } },
    });
    if (clash) throw Errors.conflict(`Organization ${input.organization_id} already has credentials for ${input.oem_name}; update them instead`);
    const row = await this.db.oemCredential.create({
      data: { organization_id: input.organization_id, oem_name: input.oem_name, credentials_enc: sealObject(this.box, input.credentials) },
    });
    await this.record(actor, input.organization_id, 'oem_credentials.created', 'oem_credentials', row.id, `${input.oem_name} credentials added by ${actor.username}`);
    return this.oemCredential(row);
  }

  /** Creates or replaces an organization's credentials for one OEM (POST /config/credentials/upsert). */
  async upsertOemCredential(actor: AuthUser, input: OemCredentialInput) {
    await this.assertOrg(input.organization_id);
    const key = { organization_id_oem_name: { organization_id: input.organization_id, oem_name: input.oem_name } };
    const current = await this.db.oemCredential.findUnique({ where: key });
    const merged = current ? mergeMasked(openObject(this.box, current.credentials_enc), input.credentials) : input.credentials;
    const row = await this.db.oemCredential.upsert({
      where: key,
      create: { organization_id: input.organization_id, oem_name: input.oem_name, credentials_enc: sealObject(this.box, merged) },
      update: { credentials_enc: sealObject(this.box, merged) },
    });
    await this.record(actor, input.organization_id, 'oem_credentials.saved', 'oem_credentials', row.id, `${input.oem_name} credentials saved by ${actor.username}`);
    return this.oemCredential(row);
  }

  async updateOemCredential(actor: AuthUser, id: number, input: OemCredentialUpdate) {
    const current = await this.db.oemCredential.findUnique({ where: { id } });
    if (!current) throw Errors.notFound('OEM credentials');
    const row = await this.db.oemCredential.update({
      where: { id },
      data: {
        ...(input.oem_name ? { oem_name: input.oem_name } : {}),
        ...(input.credentials
          ? { credentials_enc: sealObject(this.box, mergeMasked(openObject(this.box, current.credentials_enc), input.credentials)) }
          : {}),
      },
    });
    await this.record(actor, row.organization_id, 'oem_credentials.updated', 'oem_credentials', id, `${row.oem_name} credentials updated by ${actor.username}`);
    return this.oemCredential(row);
  }

  async removeOemCredential(actor: AuthUser, id: number) {
    const row = await this.db.oemCredential.findUnique({ where: { id } });
    if (!row) throw Errors.notFound('OEM credentials');
    await this.db.oemCredential.delete({ where: { id } });
    await this.record(actor, row.organization_id, 'oem_credentials.deleted', 'oem_credentials', id, `${row.oem_name} credentials deleted by ${actor.username}`);
    return { message: 'OEM credentials deleted' };
  }

  // ------------------------------------------------------------ plans

  private plan(p: {
    plan_code: string;
    name: string | null;
    description: string | null;
    price: Dec | null;
    currency: string;
    features: unknown;
    quotas: unknown;
    created_at: Date;
    updated_at: Date;
    _count?: { org_plans: number };
  }): Plan {
    return {
      plan_code: p.plan_code,
      name: p.name,
      description: p.description,
      price: p.price ? p.price.toFixed(2) : null,
      currency: p.currency,
      features: Array.isArray(p.features) ? p.features.map(String) : [],
      quotas: p.quotas && typeof p.quotas === 'object' && !Array.isArray(p.quotas) ? (p.quotas as Record<string, number>) : {},
      organization_count: p._count?.org_plans ?? 0,
      created_at: p.created_at.toISOString(),
      updated_at: p.updated_at.toISOString(),
    };
  }

  private readonly planInclude = { _count: { select: { org_plans: true } } } as const;

  async listPlans() {
    const rows = await this.db.plan.findMany({ include: this.planInclude, orderBy: { plan_code: 'asc' } });
    return { data: rows.map((r) => this.plan(r)) };
  }

  async findPlan(code: string) {
    const row = await this.db.plan.findUnique({ where: { plan_code: code }, include: this.planInclude });
    if (!row) throw Errors.notFound('Plan');
    return this.plan(row);
  }

  async createPlan(actor: AuthUser, input: PlanInput) {
    const clash = await this.db.plan.findUnique({ where: { plan_code: input.plan_code } });
    if (clash) throw Errors.conflict(`Plan ${input.plan_code} already exists`);
    const row = await this.db.plan.create({
      data: {
        plan_code: input.plan_code,
        name: input.name ?? null,
        description: input.description ?? null,
        price: input.price == null ? null : input.price.toFixed(2),
        currency: input.currency,
        features: input.features,
        quotas: input.quotas,
      },
      include: this.planInclude,
    });
    await this.record(actor, actor.organization_id, 'plan.created', 'plan', input.plan_code, `Plan ${input.plan_code} created by ${actor.username}`);
    return this.plan(row);
  }

  async updatePlan(actor: AuthUser, code: string, input: PlanUpdate) {
    await this.findPlan(code);
    const row = await this.db.plan.update({
      where: { plan_code: code },
      data: {
        ...(input.name !== undefined ? { name: input.name ?? null } : {}),
        ...(input.description !== undefined ? { description: input.description ?? null } : {}),
        ...(input.price !== undefined ? { price: input.price == null ? null : input.price.toFixed(2) } : {}),
        ...(input.currency ? { currency: input.currency } : {}),
        ...(input.features ? { features: input.features } : {}),
        ...(input.quotas ? { quotas: input.quotas } : {}),
      },
      include: this.planInclude,
    });
    await this.record(actor, actor.organization_id, 'plan.updated', 'plan', code, `Plan ${code} updated by ${actor.username}`);
    return this.plan(row);
  }

  async removePlan(actor: AuthUser, code: string) {
    const plan = await this.findPlan(code);
    if (plan.organization_count > 0) {
      throw Errors.conflict(`Plan ${code} is assigned to ${plan.organization_count} organization${plan.organization_count === 1 ? '' : 's'}; move them to another plan first`);
    }
    await this.db.plan.delete({ where: { plan_code: code } });
    await this.record(actor, actor.organization_id, 'plan.deleted', 'plan', code, `Plan ${code} deleted by ${actor.username}`);
    return { message: `Plan ${code} deleted` };
  }

  // --------------------------------------------------------- org plans

  private orgPlan(r: { organization_id: string; plan_code: string; assigned_at: Date; plan: { name: string | null } }): OrgPlan {
    return { organization_id: r.organization_id, plan_code: r.plan_code, plan_name: r.plan.name, assigned_at: r.assigned_at.toISOString() };
  }

  async listOrgPlans(orgId?: string) {
    const rows = await this.db.orgPlan.findMany({
      where: orgId ? { organization_id: orgId } : {},
      include: { plan: { select: { name: true } } },
      orderBy: { organization_id: 'asc' },
    });
    return { data: rows.map((r) => this.orgPlan(r)) };
  }

  async assignPlan(actor: AuthUser, input: OrgPlanInput) {
    await this.assertOrg(input.organization_id);
    const plan = await this.db.plan.findUnique({ where: { plan_code: input.plan_code } });
    if (!plan) throw Errors.notFound('Plan');
    const row = await this.db.orgPlan.upsert({
      where: { organization_id: input.organization_id },
      create: { organization_id: input.organization_id, plan_code: input.plan_code },
      update: { plan_code: input.plan_code, assigned_at: new Date() },
      include: { plan: { select: { name: true } } },
    });
    await this.record(actor, input.organization_id, 'plan.assigned', 'org_plan', input.organization_id, `Plan ${input.plan_code} assigned by ${actor.username}`);
    return this.orgPlan(row);
  }

  async unassignPlan(actor: AuthUser, orgId: string) {
    const row = await this.db.orgPlan.findUnique({ where: { organization_id: orgId } });
    if (!row) throw Errors.notFound('Organization plan');
    await this.db.orgPlan.delete({ where: { organization_id: orgId } });
    await this.record(actor, orgId, 'plan.unassigned', 'org_plan', orgId, `Plan ${row.plan_code} removed by ${actor.username}`);
    return { message: `Organization ${orgId} no longer has a plan` };
  }

  // ---------------------------------------------------------- features

  private flag(f: { id: number; feature_key: string; enabled: boolean; organization_id: string | null; description: string | null; updated_at: Date }): FeatureFlag {
    return { id: f.id, feature_key: f.feature_key, enabled: f.enabled, organization_id: f.organization_id, description: f.description, updated_at: f.updated_at.toISOString() };
  }

  async listFlags(orgId?: string) {
    const rows = await this.db.featureFlag.findMany({
      where: orgId ? { OR: [{ organization_id: orgId }, { organization_id: null }] } : {},
      orderBy: [{ feature_key: 'asc' }, { organization_id: { sort: 'asc', nulls: 'first' } }],
    });
    return { data: rows.map((r) => this.flag(r)) };
  }

  /** NULL organization ids never collide in the unique key, so the global row is found and updated under a lock. */
  async upsertFlag(actor: AuthUser, input: FeatureFlagInput) {
    const row = await this.db.$transaction(async (tx) => {
      if (input.organization_id) await this.assertOrg(input.organization_id, tx);
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FLAG_LOCK}::int)`;
      const current = await tx.featureFlag.findFirst({ where: { feature_key: input.feature_key, organization_id: input.organization_id } });
      const data = { enabled: input.enabled, ...(input.description !== undefined ? { description: input.description ?? null } : {}) };
      return current
        ? tx.featureFlag.update({ where: { id: current.id }, data })
        : tx.featureFlag.create({ data: { feature_key: input.feature_key, organization_id: input.organization_id, ...data } });
    });
    await this.record(
      actor,
      input.organization_id ?? actor.organization_id,
      'feature.updated',
      'feature_flag',
      row.id,
      `Feature ${input.feature_key} ${input.enabled ? 'enabled' : 'disabled'}${input.organization_id ? '' : ' globally'} by ${actor.username}`,
    );
    return this.flag(row);
  }

  async removeFlag(actor: AuthUser, id: number) {
    const row = await this.db.featureFlag.findUnique({ where: { id } });
    if (!row) throw Errors.notFound('Feature flag');
    await this.db.featureFlag.delete({ where: { id } });
    await this.record(actor, row.organization_id ?? actor.organization_id, 'feature.deleted', 'feature_flag', id, `Feature ${row.feature_key} removed by ${actor.username}`);
    return { message: `Feature flag ${row.feature_key} deleted` };
  }

  private record(actor: AuthUser, orgId: string, action: string, entityType: string, entityId: string | number, description: string) {
    return this.audit.record({ organizationId: orgId, actor, action, entityType, entityId, description });
  }
}
