import { randomInt } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import pg from 'pg';
import { TWO_FACTOR_SETUP_DAYS, ZPasswordSchema } from '@kidogo/contracts';
import { hashPassword } from './passwords.js';

/**
 * Account recovery from the server's command line (`pnpm account ...`), for
 * what nobody can do in the app: the only super admin lost their phone and
 * their recovery codes, or their password, or is locked out. Whoever runs it
 * already holds the database, so it asks nothing more; every change is
 * audited with the machine and the operating-system user that made it.
 */

export const RECOVERY_ACTIONS = ['reset-two-factor', 'reset-password', 'unlock'] as const;
export type RecoveryAction = (typeof RECOVERY_ACTIONS)[number];

export interface RecoveryResult {
  username: string;
  role: string;
  organization_id: string;
  /** What was done, one line. */
  message: string;
  /** reset-password: the new password (generated unless given), shown once. */
  password?: string;
}

/** Thrown for what the operator got wrong (an unknown user, a password too short): printed, exit code 1. */
export class RecoveryError extends Error {
  override readonly name = 'RecoveryError';
}

// No 0/O, 1/l/I: read off a terminal and typed into a phone.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 16 characters of a 56-letter alphabet: about 93 bits. */
export function generatePassword(length = 16): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

interface Target {
  user_id: number;
  username: string;
  role: string;
  organization_id: string;
  totp_enabled_at: Date | null;
  /** The organization requires two-factor sign-in. */
  required: boolean;
}

/**
 * Runs one recovery action on `username` (exactly as it signs in) in one
 * transaction: the change, the user's refresh tokens revoked (a reset of the
 * password or of two-factor sign-in ends their sessions), the sign-in lockout
 * on the username cleared, and an audit entry.
 */
export async function recoverAccount(
  databaseUrl: string,
  action: RecoveryAction,
  username: string,
  opts: { password?: string } = {},
): Promise<RecoveryResult> {
  if (!RECOVERY_ACTIONS.includes(action)) throw new RecoveryError(`Unknown action ${action}: use ${RECOVERY_ACTIONS.join(', ')}`);
  const name = username.trim();
  if (!name) throw new RecoveryError('Name the user: pnpm account <action> <username>');
  let password: string | undefined;
  if (action === 'reset-password') {
    password = opts.password ?? generatePassword();
    const checked = ZPasswordSchema.safeParse(password);
    if (!checked.success) throw new RecoveryError(`The new password ${checked.error.issues[0]!.message}`);
  }
  const hash = password === undefined ? null : await hashPassword(password);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<Target>(
      `SELECT u.user_id, u.username, u.role::text AS role, u.organization_id, u.totp_enabled_at, o.require_two_factor AS required
         FROM users u JOIN organizations o ON o.organization_id = u.organization_id WHERE u.username = $1 FOR UPDATE OF u`,
      [name],
    );
    const target = rows[0];
    if (!target) throw new RecoveryError(`No user is called ${name}`);

    let message: string;
    let auditAction: string;
    if (action === 'reset-two-factor') {
      if (!target.totp_enabled_at && !target.required) throw new RecoveryError(`${target.username} does not use two-factor sign-in`);
      // As a manager's reset: TWO_FACTOR_SETUP_DAYS to set it up again where the organization requires it.
      await client.query(
        `UPDATE users SET totp_secret_enc = NULL, totp_enabled_at = NULL, totp_last_step = NULL, totp_recovery_codes = '{}',
                two_factor_setup_until = now() + make_interval(days => $2::int)
          WHERE user_id = $1`,
        [target.user_id, TWO_FACTOR_SETUP_DAYS],
      );
      message = target.required
        ? `${target.totp_enabled_at ? `Two-factor sign-in is off for ${target.username}` : `${target.username} may set up two-factor sign-in again`}: they sign in with their password and must set it up within ${TWO_FACTOR_SETUP_DAYS} days`
        : `Two-factor sign-in is off for ${target.username}: they sign in with their password and can turn it on again in Settings`;
      auditAction = 'user.2fa_reset';
    } else if (action === 'reset-password') {
      // password_changed_at refuses every access token issued before it, as a manager's reset does.
      await client.query(`UPDATE users SET password_hash = $2, password_changed_at = now() WHERE user_id = $1`, [target.user_id, hash]);
      message = `${target.username} has a new password`;
      auditAction = 'user.password_reset';
    } else {
      message = `${target.username} may sign in again (the lockout after failed sign-ins is cleared)`;
      auditAction = 'user.unlocked';
    }
    if (action !== 'unlock') {
      await client.query(`UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [target.user_id]);
    }
    const cleared = await client.query(`DELETE FROM auth_throttles WHERE key = $1`, [`u:${target.username.toLowerCase()}`]);
    if (action === 'unlock' && cleared.rowCount === 0) throw new RecoveryError(`${target.username} is not locked out`);

    const who = `${userInfo().username}@${hostname()}`;
    const what =
      action === 'reset-two-factor'
        ? target.totp_enabled_at
          ? `Two-factor sign-in of ${target.username} turned off`
          : `Two-factor set-up reopened for ${target.username} for ${TWO_FACTOR_SETUP_DAYS} days`
        : action === 'reset-password'
          ? `Password of ${target.username} reset`
          : `Sign-in lockout of ${target.username} cleared`;
    await client.query(
      `INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
       VALUES ($1, NULL, NULL, $2, 'user', $3, $4, $5)`,
      [
        target.organization_id,
        auditAction,
        String(target.user_id),
        `${what} from the server's command line (pnpm account ${action}, by ${who})`,
        JSON.stringify({ via: 'command_line', command: action, host: hostname(), os_user: userInfo().username }),
      ],
    );
    await client.query('COMMIT');
    return {
      username: target.username,
      role: target.role,
      organization_id: target.organization_id,
      message,
      ...(password !== undefined ? { password } : {}),
    };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}
