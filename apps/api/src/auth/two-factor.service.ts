import { createHmac } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  TWO_FACTOR_SETUP_DAYS,
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_CHALLENGE_EXPIRED,
  TWO_FACTOR_CHALLENGE_SECONDS,
  type ChallengeExpiredReply,
  type RecoveryCodesReply,
  type SecuritySettings,
  type TwoFactorChallenge,
  type TwoFactorSetupReply,
  type TwoFactorStatus,
} from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { SecretBox, sha256 } from '../common/crypto.js';
import type { AuthUser } from '../common/tenancy.js';
import { verifyPassword } from './passwords.js';
import { revokeRefreshTokens } from './session.js';
import { matchTotp, newRecoveryCode, newTotpSecret, normalizeRecoveryCode, otpauthUrl } from './totp.js';

export const TOTP_ISSUER = 'Kidogo';
const CHALLENGE_PURPOSE = 'two-factor sign-in';
export const EXPIRED_CHALLENGE = 'This sign-in has expired: enter your password again';

/** 401 TWO_FACTOR_CHALLENGE_EXPIRED: the challenge is spent or not ours, so the client asks for the password again. */
export function challengeExpired(): HttpException {
  const body: ChallengeExpiredReply = { detail: EXPIRED_CHALLENGE, message: EXPIRED_CHALLENGE, code: TWO_FACTOR_CHALLENGE_EXPIRED };
  return new HttpException(body, HttpStatus.UNAUTHORIZED);
}

interface ChallengeClaims {
  sub: string;
  purpose: string;
}

/** What a code matched: the authenticator's step, or a recovery code. */
export type CodeMatch = { kind: 'totp'; step: number } | { kind: 'recovery'; hash: string };

const recoveryCodes = () => {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((c) => sha256(normalizeRecoveryCode(c))) };
};

/**
 * Two-factor sign-in (README "Two-factor sign-in"). A user sets it up with
 * their password (a new secret, sealed with ENCRYPTION_KEY, pending), turns
 * it on with the first code their app shows (ten recovery codes, shown
 * once, kept as sha256), and from then on signs in with the password and a
 * code. Nothing is kept in memory: the sign-in challenge is a signed token,
 * and each code is taken once by a conditional UPDATE, so any API process
 * can check the code of a challenge another one issued.
 */
/** The end of a user's time to set up two-factor sign-in, opened now. */
export const setupDeadline = (from = new Date()): Date => new Date(from.getTime() + TWO_FACTOR_SETUP_DAYS * 86_400_000);

@Injectable()
export class TwoFactorService {
  /** Challenges are signed with a key of their own: no access token is ever a challenge, nor a challenge an access token. */
  private readonly challengeKey: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly database: DatabaseService,
    private readonly jwt: JwtService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
  ) {
    this.challengeKey = createHmac('sha256', config.jwtSecret).update('kidogo two-factor challenge').digest('base64url');
  }

  private get db() {
    return this.database.platform;
  }

  async status(actor: AuthUser): Promise<TwoFactorStatus> {
    const user = await this.db.user.findUnique({ where: { id: actor.user_id }, select: { totp_enabled_at: true, totp_recovery_codes: true } });
    if (!user) throw Errors.unauthorized('Your session is no longer valid');
    return {
      enabled: user.totp_enabled_at !== null,
      enabled_at: user.totp_enabled_at?.toISOString() ?? null,
      recovery_codes_left: user.totp_enabled_at ? user.totp_recovery_codes.length : 0,
    };
  }

  /** The current password again, before anything that changes how the account signs in (a 400 on it, not a lockout count). */
  private async withPassword(actor: AuthUser, password: string) {
    const user = await this.db.user.findUnique({ where: { id: actor.user_id } });
    if (!user || !user.is_active) throw Errors.unauthorized('Your session is no longer valid');
    if (!(await verifyPassword(password, user.password_hash))) throw Errors.badRequest('password', 'is incorrect');
    return user;
  }

  /**
   * Where the organization requires two-factor sign-in, a user without it sets it up with the password alone only
   * until two_factor_setup_until: afterwards a password stolen meanwhile must not be enough. Voluntary set-up, where
   * it is not required, is not limited.
   */
  private async setupOpen(user: { organization_id: string; two_factor_setup_until: Date | null }): Promise<void> {
    const org = await this.db.organization.findUnique({ where: { id: user.organization_id }, select: { require_two_factor: true } });
    if (!org?.require_two_factor) return;
    if (user.two_factor_setup_until && user.two_factor_setup_until > new Date()) return;
    throw Errors.forbidden(
      `The time to set up two-factor sign-in has passed${user.two_factor_setup_until ? ` (${user.two_factor_setup_until.toISOString().slice(0, 10)})` : ''}: ` +
        'ask an owner or admin of your organization to reset your two-factor sign-in (Settings → Team → Reset Two-Factor), then set it up',
    );
  }

  async setup(actor: AuthUser, password: string): Promise<TwoFactorSetupReply> {
    const user = await this.withPassword(actor, password);
    if (user.totp_enabled_at) throw Errors.conflict('Two-factor sign-in is already on: turn it off first to move it to another app');
    await this.setupOpen(user);
    const secret = newTotpSecret();
    await this.db.user.update({ where: { id: user.id }, data: { totp_secret_enc: this.box.seal(secret), totp_last_step: null } });
    return { secret, otpauth_url: otpauthUrl(TOTP_ISSUER, user.username, secret), issuer: TOTP_ISSUER, account: user.username };
  }

  async enable(actor: AuthUser, code: string): Promise<RecoveryCodesReply> {
    const user = await this.db.user.findUnique({ where: { id: actor.user_id } });
    if (!user) throw Errors.unauthorized('Your session is no longer valid');
    if (user.totp_enabled_at) throw Errors.conflict('Two-factor sign-in is already on');
    if (!user.totp_secret_enc) throw Errors.conflict('Set up two-factor sign-in first: Set Up, with your password');
    await this.setupOpen(user);
    const step = matchTotp(this.box.open(user.totp_secret_enc), code, null);
    if (step === null) throw Errors.badRequest('code', 'is not the current code from your authenticator app');
    const { codes, hashes } = recoveryCodes();
    await this.db.$transaction(async (tx) => {
      // Conditional: of two enables at once, one turns it on.
      const on = await tx.user.updateMany({
        where: { id: user.id, totp_enabled_at: null, totp_secret_enc: user.totp_secret_enc },
        data: { totp_enabled_at: new Date(), totp_last_step: BigInt(step), totp_recovery_codes: hashes },
      });
      if (on.count !== 1) throw Errors.conflict('Two-factor sign-in changed meanwhile: reload and try again');
      await this.audit.record(
        {
          organizationId: user.organization_id,
          actor,
          action: 'user.2fa_enabled',
          entityType: 'user',
          entityId: user.id,
          description: `${user.username} turned on two-factor sign-in`,
        },
        tx,
      );
    });
    return { message: 'Two-factor sign-in is on', recovery_codes: codes };
  }

  async disable(actor: AuthUser, password: string): Promise<{ message: string }> {
    const user = await this.withPassword(actor, password);
    if (!user.totp_enabled_at && !user.totp_secret_enc) return { message: 'Two-factor sign-in is off' };
    const org = await this.db.organization.findUnique({ where: { id: user.organization_id }, select: { require_two_factor: true } });
    if (user.totp_enabled_at && org?.require_two_factor) {
      throw Errors.conflict('Your organization requires two-factor sign-in, so it cannot be turned off: to move it to a new phone, ask an owner or admin to reset it, then set it up again');
    }
    await this.db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: OFF });
      if (user.totp_enabled_at) {
        await this.audit.record(
          {
            organizationId: user.organization_id,
            actor,
            action: 'user.2fa_disabled',
            entityType: 'user',
            entityId: user.id,
            description: `${user.username} turned off two-factor sign-in`,
          },
          tx,
        );
      }
    });
    return { message: 'Two-factor sign-in is off' };
  }

  async newRecoveryCodes(actor: AuthUser, password: string): Promise<RecoveryCodesReply> {
    const user = await this.withPassword(actor, password);
    if (!user.totp_enabled_at) throw Errors.conflict('Two-factor sign-in is off: turn it on to get recovery codes');
    const { codes, hashes } = recoveryCodes();
    await this.db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { totp_recovery_codes: hashes } });
      await this.audit.record(
        {
          organizationId: user.organization_id,
          actor,
          action: 'user.2fa_recovery_codes',
          entityType: 'user',
          entityId: user.id,
          description: `${user.username} made new recovery codes (the old ones no longer work)`,
        },
        tx,
      );
    });
    return { message: 'New recovery codes: the old ones no longer work', recovery_codes: codes };
  }

  /**
   * An owner or admin turns off a user's two-factor sign-in (the user lost
   * their phone and their recovery codes). The user's refresh tokens are
   * revoked, so every browser they are signed in on is out from its next
   * request.
   */
  async reset(actor: AuthUser, orgId: string, id: number, check: (target: { role: AuthUser['role'] }) => void): Promise<{ message: string }> {
    return this.db.$transaction(async (tx) => {
      const [target] = await tx.$queryRaw<{ username: string; role: AuthUser['role']; totp_enabled_at: Date | null; required: boolean }[]>`
        SELECT u.username, u.role::text AS role, u.totp_enabled_at, o.require_two_factor AS required
        FROM users u JOIN organizations o ON o.organization_id = u.organization_id
        WHERE u.user_id = ${id}::int AND u.organization_id = ${orgId} FOR UPDATE OF u`;
      if (!target) throw Errors.notFound('User');
      check(target);
      // Without it where it is not required, there is nothing to reset; where it is required, the reset gives the
      // user another TWO_FACTOR_SETUP_DAYS to set it up (theirs had passed).
      if (!target.totp_enabled_at && !target.required) throw Errors.conflict(`${target.username} does not use two-factor sign-in`);
      const until = setupDeadline();
      await tx.user.update({ where: { id }, data: { ...OFF, two_factor_setup_until: until } });
      if (target.totp_enabled_at) await revokeRefreshTokens(tx, id);
      const by = until.toISOString().slice(0, 10);
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'user.2fa_reset',
          entityType: 'user',
          entityId: id,
          description: target.totp_enabled_at
            ? `${actor.username} turned off two-factor sign-in for ${target.username}`
            : `${actor.username} let ${target.username} set up two-factor sign-in until ${by}`,
          metadata: { setup_until: until.toISOString(), was_on: target.totp_enabled_at !== null },
        },
        tx,
      );
      return {
        message: target.required
          ? `${target.username} may set up two-factor sign-in with their password until ${by}`
          : `${target.username} signs in with a password only until they set up two-factor sign-in again`,
      };
    });
  }

  /** Whether the organization requires two-factor sign-in, and how many of its active users do not have it yet. */
  async securitySettings(orgId: string): Promise<SecuritySettings> {
    const [org, without] = await Promise.all([
      this.db.organization.findUnique({ where: { id: orgId }, select: { require_two_factor: true } }),
      this.db.user.count({ where: { organization_id: orgId, is_active: true, totp_enabled_at: null } }),
    ]);
    if (!org) throw Errors.notFound('Organization');
    return { require_two_factor: org.require_two_factor, users_without_two_factor: without };
  }

  /**
   * Requires two-factor sign-in of every user of the organization, or stops
   * requiring it. Turning it on needs the caller's own on: otherwise the
   * next thing they could do is set up their own.
   */
  async setRequired(orgId: string, actor: AuthUser, required: boolean): Promise<SecuritySettings> {
    const me = await this.db.user.findUnique({ where: { id: actor.user_id }, select: { totp_enabled_at: true } });
    if (required && !me?.totp_enabled_at) {
      throw Errors.conflict('Turn on your own two-factor sign-in first (Settings → Two-Factor Sign-In), then require it of everyone');
    }
    await this.db.$transaction(async (tx) => {
      const changed = await tx.organization.updateMany({ where: { id: orgId, require_two_factor: !required }, data: { require_two_factor: required } });
      if (!changed.count) return;
      // Everyone without it has TWO_FACTOR_SETUP_DAYS from now to set it up.
      if (required) {
        await tx.user.updateMany({ where: { organization_id: orgId, totp_enabled_at: null }, data: { two_factor_setup_until: setupDeadline() } });
      }
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: required ? 'organization.two_factor_required' : 'organization.two_factor_optional',
          entityType: 'organization',
          entityId: orgId,
          description: required
            ? `${actor.username} required two-factor sign-in of every user`
            : `${actor.username} stopped requiring two-factor sign-in`,
        },
        tx,
      );
    });
    return this.securitySettings(orgId);
  }

  /** The password was right: what POST /authenticate answers instead of a session. */
  async challenge(userId: number): Promise<TwoFactorChallenge> {
    const claims: ChallengeClaims = { sub: String(userId), purpose: CHALLENGE_PURPOSE };
    const challenge_token = await this.jwt.signAsync(claims, { secret: this.challengeKey, expiresIn: TWO_FACTOR_CHALLENGE_SECONDS });
    return { two_factor_required: true, challenge_token, expires_in: TWO_FACTOR_CHALLENGE_SECONDS, message: 'Enter the code from your authenticator app' };
  }

  /** The user a challenge was issued to; 401 for a forged, expired or foreign one. */
  async challengedUser(token: string): Promise<number> {
    try {
      const claims = await this.jwt.verifyAsync<ChallengeClaims>(token, { secret: this.challengeKey, algorithms: ['HS256'] });
      const id = Number(claims.sub);
      if (claims.purpose !== CHALLENGE_PURPOSE || !Number.isInteger(id)) throw new Error('not a challenge');
      return id;
    } catch {
      throw challengeExpired();
    }
  }

  /**
   * Takes a code for the user: the authenticator's (a step after the last
   * one taken) or one of their recovery codes (removed as it is used). One
   * conditional UPDATE each, so a code works once even when sent to two
   * processes at the same moment. Null when it is neither.
   */
  async takeCode(user: { id: number; totp_secret_enc: string | null; totp_last_step: bigint | null }, code: string): Promise<CodeMatch | null> {
    if (!user.totp_secret_enc) return null;
    const digits = code.replace(/[\s-]/g, '');
    if (/^\d{6}$/.test(digits)) {
      const last = user.totp_last_step === null ? null : Number(user.totp_last_step);
      const step = matchTotp(this.box.open(user.totp_secret_enc), digits, last);
      if (step === null) return null;
      const taken = await this.db.$executeRaw`
        UPDATE users SET totp_last_step = ${step}::bigint
        WHERE user_id = ${user.id}::int AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < ${step}::bigint)`;
      return taken === 1 ? { kind: 'totp', step } : null;
    }
    const hash = sha256(normalizeRecoveryCode(code));
    const taken = await this.db.$executeRaw`
      UPDATE users SET totp_recovery_codes = array_remove(totp_recovery_codes, ${hash}::text)
      WHERE user_id = ${user.id}::int AND totp_enabled_at IS NOT NULL AND ${hash}::text = ANY(totp_recovery_codes)`;
    return taken === 1 ? { kind: 'recovery', hash } : null;
  }
}

/** Two-factor sign-in off: no secret, no recovery codes. */
const OFF = { totp_secret_enc: null, totp_enabled_at: null, totp_last_step: null, totp_recovery_codes: [] };
