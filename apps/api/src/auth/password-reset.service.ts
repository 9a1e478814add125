import { Inject, Injectable, Logger } from '@nestjs/common';
import { PASSWORD_RESET_MINUTES, PASSWORD_RESET_SENT, type PasswordResetConfirmInput } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { randomToken, sha256 } from '../common/crypto.js';
import { MailerService } from '../mail/mailer.service.js';
import { hashPassword } from './passwords.js';
import { endPasswordResets, revokeRefreshTokens } from './session.js';

/** Links emailed to one user within an hour, at most: more requests are answered alike and send nothing. */
export const MAX_RESETS_PER_USER_HOUR = 3;
/** Requests from one address within 15 minutes, at most; then 429. */
export const MAX_RESET_REQUESTS_PER_ADDRESS = 10;
const ADDRESS_WINDOW_MS = 15 * 60 * 1000;
/** Accounts one email address may belong to that are sent a link each. */
const MAX_ACCOUNTS_PER_EMAIL = 5;

export const PASSWORD_RESET_NOT_SET_UP =
  'Password reset by email is not set up on this installation: ask an owner or admin of your organization to set a new password for you';
export const PASSWORD_RESET_LINK_INVALID = 'This link has expired or was already used: ask for a new one';

interface Account {
  user_id: number;
  username: string;
  email: string;
  organization_id: string;
  organization_name: string | null;
}

/**
 * A forgotten password, without anyone's help: the user asks with their
 * username or email address, and each active account it names that has an
 * email address is sent a link that works once, for PASSWORD_RESET_MINUTES.
 * The reply is the same whether an account matched or not, and the accounts
 * are looked up and mailed after it, so neither the answer nor its time tells
 * who has an account.
 * Choosing the new password ends every session of the user, as a manager's
 * reset does; two-factor sign-in stays on.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger('PasswordReset');
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    private readonly mailer: MailerService,
  ) {}

  /** Email is set up (SMTP_URL) and the links have an address to lead to (PUBLIC_URL). */
  get available(): boolean {
    return this.mailer.enabled && this.config.publicUrl !== null;
  }

  async request(login: string, ip: string): Promise<{ message: string }> {
    if (!this.available) throw Errors.conflict(PASSWORD_RESET_NOT_SET_UP);
    await this.countAddress(ip);
    // After the reply: its time is the same whether an account matched or not.
    setImmediate(() => {
      this.sendLinks(login, ip).catch((e) => this.logger.error(`password reset links not sent: ${(e as Error).message}`));
    });
    return { message: PASSWORD_RESET_SENT };
  }

  /** A link to each active account the login names that has an email address and has not had too many this hour. */
  private async sendLinks(login: string, ip: string): Promise<void> {
    const accounts = await this.database.platform.$queryRaw<Account[]>`
      SELECT u.user_id, u.username, u.email, u.organization_id, o.name AS organization_name
      FROM users u JOIN organizations o ON o.organization_id = u.organization_id
      WHERE u.is_active AND u.email IS NOT NULL AND u.email <> ''
        AND (u.username = ${login} OR lower(u.email) = lower(${login}))
      ORDER BY u.user_id
      LIMIT ${MAX_ACCOUNTS_PER_EMAIL}`;
    for (const account of accounts) {
      const token = randomToken();
      if (!(await this.recordLink(account.user_id, token, ip))) continue;
      this.audit.recordQuietly({
        organizationId: account.organization_id,
        action: 'user.password_reset_requested',
        entityType: 'user',
        entityId: account.user_id,
        description: `A link to choose a new password was emailed to ${account.username}`,
        ip,
      });
      await this.mailer
        .send(this.mail(account, token, ip))
        .catch((e) => this.logger.error(`the link for user ${account.user_id} was not sent: ${(e as Error).message}`));
    }
  }

  /**
   * The link's row, unless the user already had MAX_RESETS_PER_USER_HOUR this
   * hour. Requests are answered before their links are made, so several can be
   * making links for one user at once: the user's row is locked while the hour
   * is counted and the link added, so the limit holds for them too.
   */
  private async recordLink(userId: number, token: string, ip: string): Promise<boolean> {
    return this.database.platform.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM users WHERE user_id = ${userId} FOR UPDATE`;
      const [{ recent }] = await tx.$queryRaw<{ recent: number }[]>`
        SELECT count(*)::int AS recent FROM password_resets
        WHERE user_id = ${userId} AND created_at > now() - interval '1 hour'`;
      if (recent >= MAX_RESETS_PER_USER_HOUR) return false;
      await tx.passwordReset.create({
        data: {
          user_id: userId,
          token_hash: sha256(token),
          expires_at: new Date(Date.now() + PASSWORD_RESET_MINUTES * 60_000),
          requested_ip: ip.slice(0, 64),
        },
      });
      return true;
    });
  }

  private mail(account: Account, token: string, ip: string) {
    const link = `${this.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    const at = account.organization_name ? ` at ${account.organization_name}` : '';
    return {
      to: account.email,
      subject: 'Choose a new Kidogo password',
      text: [
        `Hello ${account.username},`,
        '',
        `Someone, we hope you, asked to choose a new password for the Kidogo account ${account.username}${at}.`,
        '',
        `Open this link within ${PASSWORD_RESET_MINUTES} minutes to choose it:`,
        link,
        '',
        'The link works once. Choosing a new password signs the account out everywhere; two-factor sign-in, if it is on, stays on.',
        '',
        `If you did not ask, you can ignore this email: the password stays as it is. The request came from the address ${ip}.`,
      ].join('\n'),
    };
  }

  /** Requests from one address: counted in auth_throttles (shared by every API process), 429 past the limit. */
  private async countAddress(ip: string): Promise<void> {
    const key = `reset:ip:${ip}`;
    const windowStart = new Date(Date.now() - ADDRESS_WINDOW_MS).toISOString();
    const [row] = await this.database.platform.$queryRaw<{ failures: number; first_failure_at: Date }[]>`
      INSERT INTO auth_throttles (key, failures, first_failure_at, locked_until)
      VALUES (${key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN auth_throttles.first_failure_at < ${windowStart}::timestamptz THEN 1 ELSE auth_throttles.failures + 1 END,
        first_failure_at = CASE WHEN auth_throttles.first_failure_at < ${windowStart}::timestamptz THEN now() ELSE auth_throttles.first_failure_at END
      RETURNING failures, first_failure_at`;
    if (row && row.failures > MAX_RESET_REQUESTS_PER_ADDRESS) {
      const seconds = Math.max(1, Math.ceil((row.first_failure_at.getTime() + ADDRESS_WINDOW_MS - Date.now()) / 1000));
      const minutes = Math.ceil(seconds / 60);
      throw Errors.tooMany(`Too many password reset requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
    }
  }

  /** The new password, by the emailed link: once, before it expires, and not after the password changed another way. */
  async confirm(input: PasswordResetConfirmInput, ip: string): Promise<{ message: string }> {
    const hash = await hashPassword(input.new_password);
    const user = await this.database.platform.$transaction(async (tx) => {
      const [reset] = await tx.$queryRaw<{ id: number; user_id: number; created_at: Date }[]>`
        SELECT id, user_id, created_at FROM password_resets
        WHERE token_hash = ${sha256(input.token)} AND used_at IS NULL AND expires_at > now()
        FOR UPDATE`;
      const user = reset ? await tx.user.findUnique({ where: { id: reset.user_id } }) : null;
      if (!reset || !user || !user.is_active || (user.password_changed_at && user.password_changed_at > reset.created_at)) {
        throw Errors.badRequest('token', PASSWORD_RESET_LINK_INVALID);
      }
      // Every other link of the user goes with this one: an older email must not set the password again.
      await endPasswordResets(tx, user.id);
      await tx.user.update({ where: { id: user.id }, data: { password_hash: hash, password_changed_at: new Date() } });
      await revokeRefreshTokens(tx, user.id);
      await tx.authThrottle.deleteMany({ where: { key: `u:${user.username.toLowerCase()}` } });
      await this.audit.record(
        {
          organizationId: user.organization_id,
          actor: { user_id: user.id, username: user.username },
          action: 'user.password_reset',
          entityType: 'user',
          entityId: user.id,
          description: `${user.username} chose a new password with a link emailed to them`,
          metadata: { by: 'email' },
          ip,
        },
        tx,
      );
      return user;
    });
    return { message: `The password of ${user.username} has been changed. Sign in with the new password.` };
  }
}
