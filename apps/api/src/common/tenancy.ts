import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { DocumentApiKey, DocumentOpenWhenBlocked, DocumentPublic, DocumentRoles } from './openapi.js';
import type { HttpRequest } from './http.js';
import type { AppType, OrgStatus, Role } from '@kidogo/contracts';

/** The verified caller, put on the request by JwtAuthGuard (AccessTokens). */
export interface AuthUser {
  user_id: number;
  username: string;
  email: string | null;
  role: Role;
  organization_id: string;
  app: AppType;
  org_status: OrgStatus;
  org_disabled_reason: string | null;
  org_status_changed_at: Date | null;
  /** The organization requires two-factor sign-in and this session's user has not set it up (AccessGuard). */
  two_factor_missing?: boolean;
  /** The sign-in (GET /auth/sessions' session_id) of the access token, when it names one. */
  session_id?: string;
  /** Set when the request came with an API token (kdg_pat_...) instead of a signed-in session. */
  api_token_id?: number;
  /** A read-only API token: AccessGuard lets it call GET routes and @Reads routes only. */
  api_token_read_only?: boolean;
}

export type AuthedRequest = HttpRequest & { user?: AuthUser };

export const IS_PUBLIC = 'kidogo:public';
export const ROLES_KEY = 'kidogo:roles';
export const API_KEY_AUTH = 'kidogo:api-key';
export const OPEN_WHEN_BLOCKED = 'kidogo:open-when-blocked';
export const READS = 'kidogo:reads';
export const OPEN_WITHOUT_TWO_FACTOR = 'kidogo:open-without-two-factor';
/**
 * Still answered to a user who has not set up the two-factor sign-in their
 * organization requires: what they need to set it up (and who they are).
 */
export const OpenWithoutTwoFactor = () => SetMetadata(OPEN_WITHOUT_TWO_FACTOR, true);
/** A POST route that only reads (a search, a report): a read-only API token may call it. */
export const Reads = () => SetMetadata(READS, true);

/** No bearer token needed (sign-in, health). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), DocumentPublic());

/** Authenticated by the organization's API key (X-API-Key) instead of a user token. */
export const ApiKeyAuth = () => applyDecorators(SetMetadata(API_KEY_AUTH, true), DocumentApiKey());

/**
 * Still answered when the caller's organization is suspended or disabled:
 * its own bills, which it must be able to read and settle to be restored.
 */
export const OpenWhenBlocked = () => applyDecorators(SetMetadata(OPEN_WHEN_BLOCKED, true), DocumentOpenWhenBlocked());

/** Only these roles may call the endpoint (checked by AccessGuard). */
export const Roles = (...roles: Role[]) => applyDecorators(SetMetadata(ROLES_KEY, roles), DocumentRoles(roles));

class ScopeMissingError extends Error {
  constructor(what: string) {
    super(`${what} requested but no guard authenticated this request`);
  }
}

/** The caller's verified user. Throws when the guards did not run, so a missing guard cannot fall through to unscoped data. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const user = ctx.switchToHttp().getRequest<AuthedRequest>().user;
  if (!user) throw new ScopeMissingError('CurrentUser');
  return user;
});

/**
 * The organization every organization-scoped handler works in: the org_id
 * of the verified token (or of the verified API key), and nothing else.
 */
export const OrgId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest & { apiKeyOrg?: string }>();
  const org = req.user?.organization_id ?? req.apiKeyOrg;
  if (!org) throw new ScopeMissingError('OrgId');
  return org;
});
