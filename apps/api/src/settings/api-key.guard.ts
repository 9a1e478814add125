import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../common/http.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { sha256 } from '../common/crypto.js';
import { API_KEY_AUTH } from '../common/tenancy.js';
import { serviceBlocked } from '../auth/guards.js';
import { Prisma } from '../generated/prisma/client.js';
import type { OrgStatus } from '@kidogo/contracts';

export const API_KEY_HEADER = 'x-api-key';

/**
 * Global guard for @ApiKeyAuth() routes (the JWT guards skip them): the
 * organization is the one whose key's sha256 is in X-API-Key, and nothing
 * else. No key or a wrong key is a 401 before any handler runs, so nothing is
 * stored; a suspended or disabled organization gets the usual 403.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: DatabaseService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (!this.reflector.getAllAndOverride<boolean>(API_KEY_AUTH, [ctx.getHandler(), ctx.getClass()])) return true;
    const req = ctx.switchToHttp().getRequest<HttpRequest & { apiKeyOrg?: string }>();
    const raw = req.headers[API_KEY_HEADER];
    const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!key) throw Errors.unauthorized('Missing API key (header X-API-Key)');
    if (key.length > 200) throw Errors.unauthorized('Invalid API key');
    // Raw: this lookup runs on every gateway request (see DatabaseService.query).
    const [org] = await this.database.prepared<{ id: string; status: OrgStatus; disabled_reason: string | null; status_changed_at: Date | null }>(
      Prisma.sql`SELECT organization_id AS id, status::text AS status, disabled_reason, status_changed_at
                 FROM organizations WHERE api_key_hash = ${sha256(key)}`,
    );
    if (!org) throw Errors.unauthorized('Invalid API key');
    if (org.status !== 'active') {
      throw serviceBlocked({ org_status: org.status, org_disabled_reason: org.disabled_reason, org_status_changed_at: org.status_changed_at });
    }
    req.apiKeyOrg = org.id;
    return true;
  }
}
