import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessTokenClaims } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Errors } from '../common/errors.js';
import { DatabaseService } from '../database/database.service.js';
import type { AuthUser } from '../common/tenancy.js';
import { apiTokenQuery, sessionQuery, type SessionRow } from './session.js';
import { sha256 } from '../common/crypto.js';
import { Prisma } from '../generated/prisma/client.js';

const decode = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** A session id (`sid`) as the API mints them. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a token was issued before a manager last reset the user's password,
 * or before the user was signed out everywhere (to the second, as `iat`
 * counts): such a token may be in the hands the reset is meant to shut out.
 * (A token of an ended session is refused by its session anyway.)
 */
function issuedBefore(claims: AccessTokenClaims, changed: Date | null): boolean {
  if (!changed) return false;
  const iat = (claims as { iat?: unknown }).iat;
  return typeof iat !== 'number' || iat < Math.floor(changed.getTime() / 1000);
}

/**
 * Verifies the bearer token of every request: HS256 only (the header must
 * say so: no "none", no other algorithm), the signature compared in constant
 * time, then expiry and not-before. A few microseconds with the key made
 * once; passport-jwt with jsonwebtoken spent about 5% of the API's CPU on a
 * list request for the same checks (and rebuilt the key on every request).
 *
 * Then the session lookup (sessionQuery), so a deleted or deactivated user
 * or a signed-out device is out at once and an organization's new status
 * applies to its very next request, on every API process alike.
 */
@Injectable()
export class AccessTokens {
  private readonly key: KeyObject;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly database: DatabaseService,
  ) {
    this.key = createSecretKey(Buffer.from(config.jwtSecret));
  }

  /** The claims of a valid token; 401 'Token has expired' or 'Not authenticated' otherwise. */
  verify(token: string): AccessTokenClaims {
    const parts = token.split('.');
    if (parts.length !== 3) throw Errors.unauthorized('Not authenticated');
    const [head, body, signature] = parts as [string, string, string];
    const expected = Buffer.from(createHmac('sha256', this.key).update(`${head}.${body}`).digest('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw Errors.unauthorized('Not authenticated');
    let header: unknown;
    let claims: unknown;
    try {
      header = decode(head);
      claims = decode(body);
    } catch {
      throw Errors.unauthorized('Not authenticated');
    }
    if ((header as { alg?: unknown } | null)?.alg !== 'HS256') throw Errors.unauthorized('Not authenticated');
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw Errors.unauthorized('Not authenticated');
    const { exp, nbf } = claims as { exp?: unknown; nbf?: unknown };
    const now = Math.floor(Date.now() / 1000);
    if (exp !== undefined && typeof exp !== 'number') throw Errors.unauthorized('Not authenticated');
    if (typeof exp === 'number' && now >= exp) throw Errors.unauthorized('Token has expired');
    if (typeof nbf === 'number' && now < nbf) throw Errors.unauthorized('Not authenticated');
    return claims as AccessTokenClaims;
  }

  /**
   * The user of an API token (kdg_pat_...), read now with the token: by its
   * SHA-256 (the unique index), refused when revoked, expired, of a user
   * deactivated or moved, or made before the user's password was last reset.
   * Its last use is written at most once a minute.
   */
  async loadApiToken(token: string): Promise<AuthUser> {
    const [row] = await this.database.prepared<SessionRow & { token_id: number; read_only: boolean; token_org: string; expires_at: Date | null; revoked_at: Date | null; token_created_at: Date; last_used_at: Date | null }>(
      apiTokenQuery(sha256(token)),
    );
    if (!row || row.revoked_at) throw Errors.unauthorized('Invalid API token');
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw Errors.unauthorized('This API token has expired');
    const reset = row.password_changed_at && row.password_changed_at.getTime() > row.token_created_at.getTime();
    if (!row.is_active || row.organization_id !== row.token_org || reset) throw Errors.unauthorized('This API token is no longer valid');
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
      void this.database
        .execute(Prisma.sql`UPDATE api_tokens SET last_used_at = now() WHERE token_id = ${row.token_id}::int`)
        .catch(() => undefined);
    }
    return { ...toAuthUser(row), api_token_id: row.token_id, api_token_read_only: row.read_only };
  }

  /** The user and organization of verified claims, read now. */
  async load(claims: AccessTokenClaims): Promise<AuthUser> {
    const id = Number(claims?.user_id ?? claims?.sub);
    if (!Number.isInteger(id) || id <= 0) throw Errors.unauthorized('Invalid token');
    const sid = claims.sid;
    if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) throw Errors.unauthorized('Invalid token');
    const [user] = await this.database.prepared<SessionRow>(sessionQuery(id, sid ?? null));
    if (
      !user ||
      !user.is_active ||
      !user.session_live ||
      user.organization_id !== claims.org_id ||
      issuedBefore(claims, user.password_changed_at) ||
      issuedBefore(claims, user.sessions_revoked_at)
    ) {
      throw Errors.unauthorized('Your session is no longer valid');
    }
    return { ...toAuthUser(user), ...(sid ? { session_id: sid } : {}) };
  }
}

const toAuthUser = (user: SessionRow): AuthUser => ({
  user_id: user.user_id,
  username: user.username,
  email: user.email,
  role: user.role as AuthUser['role'],
  organization_id: user.organization_id,
  app: user.app as AuthUser['app'],
  org_status: user.org_status as AuthUser['org_status'],
  org_disabled_reason: user.org_disabled_reason,
  org_status_changed_at: user.org_status_changed_at,
  ...(user.two_factor_missing ? { two_factor_missing: true } : {}),
});
