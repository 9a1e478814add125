import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { AccessTokenClaims, AuthReply, ChangePasswordInput, LoginInput, LoginReply, SessionUser, TwoFactorLoginInput } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { randomToken, sha256 } from '../common/crypto.js';
import type { AuthUser } from '../common/tenancy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { endPasswordResets, revokeRefreshTokens } from './session.js';
import type { Prisma } from '../generated/prisma/client.js';
import { LoginThrottleService } from './login-throttle.service.js';
import { challengeExpired, TwoFactorService } from './two-factor.service.js';

const INVALID = 'Invalid username or password';

/** Where a sign-in or refresh comes from: kept with the session (GET /auth/sessions). */
export interface SignInClient {
  ip: string;
  /** The User-Agent header, cut to 300 characters; null when absent. */
  userAgent: string | null;
}

/** The session a refresh token is a link of, and where it was made from. */
interface SessionLink extends SignInClient {
  session_id: string;
  signed_in_at: Date;
}

const newSession = (client: SignInClient): SessionLink => ({ session_id: randomUUID(), signed_in_at: new Date(), ...client });

type UserWithOrg = {
  id: number;
  username: string;
  email: string | null;
  role: SessionUser['role'];
  organization_id: string;
  totp_enabled_at: Date | null;
  two_factor_setup_until: Date | null;
  organization: {
    id: string;
    external_key: string | null;
    name: string | null;
    app: SessionUser['app'];
    status: SessionUser['organization_details']['status'];
    require_two_factor: boolean;
  };
};

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly jwt: JwtService,
    private readonly throttle: LoginThrottleService,
    private readonly audit: AuditService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  /** The password; for a user with two-factor sign-in, a challenge for POST /authenticate/2fa instead of a session. */
  async login(input: LoginInput, client: SignInClient): Promise<LoginReply> {
    const { ip } = client;
    await this.throttle.assertAllowed(input.username, ip);
    const user = await this.database.platform.user.findUnique({
      where: { username: input.username },
      include: { organization: true },
    });
    const ok = await verifyPassword(input.password, user?.is_active ? user.password_hash : null);
    if (!user || !ok) {
      await this.throttle.recordFailure(input.username, ip);
      this.audit.recordQuietly({
        organizationId: user?.organization_id ?? null,
        action: 'auth.login_failed',
        entityType: 'user',
        entityId: user?.id,
        description: `Failed sign-in for "${input.username}"`,
        ip,
      });
      throw Errors.unauthorized(INVALID);
    }
    // Failures keep counting until the code is right too: the lockout also bounds guessing codes.
    if (user.totp_enabled_at) return this.twoFactor.challenge(user.id);
    return this.signedIn(user, client, null);
  }

  /** The second step: the challenge of a right password and a code from the authenticator app, or a recovery code. */
  async loginWithCode(input: TwoFactorLoginInput, client: SignInClient): Promise<AuthReply> {
    const { ip } = client;
    const userId = await this.twoFactor.challengedUser(input.challenge_token);
    const user = await this.database.platform.user.findUnique({ where: { id: userId }, include: { organization: true } });
    if (!user || !user.is_active || !user.totp_enabled_at) throw challengeExpired();
    await this.throttle.assertAllowed(user.username, ip);
    const match = await this.twoFactor.takeCode(user, input.code);
    if (!match) {
      await this.throttle.recordFailure(user.username, ip);
      this.audit.recordQuietly({
        organizationId: user.organization_id,
        action: 'auth.login_failed',
        entityType: 'user',
        entityId: user.id,
        description: `Failed sign-in for "${user.username}": wrong two-factor code`,
        ip,
      });
      throw Errors.unauthorized('Invalid code');
    }
    return this.signedIn(user, client, match.kind);
  }

  private async signedIn(user: UserWithOrg, client: SignInClient, twoFactor: 'totp' | 'recovery' | null): Promise<AuthReply> {
    const { ip } = client;
    await this.throttle.recordSuccess(user.username);
    await this.database.platform.user.update({ where: { id: user.id }, data: { last_login_at: new Date() } });
    await this.audit.record({
      organizationId: user.organization_id,
      actor: { user_id: user.id, username: user.username },
      action: 'auth.login',
      entityType: 'user',
      entityId: user.id,
      description:
        twoFactor === 'recovery'
          ? `${user.username} signed in with a recovery code`
          : `${user.username} signed in${twoFactor ? ' with two-factor sign-in' : ''}`,
      ...(twoFactor ? { metadata: { two_factor: twoFactor } } : {}),
      ip,
    });
    return this.issue(user, newSession(client));
  }

  /** A new access token and the next refresh token of the same session (its chain), from where it was refreshed. */
  async refresh(refreshToken: string, client: SignInClient): Promise<AuthReply> {
    const row = await this.database.platform.refreshToken.findUnique({
      where: { token_hash: sha256(refreshToken) },
      include: { user: { include: { organization: true } } },
    });
    if (!row || row.revoked_at || row.expires_at < new Date() || !row.user.is_active) {
      throw Errors.unauthorized('Invalid or expired refresh token');
    }
    // Rotation: a refresh token works once; a stolen copy used later fails. The next link is written in the same
    // transaction, so the session never has no live token: the access tokens of the session, checked against it on
    // every request, go on working while the browser refreshes.
    return this.database.platform.$transaction(async (tx) => {
      const revoked = await tx.refreshToken.updateMany({
        where: { id: row.id, revoked_at: null },
        data: { revoked_at: new Date() },
      });
      if (revoked.count !== 1) throw Errors.unauthorized('Invalid or expired refresh token');
      return this.issue(row.user, { session_id: row.session_id, signed_in_at: row.signed_in_at, ...client }, tx);
    });
  }

  async logout(refreshToken: string): Promise<void> {
    await this.database.platform.refreshToken.updateMany({
      where: { token_hash: sha256(refreshToken), revoked_at: null },
      data: { revoked_at: new Date() },
    });
  }

  /**
   * The signed-in user changes their own password. A wrong current password
   * is a plain 400 on current_password: it writes nothing and does not count
   * towards the sign-in lockout (the caller already holds a valid token).
   * On success every refresh token of the user is revoked, as when a manager
   * sets the password, and the reply is a fresh session, so this browser
   * stays signed in while every other one is signed out.
   */
  async changePassword(actor: AuthUser, input: ChangePasswordInput, client: SignInClient): Promise<AuthReply> {
    const { ip } = client;
    const user = await this.database.platform.$transaction(async (tx) => {
      // Locked, so two concurrent changes cannot both pass the current-password check.
      const [row] = await tx.$queryRaw<{ password_hash: string }[]>`
        SELECT password_hash FROM users WHERE user_id = ${actor.user_id}::int AND is_active FOR UPDATE`;
      if (!row) throw Errors.unauthorized('Your session is no longer valid');
      if (!(await verifyPassword(input.current_password, row.password_hash))) throw Errors.badRequest('current_password', 'is incorrect');
      const updated = await tx.user.update({
        where: { id: actor.user_id },
        data: { password_hash: await hashPassword(input.new_password) },
        include: { organization: true },
      });
      await revokeRefreshTokens(tx, actor.user_id);
      await endPasswordResets(tx, actor.user_id);
      await this.audit.record(
        {
          organizationId: updated.organization_id,
          actor,
          action: 'user.password_changed',
          entityType: 'user',
          entityId: updated.id,
          description: `${updated.username} changed their password`,
          ip,
        },
        tx,
      );
      return updated;
    });
    return this.issue(user, newSession(client));
  }

  async me(userId: number): Promise<SessionUser> {
    const user = await this.database.platform.user.findUnique({ where: { id: userId }, include: { organization: true } });
    if (!user) throw Errors.unauthorized('Your session is no longer valid');
    return this.sessionUser(user);
  }

  private sessionUser(user: UserWithOrg): SessionUser {
    return {
      user_id: user.id,
      username: user.username,
      email: user.email,
      organization_id: user.organization_id,
      role: user.role,
      app: user.organization.app,
      two_factor_setup_required: user.organization.require_two_factor && user.totp_enabled_at === null,
      two_factor_setup_until:
        user.organization.require_two_factor && user.totp_enabled_at === null ? (user.two_factor_setup_until?.toISOString() ?? null) : null,
      time_zone: this.config.timeZone,
      organization_details: {
        organization_id: user.organization.id,
        external_key: user.organization.external_key,
        name: user.organization.name,
        app: user.organization.app,
        status: user.organization.status,
      },
    };
  }

  private async issue(user: UserWithOrg, session: SessionLink, db: Pick<Prisma.TransactionClient, 'refreshToken'> = this.database.platform): Promise<AuthReply> {
    const claims: AccessTokenClaims = {
      sub: String(user.id),
      user_id: user.id,
      username: user.username,
      org_id: user.organization_id,
      role: user.role,
      app: user.organization.app,
      sid: session.session_id,
    };
    const access_token = await this.jwt.signAsync(claims, { expiresIn: this.config.jwtExpiresIn });
    const refresh_token = `${randomUUID()}.${randomToken(32)}`;
    await db.refreshToken.create({
      data: {
        id: randomUUID(),
        user_id: user.id,
        token_hash: sha256(refresh_token),
        expires_at: new Date(Date.now() + this.config.refreshTokenTtlDays * 86_400_000),
        session_id: session.session_id,
        signed_in_at: session.signed_in_at,
        ip: session.ip.slice(0, 64),
        user_agent: session.userAgent,
      },
    });
    return {
      access_token,
      token_type: 'bearer',
      expires_in: this.config.jwtExpiresIn,
      refresh_token,
      user: this.sessionUser(user),
    };
  }
}
