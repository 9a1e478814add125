import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { UserNotificationKind } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { MailerService } from '../mail/mailer.service.js';
import { MailOutboxService } from '../mail/mail-outbox.service.js';
import { DailySummaryService } from './daily-summary.service.js';

/** The most notifications one digest lists; more wait for the next. */
export const DIGEST_MAX = 50;

interface Watcher {
  user_id: number;
  username: string;
  email: string;
  kinds: UserNotificationKind[];
  through: number;
}

interface Notice {
  id: number;
  kind: UserNotificationKind;
  message: string;
  created_at: Date;
  read_at: Date | null;
}

/**
 * A user's notifications by email: every NOTIFICATION_EMAIL_MS, each user
 * who chose kinds to be emailed (and has an email address, in an active
 * organization) gets one email listing their new notifications of those
 * kinds not read yet, queued in mail_outbox with the cursor moved past them
 * in the same transaction, then the queue is sent. A user row is claimed with
 * FOR UPDATE SKIP LOCKED, so two processes never write the same digest.
 */
@Injectable()
export class NotificationEmailService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NotificationEmail');
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  private readonly when: Intl.DateTimeFormat;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly mailer: MailerService,
    private readonly outbox: MailOutboxService,
    private readonly summaries: DailySummaryService,
  ) {
    this.when = new Intl.DateTimeFormat('en-GB', { timeZone: config.timeZone, dateStyle: 'medium', timeStyle: 'short' });
  }

  /** Queues the digests and the morning's summaries due, then sends the queue. */
  async tick(): Promise<{ queued: number; sent: number }> {
    const queued = (await this.digest()) + (await this.summaries.queueDue());
    const { sent } = await this.outbox.drain();
    return { queued, sent };
  }

  /** Writes each due user's digest to mail_outbox; the number written. */
  async digest(): Promise<number> {
    return this.database.transaction(async (run) => {
      // Cross-organization by design, like the other sweeps: the few users who chose email (a partial index).
      const watchers = await run<Watcher>(Prisma.sql`
        SELECT u.user_id, u.username, u.email, u.emailed_notification_kinds::text[] AS kinds,
               coalesce(u.notifications_emailed_through, 0) AS through
        FROM users u
        WHERE cardinality(u.emailed_notification_kinds) > 0 AND u.is_active AND coalesce(u.email, '') <> ''
          AND EXISTS (SELECT 1 FROM organizations o WHERE o.organization_id = u.organization_id AND o.status = 'active')
        FOR UPDATE OF u SKIP LOCKED`);
      let queued = 0;
      for (const w of watchers) {
        const seen = await run<Notice>(Prisma.sql`
          SELECT id, kind::text AS kind, message, created_at, read_at FROM user_notifications
          WHERE user_id = ${w.user_id}::int AND id > ${w.through}::int
          ORDER BY id LIMIT ${DIGEST_MAX + 1}`);
        if (!seen.length) continue;
        const looked = seen.slice(0, DIGEST_MAX);
        const news = looked.filter((n) => n.read_at === null && w.kinds.includes(n.kind));
        if (news.length) {
          const mail = this.compose(w, news);
          await run(Prisma.sql`
            INSERT INTO mail_outbox (user_id, to_address, subject, body) VALUES (${w.user_id}::int, ${w.email}, ${mail.subject}, ${mail.body})`);
          queued++;
        }
        await run(Prisma.sql`UPDATE users SET notifications_emailed_through = ${looked.at(-1)!.id}::int WHERE user_id = ${w.user_id}::int`);
      }
      return queued;
    });
  }

  private compose(w: Watcher, news: Notice[]): { subject: string; body: string } {
    const first = news[0]!.message;
    const subject = news.length === 1 ? `Kidogo: ${first.length > 180 ? `${first.slice(0, 179)}…` : first}` : `Kidogo: ${news.length} new notifications`;
    const link = this.config.publicUrl ? [`See them in Kidogo: ${this.config.publicUrl}/notifications`, ''] : [];
    const body = [
      `Hello ${w.username},`,
      '',
      ...news.map((n) => `- ${n.message} (${this.when.format(n.created_at)})`),
      '',
      ...link,
      'You are emailed these because you chose to be, in Kidogo (Notifications, What I Am Told Of). Turn the emails off there.',
    ].join('\n');
    return { subject, body };
  }

  onApplicationBootstrap(): void {
    // Where the background work runs (OUTBOX_ENABLED), and only with a mail server to send through.
    if (!this.config.outbox.enabled || !this.mailer.enabled) return;
    this.timer = setInterval(() => {
      this.ticking ??= this.tick()
        .then((r) => r.queued && this.logger.log(`${r.queued} notification digest(s) queued, ${r.sent} mail(s) sent`))
        .catch((e) => this.logger.error(`notification email failed: ${(e as Error).message}`))
        .finally(() => (this.ticking = null));
    }, this.config.mail.notificationEmailMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.ticking?.catch(() => undefined);
  }
}
