import { Injectable } from '@nestjs/common';
import { API_TOKEN_PREFIX, type ApiToken, type ApiTokenCreated, type ApiTokenListReply, type ZApiTokenCreateSchema } from '@kidogo/contracts';
import type { z } from 'zod';
import { AuditService } from '../audit/audit.service.js';
import { randomToken, sha256 } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { DatabaseService } from '../database/database.service.js';

type CreateInput = z.output<typeof ZApiTokenCreateSchema>;

/** Active tokens a user may hold at once. */
export const MAX_API_TOKENS_PER_USER = 20;

const MANAGERS = new Set(['owner', 'admin', 'super_admin']);

interface Row {
  id: number;
  name: string;
  hint: string;
  user_id: number;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  read_only: boolean;
  user: { username: string };
}

const toApiToken = (r: Row): ApiToken => ({
  id: r.id,
  name: r.name,
  hint: `${API_TOKEN_PREFIX}…${r.hint}`,
  user_id: r.user_id,
  username: r.user.username,
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at?.toISOString() ?? null,
  last_used_at: r.last_used_at?.toISOString() ?? null,
  expired: r.expires_at !== null && r.expires_at.getTime() <= Date.now(),
  read_only: r.read_only,
});

/**
 * API tokens: long-lived bearer credentials for integrations, each acting as
 * the user who made it, with that user's role, until revoked or expired
 * (AccessTokens.loadApiToken checks every request). Only the SHA-256 is
 * kept; the token itself is in the creation reply alone. Owners and admins
 * see and revoke every token of their organization, so one that leaked can be
 * shut off without its user.
 */
@Injectable()
export class ApiTokensService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  async list(user: AuthUser): Promise<ApiTokenListReply> {
    const rows = await this.database.db.apiToken.findMany({
      where: { organization_id: user.organization_id, revoked_at: null, ...(MANAGERS.has(user.role) ? {} : { user_id: user.user_id }) },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      include: { user: { select: { username: true } } },
    });
    return { data: rows.map(toApiToken) };
  }

  async create(user: AuthUser, input: CreateInput): Promise<ApiTokenCreated> {
    // A token cannot make more tokens: a leaked one must not be able to outlive its revocation.
    if (user.api_token_id !== undefined) throw Errors.forbidden('An API token cannot create API tokens: sign in to make one');
    const token = `${API_TOKEN_PREFIX}${randomToken(30)}`;
    const expires = input.expires_in_days === null ? null : new Date(Date.now() + input.expires_in_days * 86_400_000);
    const row = await this.database.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT user_id FROM users WHERE user_id = ${user.user_id} FOR UPDATE`;
      const held = await tx.apiToken.count({ where: { organization_id: user.organization_id, user_id: user.user_id, revoked_at: null, OR: [{ expires_at: null }, { expires_at: { gt: new Date() } }] } });
      if (held >= MAX_API_TOKENS_PER_USER) {
        throw Errors.conflict(`You already have ${MAX_API_TOKENS_PER_USER} API tokens: revoke one you no longer use first`);
      }
      const created = await tx.apiToken.create({
        data: {
          user_id: user.user_id,
          organization_id: user.organization_id,
          name: input.name,
          token_hash: sha256(token),
          hint: token.slice(-4),
          expires_at: expires,
          read_only: input.read_only,
        },
        include: { user: { select: { username: true } } },
      });
      await this.audit.record(
        {
          organizationId: user.organization_id,
          actor: user,
          action: 'api_token.created',
          entityType: 'api_token',
          entityId: created.id,
          description: `${input.read_only ? 'Read-only API token' : 'API token'} "${input.name}" created by ${user.username}, ${expires ? `expiring ${expires.toISOString().slice(0, 10)}` : 'not expiring'}`,
          metadata: { name: input.name, expires_at: expires?.toISOString() ?? null, read_only: input.read_only },
        },
        tx,
      );
      return created;
    });
    return { ...toApiToken(row), token };
  }

  async revoke(user: AuthUser, id: number): Promise<{ message: string }> {
    return this.database.db.$transaction(async (tx) => {
      const row = await tx.apiToken.findFirst({
        where: { id, organization_id: user.organization_id, revoked_at: null, ...(MANAGERS.has(user.role) ? {} : { user_id: user.user_id }) },
        include: { user: { select: { username: true } } },
      });
      if (!row) throw Errors.notFound('API token');
      await tx.apiToken.updateMany({ where: { id, organization_id: user.organization_id }, data: { revoked_at: new Date() } });
      await this.audit.record(
        {
          organizationId: user.organization_id,
          actor: user,
          action: 'api_token.revoked',
          entityType: 'api_token',
          entityId: id,
          description: `API token "${row.name}" of ${row.user.username} revoked by ${user.username}`,
          metadata: { name: row.name, user_id: row.user_id },
        },
        tx,
      );
      return { message: `API token "${row.name}" revoked` };
    });
  }
}
