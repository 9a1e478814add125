import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { SessionList, SignOutReply } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { Prisma } from '../generated/prisma/client.js';
import type { AuthUser } from '../common/tenancy.js';

const MAX_LISTED = 100;
/** Refresh tokens used, revoked or expired this long ago are deleted: they answer 401 alike once gone. */
export const SPENT_REFRESH_TOKENS_KEPT_HOURS = 24;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 10_000;
const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;

interface SessionRow {
  session_id: string;
  signed_in_at: Date;
  last_active_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
}

/**
 * Where a user is signed in, and ending it (README "Signed-in devices"). A
 * session is a chain of refresh tokens under one session_id; it is live while
 * its latest token is neither used, revoked nor expired. Ending a session
 * revokes that token: the device cannot renew its access token, and the
 * session lookup of every request (sessionQuery) refuses the access tokens it
 * holds from the next request. Signing out everywhere also refuses every
 * access token issued before it (users.sessions_revoked_at).
 */
@Injectable()
export class SessionsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sessions');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Deletes spent refresh tokens (each refresh leaves one behind: a browser
   * in use, 96 a day), in batches, so a user's session list and the table
   * stay small. Any process may run it; answers how many went.
   */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const gone = await this.database.execute(Prisma.sql`
        DELETE FROM refresh_tokens WHERE id IN (
          SELECT id FROM refresh_tokens
          WHERE revoked_at < now() - make_interval(hours => ${SPENT_REFRESH_TOKENS_KEPT_HOURS}::int)
             OR expires_at < now() - make_interval(hours => ${SPENT_REFRESH_TOKENS_KEPT_HOURS}::int)
          LIMIT ${PRUNE_BATCH}::int)`);
      total += gone;
      if (gone < PRUNE_BATCH) return total;
    }
  }

  onApplicationBootstrap(): void {
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(() => void this.prune().catch((e) => this.logger.error(`pruning refresh tokens failed: ${(e as Error).message}`)), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async list(user: AuthUser): Promise<SessionList> {
    const rows = await this.database.query<SessionRow>(Prisma.sql`
      SELECT session_id::text AS session_id, signed_in_at, created_at AS last_active_at, expires_at, ip, user_agent
      FROM refresh_tokens
      WHERE user_id = ${user.user_id}::int AND revoked_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC, id
      LIMIT ${MAX_LISTED}::int`);
    return {
      data: rows.map((r) => ({
        session_id: r.session_id,
        signed_in_at: new Date(r.signed_in_at).toISOString(),
        last_active_at: new Date(r.last_active_at).toISOString(),
        expires_at: new Date(r.expires_at).toISOString(),
        ip: r.ip,
        user_agent: r.user_agent,
        current: r.session_id === user.session_id,
      })),
    };
  }

  /** Ends one of the caller's own sessions (another device, or this one). */
  async end(user: AuthUser, sessionId: string): Promise<SignOutReply> {
    const ended = await this.revoke(Prisma.sql`user_id = ${user.user_id}::int AND session_id = ${sessionId}::uuid`);
    if (!ended) throw Errors.notFound('Session');
    await this.recordOwn(user, `signed out of a device${sessionId === user.session_id ? ' (this one)' : ''}`, { session_id: sessionId });
    return { message: 'Signed out of that device', sessions_ended: 1 };
  }

  /** Ends every session of the caller but the one of this request. */
  async endOthers(user: AuthUser): Promise<SignOutReply> {
    const keep = user.session_id ? Prisma.sql`AND session_id <> ${user.session_id}::uuid` : Prisma.empty;
    const ended = await this.revoke(Prisma.sql`user_id = ${user.user_id}::int ${keep}`);
    await this.recordOwn(user, `signed out everywhere else (${sessions(ended)})`, { sessions_ended: ended });
    return { message: `Signed out everywhere else (${sessions(ended)})`, sessions_ended: ended };
  }

  /** Ends every session of the caller, this one included, and refuses every access token they hold at once. */
  async endEverywhere(user: AuthUser): Promise<SignOutReply> {
    const ended = await this.everywhere(user, { user_id: user.user_id, username: user.username, organization_id: user.organization_id }, 'signed out everywhere');
    return { message: `Signed out everywhere (${sessions(ended)})`, sessions_ended: ended };
  }

  /**
   * A manager signs a user of the organization out everywhere (a lost or
   * stolen phone): every session ends and every access token they hold is
   * refused from the next request. API tokens are a credential of their own
   * and go on working (revoke them in Settings → API Tokens).
   */
  async endForUser(actor: AuthUser, orgId: string, id: number, check: (target: { role: AuthUser['role'] }) => void): Promise<SignOutReply> {
    const [target] = await this.database.query<{ user_id: number; username: string; role: AuthUser['role']; organization_id: string }>(Prisma.sql`
      SELECT user_id, username, role::text AS role, organization_id FROM users WHERE user_id = ${id}::int AND organization_id = ${orgId}`);
    if (!target) throw Errors.notFound('User');
    check(target);
    if (target.user_id === actor.user_id) throw Errors.conflict('To sign yourself out everywhere, use Settings → Signed-In Devices');
    const ended = await this.everywhere(actor, target, `signed out everywhere by ${actor.username}`);
    return { message: `${target.username} is signed out everywhere (${sessions(ended)})`, sessions_ended: ended };
  }

  private async everywhere(actor: AuthUser, target: { user_id: number; username: string; organization_id: string }, how: string): Promise<number> {
    return this.database.platform.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE users SET sessions_revoked_at = now() WHERE user_id = ${target.user_id}::int`;
      const ended = await tx.$executeRaw`
        UPDATE refresh_tokens SET revoked_at = now()
        WHERE user_id = ${target.user_id}::int AND revoked_at IS NULL AND expires_at > now()`;
      await this.audit.record(
        {
          organizationId: target.organization_id,
          actor,
          action: 'user.signed_out',
          entityType: 'user',
          entityId: target.user_id,
          description: `${target.username} ${how} (${sessions(ended)})`,
          metadata: { sessions_ended: ended, everywhere: true },
        },
        tx,
      );
      return ended;
    });
  }

  /** The audit entry of a user ending their own sessions. */
  private recordOwn(user: AuthUser, what: string, metadata: Record<string, string | number>): Promise<void> {
    return this.audit.record({
      organizationId: user.organization_id,
      actor: user,
      action: 'user.signed_out',
      entityType: 'user',
      entityId: user.user_id,
      description: `${user.username} ${what}`,
      metadata,
    });
  }

  /** Revokes the live refresh tokens matching `where`; answers how many sessions that ended. */
  private revoke(where: Prisma.Sql): Promise<number> {
    return this.database.execute(Prisma.sql`
      UPDATE refresh_tokens SET revoked_at = now()
      WHERE ${where} AND revoked_at IS NULL AND expires_at > now()`);
  }
}
