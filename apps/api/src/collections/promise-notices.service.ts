import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';

/** How often each process looks (they share the work: a notification's key makes each once). */
const SWEEP_EVERY_MS = 10 * 60_000;
/** A promise not kept is told of up to this many business days after its day (after a longer outage, not at all). */
export const BROKEN_PROMISE_LOOKBACK_DAYS = 3;

export interface PromiseSweepResult {
  organizations: number;
  notified: number;
}

/**
 * Tells whoever logged a promise to pay (Collections → Log Contact) in their
 * own notifications: on the promised business day, that it is due (unless it
 * was logged that day, or is paid already), and after it, that it was not
 * kept (nothing paid by the day). Each promise is told of once of each kind,
 * whichever process sweeps first (the unique key of organization, contact and kind),
 * and only to a user still active. A promise superseded by a newer contact is
 * passed over, as Collections does.
 */
@Injectable()
export class PromiseNoticesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PromiseNotices');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<PromiseSweepResult> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Writes every promise notification due at `now`; one sweep at a time per process. */
  sweep(now: Date = new Date()): Promise<PromiseSweepResult> {
    this.sweeping ??= this.run(now).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async run(now: Date): Promise<PromiseSweepResult> {
    const todayNumber = this.calendar.today(now);
    const today = isoDayOf(todayNumber);
    const from = isoDayOf(todayNumber - BROKEN_PROMISE_LOOKBACK_DAYS);
    // Cross-organization by design, like the reminders' sweep: each active organization with a promise in the window.
    const orgs = await this.database.query<{ organization_id: string }>(Prisma.sql`
      SELECT o.organization_id FROM organizations o
      WHERE o.status = 'active' AND EXISTS (
        SELECT 1 FROM collection_contacts cc
        WHERE cc.organization_id = o.organization_id AND cc.outcome = 'promised_to_pay' AND NOT cc.superseded
          AND cc.promised_on BETWEEN ${from}::date AND ${today}::date AND cc.paid_at IS NULL)`);
    let notified = 0;
    for (const { organization_id: orgId } of orgs) {
      const made = await this.database.query<{ id: number }>(Prisma.sql`
        INSERT INTO user_notifications (organization_id, user_id, kind, message, item_id, contact_id)
        SELECT cc.organization_id, cc.user_id,
               CASE WHEN cc.promised_on = ${today}::date THEN 'promise_due' ELSE 'promise_broken' END::"UserNotificationKind",
               CASE WHEN cc.promised_on = ${today}::date
                    THEN 'A promise to pay for ' || i.serial_number || ' is due today: you logged it on ' || to_char(kidogo_day(cc.created_at), 'FMDD Mon YYYY')
                    ELSE 'A promise to pay for ' || i.serial_number || ' by ' || to_char(cc.promised_on, 'FMDD Mon YYYY') || ' was not kept: nothing was paid by that day'
               END,
               cc.item_id, cc.contact_id
        FROM collection_contacts cc
        JOIN items i ON i.organization_id = cc.organization_id AND i.item_id = cc.item_id
        JOIN users u ON u.user_id = cc.user_id AND u.organization_id = cc.organization_id AND u.is_active
        WHERE cc.organization_id = ${orgId} AND cc.outcome = 'promised_to_pay' AND NOT cc.superseded
          AND cc.promised_on BETWEEN ${from}::date AND ${today}::date AND cc.paid_at IS NULL
          AND (cc.promised_on < ${today}::date OR kidogo_day(cc.created_at) < ${today}::date)
        ON CONFLICT (organization_id, contact_id, kind) DO NOTHING
        RETURNING id`);
      notified += made.length;
    }
    return { organizations: orgs.length, notified };
  }

  onApplicationBootstrap(): void {
    // The background work runs where the outbox does (OUTBOX_ENABLED): off on web-only processes.
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(
      () =>
        void this.sweep()
          .then((r) => r.notified && this.logger.log(`${r.notified} promise notification(s) for ${r.organizations} organization(s)`))
          .catch((e) => this.logger.error(`promise sweep failed: ${(e as Error).message}`)),
      SWEEP_EVERY_MS,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }
}
