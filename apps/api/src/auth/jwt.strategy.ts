import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { AccessTokenClaims } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { sessionQuery, type SessionRow } from './session.js';

/**
 * Verifies the bearer token's signature and expiry, then loads the user and
 * the organization on every request: a deleted or deactivated user is out at
 * once, and an organization's new status applies to its very next request.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly database: DatabaseService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.jwtSecret,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: AccessTokenClaims): Promise<AuthUser> {
    const id = Number(claims?.user_id ?? claims?.sub);
    if (!Number.isInteger(id) || id <= 0) throw Errors.unauthorized('Invalid token');
    const [user] = await this.database.query<SessionRow>(sessionQuery(id));
    if (!user || !user.is_active || user.organization_id !== claims.org_id) {
      throw Errors.unauthorized('Your session is no longer valid');
    }
    return {
      user_id: user.user_id,
      username: user.username,
      email: user.email,
      role: user.role as AuthUser['role'],
      organization_id: user.organization_id,
      app: user.app as AuthUser['app'],
      org_status: user.org_status as AuthUser['org_status'],
      org_disabled_reason: user.org_disabled_reason,
      org_status_changed_at: user.org_status_changed_at,
    };
  }
}
