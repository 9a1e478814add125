import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { cashText, collectorsSql, overdueBefore } from '../cash/cash.service.js';

/** A promise not kept is told of up to this many business days after its day (after a longer outage, not at all). */
export const BROKEN_PROMISE_LOOKBACK_DAYS = 3;

export interface NoticeSweepResult {
  organizations: number;
  /** Promise notifications written. */
  notified: number;
  /** payments_held notifications written. */
  held: number;
  /** cash_overdue notifications written. */
  cash: number;
}

const DAY_MS = 86_400_000;

/**
 * The notifications nobody's action writes, looked for every NOTICE_SWEEP_MS, only
 * for users still active in organizations that are active, of the kinds they did not turn off:
 *
 * - Promises to pay: whoever logged one (Collections → Log Contact) is told on
 *   the promised business day that it is due (unless it was logged that day,
 *   or is paid already), and after it that it was not kept (nothing paid by
 *   the day). Each promise once of each kind, whichever process sweeps first
 *   (the unique key of organization, contact and kind). A promise a newer one
 *   replaced is passed over, as Collections does.
 * - Held payments: each owner and admin (who can match them) is told of the
 *   payments held for matching since the last they were told of, in one
 *   notification (a month-end burst is one line, not hundreds), marked with the
 *   newest payment's id. A payment reversed back into the held list keeps its
 *   old id and is not told of again: whoever reversed it is an owner or admin.
 * - Cash held too long (Cash in Hand): a collector whose oldest cash not handed
 *   over was paid more than CASH_OVERDUE_DAYS days ago is told, and so is each
 *   owner and admin (a collector who left is still named to them: the cash is
 *   still out). Once per user of the oldest payment still held (a unique key):
 *   a handover that leaves cash overdue moves the oldest on and tells again of
 *   what is still held; one voided moves it back to a payment already told of.
 */
@Injectable()
export class NoticeSweepService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Notices');
  private timer: NodeJS.Timeout | null = null;
  private first: NodeJS.Timeout | null = null;
  private sweeping: Promise<NoticeSweepResult> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Writes every notification due at `now`; one sweep at a time per process. */
  sweep(now: Date = new Date()): Promise<NoticeSweepResult> {
    this.sweeping ??= this.run(now).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async run(now: Date): Promise<NoticeSweepResult> {
    const promises = await this.promises(now);
    const held = await this.heldPayments();
    const cash = await this.cashOverdue(now);
    return {
      organizations: promises.organizations + held.organizations + cash.organizations,
      notified: promises.notified,
      held: held.notified,
      cash: cash.notified,
    };
  }

  private async promises(now: Date): Promise<{ organizations: number; notified: number }> {
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
        WITH due AS (
          SELECT cc.organization_id, cc.user_id, cc.item_id, cc.contact_id, cc.promised_on, cc.created_at,
                 CASE WHEN cc.promised_on = ${today}::date THEN 'promise_due' ELSE 'promise_broken' END::"UserNotificationKind" AS kind
          FROM collection_contacts cc
          WHERE cc.organization_id = ${orgId} AND cc.outcome = 'promised_to_pay' AND NOT cc.superseded
            AND cc.promised_on BETWEEN ${from}::date AND ${today}::date AND cc.paid_at IS NULL
            AND (cc.promised_on < ${today}::date OR kidogo_day(cc.created_at) < ${today}::date)
        )
        INSERT INTO user_notifications (organization_id, user_id, kind, message, item_id, contact_id)
        SELECT d.organization_id, d.user_id, d.kind,
               CASE WHEN d.kind = 'promise_due'
                    THEN 'A promise to pay for ' || i.serial_number || ' is due today: you logged it on ' || to_char(kidogo_day(d.created_at), 'FMDD Mon YYYY')
                    ELSE 'A promise to pay for ' || i.serial_number || ' by ' || to_char(d.promised_on, 'FMDD Mon YYYY') || ' was not kept: nothing was paid by that day'
               END,
               d.item_id, d.contact_id
        FROM due d
        JOIN items i ON i.organization_id = d.organization_id AND i.item_id = d.item_id
        JOIN users u ON u.user_id = d.user_id AND u.organization_id = d.organization_id AND u.is_active
          AND NOT (d.kind = ANY(coalesce(u.muted_notification_kinds, ARRAY[]::"UserNotificationKind"[])))
        ON CONFLICT (organization_id, contact_id, kind) DO NOTHING
        RETURNING id`);
      notified += made.length;
    }
    return { organizations: orgs.length, notified };
  }

  private async heldPayments(): Promise<{ organizations: number; notified: number }> {
    // Each active organization with a held payment (index payments organization_id, status).
    const orgs = await this.database.query<{ organization_id: string }>(Prisma.sql`
      SELECT o.organization_id FROM organizations o
      WHERE o.status = 'active' AND EXISTS (
        SELECT 1 FROM payments p WHERE p.organization_id = o.organization_id AND p.status = 'pending'::"PaymentStatus")`);
    let notified = 0;
    for (const { organization_id: orgId } of orgs) {
      // Per owner and admin: the held payments newer than the last they were told of; one notification for them all.
      // The advisory lock keeps two processes from telling of the same payments at once.
      const made = await this.database.transaction(async (run) => {
        await run(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext('kidogo.held_notices'), hashtext(${orgId}))`);
        return run<{ id: number }>(Prisma.sql`
          WITH watchers AS (
            SELECT u.user_id,
                   coalesce((SELECT max(n.payment_id) FROM user_notifications n WHERE n.user_id = u.user_id AND n.kind = 'payments_held'), 0) AS mark
            FROM users u WHERE u.organization_id = ${orgId} AND u.is_active AND u.role IN ('owner', 'admin')
              AND NOT ('payments_held' = ANY(coalesce(u.muted_notification_kinds, ARRAY[]::"UserNotificationKind"[])))
          ), news AS (
            SELECT w.user_id, count(*)::int AS n, max(p.payment_id) AS newest
            FROM watchers w JOIN payments p ON p.organization_id = ${orgId} AND p.status = 'pending'::"PaymentStatus" AND p.payment_id > w.mark
            GROUP BY w.user_id
          )
          INSERT INTO user_notifications (organization_id, user_id, kind, message, payment_id)
          SELECT ${orgId}, x.user_id, 'payments_held',
                 CASE WHEN x.n = 1 THEN 'A payment of ' ELSE x.n || ' payments are held for matching; the newest: ' END ||
                   p.currency || ' ' || to_char(p.amount, 'FM999,999,999,990.00') ||
                   coalesce(' (receipt ' || p.transaction_code || ')', '') ||
                   CASE WHEN x.n = 1 THEN ' is held for matching' ELSE '' END,
                 x.newest
          FROM news x JOIN payments p ON p.organization_id = ${orgId} AND p.payment_id = x.newest
          RETURNING id`);
      });
      notified += made.length;
    }
    return { organizations: orgs.length, notified };
  }

  private async cashOverdue(now: Date): Promise<{ organizations: number; notified: number }> {
    const before = overdueBefore(now.getTime());
    // Each active organization where some cash recorded by hand was paid before the overdue line (the partial index
    // payments_cash_by_collector): those with none, the most, cost one probe.
    const orgs = await this.database.query<{ organization_id: string }>(Prisma.sql`
      SELECT o.organization_id FROM organizations o
      WHERE o.status = 'active' AND EXISTS (
        SELECT 1 FROM payments p
        WHERE p.organization_id = o.organization_id AND p.payment_method = 'cash' AND p.source = 'manual'
          AND p.collected_by IS NOT NULL AND p.paid_at <= ${before})`);
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: this.calendar.zone, day: 'numeric', month: 'short', year: 'numeric' });
    let notified = 0;
    for (const { organization_id: orgId } of orgs) {
      const rows = await this.database.query<{ username: string; currency: string; in_hand: string; held_since: Date | null }>(
        collectorsSql(orgId, null),
      );
      for (const r of rows) {
        if (!r.held_since || Number(r.in_hand) <= 0 || r.held_since > before) continue;
        const days = Math.floor((now.getTime() - r.held_since.getTime()) / DAY_MS);
        const held = `${cashText(r.currency, r.in_hand)} in cash for ${days} days (since ${day.format(r.held_since)})`;
        // The oldest payment still held: the first (by id) of those paid at that moment, so every sweep names the same one.
        const made = await this.database.query<{ id: number }>(Prisma.sql`
          WITH oldest AS (
            SELECT min(p.payment_id) AS payment_id FROM payments p
            WHERE p.organization_id = ${orgId} AND p.payment_method = 'cash' AND p.source = 'manual'
              AND p.collected_by = ${r.username} AND p.currency = ${r.currency} AND p.paid_at = ${r.held_since}
          )
          INSERT INTO user_notifications (organization_id, user_id, kind, message, collector, payment_id)
          SELECT ${orgId}, u.user_id, 'cash_overdue',
                 CASE WHEN u.username = ${r.username}
                      THEN ${`You have held ${held}: hand it over`}
                      ELSE ${`${r.username} has held ${held} without handing it over`} END,
                 ${r.username}, o.payment_id
          FROM oldest o JOIN users u ON u.organization_id = ${orgId} AND u.is_active
            AND (u.username = ${r.username} OR u.role IN ('owner', 'admin'))
            AND NOT ('cash_overdue' = ANY(coalesce(u.muted_notification_kinds, ARRAY[]::"UserNotificationKind"[])))
          WHERE o.payment_id IS NOT NULL
          ON CONFLICT (user_id, collector, payment_id) DO NOTHING
          RETURNING id`);
        notified += made.length;
      }
    }
    return { organizations: orgs.length, notified };
  }

  onApplicationBootstrap(): void {
    // The background work runs where the outbox does (OUTBOX_ENABLED): off on web-only processes.
    if (!this.config.outbox.enabled) return;
    // A first look soon after start, so a restart does not leave the bell a whole period (NOTICE_SWEEP_MS) behind.
    this.first = setTimeout(() => void this.sweep().catch((e) => this.logger.error(`notification sweep failed: ${(e as Error).message}`)), 5_000);
    this.first.unref();
    this.timer = setInterval(
      () =>
        void this.sweep()
          .then(
            (r) =>
              (r.notified || r.held || r.cash) &&
              this.logger.log(`${r.notified} promise, ${r.held} held-payment and ${r.cash} cash notification(s)`),
          )
          .catch((e) => this.logger.error(`notification sweep failed: ${(e as Error).message}`)),
      this.config.noticeSweepMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.first) clearTimeout(this.first);
    await this.sweeping?.catch(() => undefined);
  }
}
