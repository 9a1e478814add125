import { Prisma } from '../generated/prisma/client.js';

/** The row behind every authenticated request: the user and their organization's status, by the token's user id. */
export interface SessionRow {
  user_id: number;
  username: string;
  email: string | null;
  role: string;
  organization_id: string;
  is_active: boolean;
  app: string;
  org_status: string;
  org_disabled_reason: string | null;
  org_status_changed_at: Date | null;
  password_changed_at: Date | null;
  /** The user signed out everywhere (or a manager did it for them) then: access tokens issued before it are refused. Null for API tokens. */
  sessions_revoked_at: Date | null;
  /** The organization requires two-factor sign-in and the user has not set it up. */
  two_factor_missing: boolean;
  /** The access token's session still has a live refresh token (true for a token with no session and for API tokens). */
  session_live: boolean;
}

/**
 * One primary-key lookup joined to the organization (about 0.1 ms in
 * PostgreSQL), and whether the access token's session is still live (one
 * probe of a partial index). Run on every request rather than cached, so a
 * deactivated user, a suspended organization or a signed-out device is out
 * from the very next request on every API process alike.
 */
export const sessionQuery = (userId: number, sessionId: string | null) => Prisma.sql`
  SELECT u.user_id, u.username, u.email, u.role::text AS role, u.organization_id, u.is_active,
         o.app::text AS app, o.status::text AS org_status, o.disabled_reason AS org_disabled_reason,
         o.status_changed_at AS org_status_changed_at, u.password_changed_at, u.sessions_revoked_at,
         (o.require_two_factor AND u.totp_enabled_at IS NULL) AS two_factor_missing,
         (${sessionId}::uuid IS NULL OR EXISTS (
           SELECT 1 FROM refresh_tokens r WHERE r.session_id = ${sessionId}::uuid AND r.revoked_at IS NULL AND r.user_id = u.user_id)) AS session_live
  FROM users u JOIN organizations o ON o.organization_id = u.organization_id
  WHERE u.user_id = ${userId}::int`;

/** An API token's row with its user's session row, by the token's SHA-256 (one unique-index lookup). */
export const apiTokenQuery = (hash: string) => Prisma.sql`
  SELECT u.user_id, u.username, u.email, u.role::text AS role, u.organization_id, u.is_active,
         o.app::text AS app, o.status::text AS org_status, o.disabled_reason AS org_disabled_reason,
         o.status_changed_at AS org_status_changed_at, u.password_changed_at, NULL::timestamptz AS sessions_revoked_at, false AS two_factor_missing, true AS session_live,
         t.token_id, t.read_only, t.organization_id AS token_org, t.expires_at, t.revoked_at, t.created_at AS token_created_at, t.last_used_at
  FROM api_tokens t JOIN users u ON u.user_id = t.user_id JOIN organizations o ON o.organization_id = u.organization_id
  WHERE t.token_hash = ${hash}`;

/**
 * Ends every session of a user: their refresh tokens stop working, and the
 * access tokens of those sessions are refused from the next request.
 * Used when a password changes (by the user or by a manager) and when a user
 * is deactivated or moved.
 */
export function revokeRefreshTokens(db: Pick<Prisma.TransactionClient, 'refreshToken'>, userId: number) {
  return db.refreshToken.updateMany({ where: { user_id: userId, revoked_at: null }, data: { revoked_at: new Date() } });
}

/**
 * Ends the links to choose a new password emailed to the user and not used yet: the password changed (a link in the
 * mailbox must not change it again) or the email address did (the old address must not keep one).
 */
export function endPasswordResets(db: Pick<Prisma.TransactionClient, 'passwordReset'>, userId: number) {
  return db.passwordReset.updateMany({ where: { user_id: userId, used_at: null }, data: { used_at: new Date() } });
}
