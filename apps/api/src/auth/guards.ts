import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_TOKEN_PREFIX, TWO_FACTOR_REQUIRED, type Role, type ServiceBlockedReply, type TwoFactorRequiredReply } from '@kidogo/contracts';
import { Errors } from '../common/errors.js';
import { API_KEY_AUTH, IS_PUBLIC, OPEN_WHEN_BLOCKED, OPEN_WITHOUT_TWO_FACTOR, READS, ROLES_KEY, type AuthedRequest, type AuthUser } from '../common/tenancy.js';
import { AccessTokens } from './access-token.js';

const SUPPORT_MESSAGE = 'Please contact your platform administrator or support to restore access.';

export function serviceBlocked(user: Pick<AuthUser, 'org_status' | 'org_disabled_reason' | 'org_status_changed_at'>): HttpException {
  const disabled = user.org_status === 'disabled';
  const at = user.org_status_changed_at ? user.org_status_changed_at.toISOString() : null;
  const message = disabled
    ? 'Your organization has been disabled.'
    : 'Your organization has been suspended.';
  const body: ServiceBlockedReply = {
    detail: {
      error: disabled ? 'SERVICE_DISABLED' : 'SERVICE_SUSPENDED',
      message,
      reason: user.org_disabled_reason,
      ...(disabled ? { disabled_at: at } : { suspended_at: at }),
      support_message: SUPPORT_MESSAGE,
    },
    message: user.org_disabled_reason ?? message,
  };
  return new HttpException(body, HttpStatus.FORBIDDEN);
}

const TWO_FACTOR_MESSAGE = 'Your organization requires two-factor sign-in: set it up in Settings → Two-Factor Sign-In';

/** The 403 of a user who has not set up the two-factor sign-in their organization requires. */
export function twoFactorRequired(): HttpException {
  const body: TwoFactorRequiredReply = { detail: { error: TWO_FACTOR_REQUIRED, message: TWO_FACTOR_MESSAGE }, message: TWO_FACTOR_MESSAGE };
  return new HttpException(body, HttpStatus.FORBIDDEN);
}

/** First global guard: a valid bearer token (AccessTokens), except on @Public and @ApiKeyAuth routes. */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokens,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(API_KEY_AUTH, targets)) return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw Errors.unauthorized('Not authenticated');
    const token = match[1]!;
    req.user = token.startsWith(API_TOKEN_PREFIX) ? await this.tokens.loadApiToken(token) : await this.tokens.load(this.tokens.verify(token));
    return true;
  }
}

/**
 * Second global guard: a blocked organization's users get the
 * SERVICE_DISABLED / SERVICE_SUSPENDED reply on every call but its bills
 * (@OpenWhenBlocked; the super admin is never blocked); a user who has not
 * set up the two-factor sign-in their organization requires gets 403
 * TWO_FACTOR_REQUIRED on every call but setting it up (@OpenWithoutTwoFactor);
 * then @Roles is enforced.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(API_KEY_AUTH, targets)) return true;
    const user = ctx.switchToHttp().getRequest<AuthedRequest>().user;
    if (!user) throw Errors.unauthorized();
    if (user.role !== 'super_admin' && user.org_status !== 'active' && !this.reflector.getAllAndOverride<boolean>(OPEN_WHEN_BLOCKED, targets)) {
      throw serviceBlocked(user);
    }
    if (user.two_factor_missing && !this.reflector.getAllAndOverride<boolean>(OPEN_WITHOUT_TWO_FACTOR, targets)) throw twoFactorRequired();
    if (user.api_token_read_only) {
      const method = ctx.switchToHttp().getRequest<AuthedRequest>().method;
      if (method !== 'GET' && method !== 'HEAD' && !this.reflector.getAllAndOverride<boolean>(READS, targets)) {
        throw Errors.forbidden('This API token is read-only: it may read, not change anything');
      }
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    if (roles?.length && !roles.includes(user.role)) {
      throw Errors.forbidden(`This action needs one of the roles: ${roles.join(', ')}`);
    }
    return true;
  }
}
