import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ReminderSettings, ReminderSettingsInput } from '@kidogo/contracts';
import { formatCreditReminder, normalizePhone, replyLanguage } from '@kidogo/mobile-money';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AuditService } from '../audit/audit.service.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { SmsProviderService } from '../settings/sms-provider.service.js';
import { devicePlanJoin } from '../templates/device-plan.js';

/** Devices reminded per statement; a sweep goes on until an organization has none left. */
export const REMINDER_BATCH = 500;
/** How often each process sweeps (they share the work: the key of credit_reminders makes each reminder once). */
const SWEEP_EVERY_MS = 5 * 60_000;

interface DueOrganization {
  organization_id: string;
  reply_language: string;
  reminder_days_before: number;
  phone_country_code: string;
}

interface DueDevice {
  item_id: number;
  credit_until: Date;
  customer_id: number;
  serial_number: string;
  customer_name: string | null;
  phone_normalized: string | null;
  phone_contact: string | null;
  daily_price: string | null;
  currency: string | null;
}

export interface SweepResult {
  organizations: number;
  reminded: number;
}

/**
 * Payment reminders: a few business days (0-7) before a device's credit runs
 * out, at or after an hour of the business day, one SMS to its customer
 * saying when and what to pay, queued in messages for the outbox like the
 * token replies. Each device is reminded once per date its credit runs out
 * on (credit_reminders' key), whichever process sweeps first; a payment that
 * moves it to another day opens a new reminder. Only organizations that are active
 * and can send SMS get them: a reminder that could wait in the queue for a
 * provider would arrive after the fact.
 */
@Injectable()
export class RemindersService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Reminders');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<SweepResult> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly sms: SmsProviderService,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async read(orgId: string): Promise<ReminderSettings> {
    const org = await this.database.db.organization.findUnique({
      where: { id: orgId },
      select: { reminders_enabled: true, reminder_days_before: true, reminder_hour: true, reply_language: true },
    });
    if (!org) throw Errors.notFound('Organization');
    const [sent] = await this.database.query<{ n: number; last: Date | null }>(Prisma.sql`
      SELECT count(*)::int AS n, max(created_at) AS last FROM credit_reminders
      WHERE organization_id = ${orgId} AND created_at > now() - interval '30 days'`);
    const language = replyLanguage(org.reply_language);
    const today = this.calendar.today();
    return {
      enabled: org.reminders_enabled,
      days_before: org.reminder_days_before,
      send_hour: org.reminder_hour,
      time_zone: this.calendar.zone,
      language,
      can_send: (await this.sms.routeFor(orgId)) !== null,
      preview: formatCreditReminder({
        language,
        customerName: 'Grace Achieng',
        serialNumber: 'SHS-0042',
        creditEndsOn: isoDayOf(today + org.reminder_days_before),
        daysLeft: org.reminder_days_before,
        dailyPrice: '50.00',
        currency: 'KES',
      }),
      sent_30_days: sent?.n ?? 0,
      last_sent_at: sent?.last ? sent.last.toISOString() : null,
    };
  }

  async update(orgId: string, user: AuthUser, input: ReminderSettingsInput): Promise<ReminderSettings> {
    const data = {
      ...(input.enabled !== undefined ? { reminders_enabled: input.enabled } : {}),
      ...(input.days_before !== undefined ? { reminder_days_before: input.days_before } : {}),
      ...(input.send_hour !== undefined ? { reminder_hour: input.send_hour } : {}),
    };
    await this.database.db.$transaction(async (tx) => {
      const org = await tx.organization.update({ where: { id: orgId }, data });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'reminders.update',
          entityType: 'organization',
          entityId: orgId,
          description: org.reminders_enabled
            ? `Payment reminders on: ${org.reminder_days_before === 0 ? 'on the day' : `${org.reminder_days_before} day(s) before`} the credit runs out, from ${String(org.reminder_hour).padStart(2, '0')}:00, set by ${user.username}`
            : `Payment reminders off, set by ${user.username}`,
        },
        tx,
      );
    });
    return this.read(orgId);
  }

  /** Makes every reminder due at `now`; one sweep at a time per process. */
  sweep(now: Date = new Date()): Promise<SweepResult> {
    this.sweeping ??= this.run(now).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async run(now: Date): Promise<SweepResult> {
    const today = this.calendar.today(now);
    const hour = Math.floor((now.getTime() - this.calendar.startOf(today).getTime()) / 3_600_000);
    // Cross-organization by design, like the outbox: the sweep serves every organization that has reminders on.
    const due = await this.database.platform.$queryRaw<DueOrganization[]>`
      SELECT organization_id, reply_language, reminder_days_before, phone_country_code FROM organizations
      WHERE reminders_enabled AND status = 'active' AND reminder_hour <= ${hour}::int
      ORDER BY organization_id`;
    const result: SweepResult = { organizations: 0, reminded: 0 };
    for (const org of due) {
      if (!(await this.sms.routeFor(org.organization_id))) continue;
      result.organizations++;
      const day = today + org.reminder_days_before;
      const from = this.calendar.startOf(day);
      const to = this.calendar.startOf(day + 1);
      let after: { since: Date; itemId: number } | null = null;
      for (;;) {
        const made = await this.remindBatch(org, now, { from, to, after }, day - today, isoDayOf(day));
        result.reminded += made.reminded;
        if (!made.last) break;
        after = made.last;
      }
    }
    return result;
  }

  /**
   * One batch of an organization's devices whose credit runs out in [from,
   * to) and after now, not yet reminded for that date: found through
   * open_accounts (the devices given and not paid off, by when their credit
   * runs out), then written with their messages in one statement.
   */
  private async remindBatch(
    org: DueOrganization,
    now: Date,
    span: { from: Date; to: Date; after: { since: Date; itemId: number } | null },
    daysLeft: number,
    endsOn: string,
  ): Promise<{ reminded: number; last: { since: Date; itemId: number } | null }> {
    const orgId = org.organization_id;
    const { from, to, after } = span;
    // The batch's keys first, each device's reminder looked up by its key (a LATERAL probe: whatever
    // PostgreSQL believes of credit_reminders' size, never a scan of the day's reminders per device),
    // then their details; a full batch may have more after its last key.
    const keys = await this.database.query<{ item_id: number; since: Date }>(Prisma.sql`
      SELECT o.item_id, o.since FROM open_accounts o
      LEFT JOIN LATERAL (
        SELECT true AS done FROM credit_reminders r
        WHERE r.organization_id = o.organization_id AND r.item_id = o.item_id AND r.ends_on = ${endsOn}::date
        LIMIT 1
      ) r ON true
      WHERE o.organization_id = ${orgId} AND o.since >= ${from}::timestamptz AND o.since < ${to}::timestamptz
        AND o.since > ${now}::timestamptz AND r.done IS NULL
        ${after ? Prisma.sql`AND (o.since, o.item_id) > (${after.since}::timestamptz, ${after.itemId}::int)` : Prisma.empty}
      ORDER BY o.since, o.item_id
      LIMIT ${REMINDER_BATCH}::int`);
    const tail = keys.at(-1);
    const last = keys.length === REMINDER_BATCH && tail ? { since: tail.since, itemId: tail.item_id } : null;
    if (!keys.length) return { reminded: 0, last };
    const devices = await this.database.query<DueDevice>(Prisma.sql`
      SELECT i.item_id, i.credit_until, i.customer_id, i.serial_number, c.customer_name, c.phone_normalized,
             c.phone_contact, t.daily_price::text AS daily_price, t.currency
      FROM items i
      JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
      ${devicePlanJoin()}
      WHERE i.organization_id = ${orgId} AND i.item_id = ANY(${keys.map((k) => k.item_id)}::int[]) AND c.sms_opted_out_at IS NULL
        -- Not while the device is being repaired (a service ticket not resolved yet): found again once it is.
        AND NOT EXISTS (SELECT 1 FROM service_tickets st
                        WHERE st.organization_id = i.organization_id AND st.item_id = i.item_id AND st.status <> 'resolved')
        AND i.credit_until >= ${from}::timestamptz AND i.credit_until < ${to}::timestamptz AND i.credit_until > ${now}::timestamptz
      ORDER BY i.credit_until, i.item_id`);
    const language = replyLanguage(org.reply_language);
    const rows = devices.flatMap((d) => {
      const phone = d.phone_normalized ?? (d.phone_contact ? normalizePhone(d.phone_contact, org.phone_country_code) : null) ?? d.phone_contact?.trim();
      if (!phone) return [];
      const text = formatCreditReminder({
        language,
        customerName: d.customer_name,
        serialNumber: d.serial_number,
        creditEndsOn: endsOn,
        daysLeft,
        dailyPrice: d.daily_price,
        currency: d.currency,
      });
      return [{ ...d, phone, text }];
    });
    // Devices without a phone number, whose customer texted STOP or that are being repaired are passed over (and found again by the next sweep).
    if (!rows.length) return { reminded: 0, last };
    const made = await this.database.query<{ message_id: number }>(Prisma.sql`
      WITH input AS (
        SELECT u.*, nextval(pg_get_serial_sequence('messages', 'message_id'))::int AS message_id
        FROM unnest(${rows.map((r) => r.item_id)}::int[], ${rows.map((r) => r.credit_until)}::timestamptz[],
                    ${rows.map((r) => r.customer_id)}::int[], ${rows.map((r) => r.text)}::text[], ${rows.map((r) => r.phone)}::text[])
             AS u(item_id, credit_until, customer_id, text, phone)
      ),
      claimed AS (
        INSERT INTO credit_reminders (organization_id, item_id, ends_on, credit_until, customer_id, message_id)
        SELECT ${orgId}, item_id, ${endsOn}::date, credit_until, customer_id, message_id FROM input
        ON CONFLICT DO NOTHING
        RETURNING message_id
      )
      INSERT INTO messages (message_id, organization_id, forwarded_message, recipient_number, delivery_status, item_id, status)
      SELECT c.message_id, ${orgId}, i.text, i.phone, 'queued'::"DeliveryStatus", i.item_id, 'processed'::"MessageStatus"
      FROM claimed c JOIN input i ON i.message_id = c.message_id
      RETURNING message_id`);
    return { reminded: made.length, last };
  }

  onApplicationBootstrap(): void {
    // The background work runs where the outbox does (OUTBOX_ENABLED): off on web-only processes.
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(
      () =>
        void this.sweep()
          .then((r) => r.reminded && this.logger.log(`${r.reminded} payment reminder(s) queued for ${r.organizations} organization(s)`))
          .catch((e) => this.logger.error(`reminder sweep failed: ${(e as Error).message}`)),
      SWEEP_EVERY_MS,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }
}
