import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Calendar } from '../common/calendar.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import type { Run } from '../database/database.service.js';
import { isoDayOf, SUCCESSFUL } from '../metrics/period.js';
import { customersByDay, paymentsByDay, tokensByDay } from '../stats/totals.js';
import { collectorsSql, overdueBefore } from '../cash/cash.service.js';
import { CASH_OVERDUE_DAYS } from '@kidogo/contracts';

interface Reader {
  user_id: number;
  username: string;
  email: string;
  organization_id: string;
  organization_name: string | null;
}

/** One organization's day before, and what waits this morning. */
export interface DaySummary {
  payments: number;
  revenue: string;
  currency: string | null;
  codes: number;
  customers: number;
  held: number;
  tickets_open: number;
  promises_due: number;
  /** Cash users collected and have not handed over, by currency: how much, by how many, how many of them overdue. */
  cash: { currency: string; in_hand: string; holders: number; overdue: number }[];
}

const count = (n: number) => n.toLocaleString('en-US');
const money = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The morning's summary for owners and admins who asked for it: from
 * DAILY_SUMMARY_HOUR of each business day, one email each about the day
 * before (payments applied and their sum, codes issued, new customers, read
 * from the daily totals) and what waits (payments held, tickets open,
 * promises due today), queued in mail_outbox. Each user's day is claimed with
 * FOR UPDATE SKIP LOCKED and marked in the same transaction, so it goes once
 * whichever process looks first; a day missed (the server was down all
 * morning) is not sent late the next day, which has its own.
 */
@Injectable()
export class DailySummaryService {
  private readonly long: Intl.DateTimeFormat;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
  ) {
    this.long = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  }

  /** Queues the summaries due at `now`; how many. */
  async queueDue(now = new Date()): Promise<number> {
    const today = this.calendar.today(now);
    const hour = (now.getTime() - this.calendar.startOf(today).getTime()) / 3_600_000;
    if (hour < this.config.mail.dailySummaryHour) return 0;
    const todayIso = isoDayOf(today);
    return this.database.transaction(async (run) => {
      const readers = await run<Reader>(Prisma.sql`
        SELECT u.user_id, u.username, u.email, u.organization_id, o.name AS organization_name
        FROM users u JOIN organizations o ON o.organization_id = u.organization_id AND o.status = 'active'
        WHERE u.daily_summary_email AND u.is_active AND coalesce(u.email, '') <> '' AND u.role IN ('owner', 'admin', 'super_admin')
          AND (u.daily_summary_sent_on IS NULL OR u.daily_summary_sent_on < ${todayIso}::date)
        FOR UPDATE OF u SKIP LOCKED`);
      const byOrg = new Map<string, DaySummary>();
      for (const r of readers) {
        let summary = byOrg.get(r.organization_id);
        if (!summary) byOrg.set(r.organization_id, (summary = await this.summarize(run, r.organization_id, today, now)));
        const mail = this.compose(r, summary, today - 1);
        await run(Prisma.sql`
          INSERT INTO mail_outbox (user_id, to_address, subject, body) VALUES (${r.user_id}::int, ${r.email}, ${mail.subject}, ${mail.body})`);
        await run(Prisma.sql`UPDATE users SET daily_summary_sent_on = ${todayIso}::date WHERE user_id = ${r.user_id}::int`);
      }
      return readers.length;
    });
  }

  /** The organization's figures for the business day before `today`, and what waits now. */
  async summarize(run: Run, orgId: string, today: number, now = new Date()): Promise<DaySummary> {
    const day = { from: this.calendar.startOf(today - 1), until: this.calendar.startOf(today) };
    const cash = await run<DaySummary['cash'][number]>(Prisma.sql`
      SELECT currency, sum(in_hand::numeric)::numeric(20,2)::text AS in_hand, count(*)::int AS holders,
             count(*) FILTER (WHERE held_since <= ${overdueBefore(now.getTime())})::int AS overdue
      FROM (${collectorsSql(orgId, null)}) c WHERE in_hand::numeric > 0
      GROUP BY currency ORDER BY currency`);
    const [row] = await run<Omit<DaySummary, 'cash'>>(Prisma.sql`
      SELECT
        (SELECT coalesce(sum(n) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::int FROM ${paymentsByDay(orgId, day, this.calendar)} p) AS payments,
        (SELECT coalesce(sum(amount) FILTER (WHERE status IN ${SUCCESSFUL}), 0)::numeric(20,2)::text FROM ${paymentsByDay(orgId, day, this.calendar)} p) AS revenue,
        (SELECT currency FROM payments WHERE organization_id = ${orgId} AND status IN ${SUCCESSFUL} ORDER BY paid_at DESC LIMIT 1) AS currency,
        (SELECT coalesce(sum(n), 0)::int FROM ${tokensByDay(orgId, day, this.calendar)} t) AS codes,
        (SELECT coalesce(sum(n), 0)::int FROM ${customersByDay(orgId, day, this.calendar)} c) AS customers,
        (SELECT count(*)::int FROM payments WHERE organization_id = ${orgId} AND status = 'pending'::"PaymentStatus") AS held,
        (SELECT count(*)::int FROM service_tickets WHERE organization_id = ${orgId} AND status <> 'resolved') AS tickets_open,
        (SELECT count(*)::int FROM collection_contacts WHERE organization_id = ${orgId} AND outcome = 'promised_to_pay' AND NOT superseded
           AND promised_on = ${isoDayOf(today)}::date AND paid_at IS NULL) AS promises_due`);
    return { ...row!, cash };
  }

  private compose(r: Reader, s: DaySummary, day: number): { subject: string; body: string } {
    const date = this.long.format(new Date(`${isoDayOf(day)}T00:00:00Z`));
    const org = r.organization_name || r.organization_id;
    const link = this.config.publicUrl ? ['', `Open Kidogo: ${this.config.publicUrl}/dashboard`] : [];
    const body = [
      `Hello ${r.username},`,
      '',
      `Yesterday, ${date}, at ${org}:`,
      `- Payments applied: ${count(s.payments)}, ${s.currency ? `${s.currency} ` : ''}${money(s.revenue)}`,
      `- Codes issued: ${count(s.codes)}`,
      `- New customers: ${count(s.customers)}`,
      '',
      'Waiting this morning:',
      `- Payments held for matching: ${count(s.held)}`,
      `- Service tickets not resolved: ${count(s.tickets_open)}`,
      `- Promises to pay due today: ${count(s.promises_due)}`,
      ...s.cash.map(
        (c) =>
          `- Cash not handed over: ${c.currency} ${money(c.in_hand)}, held by ${count(c.holders)} ${c.holders === 1 ? 'user' : 'users'}` +
          (c.overdue ? ` (${count(c.overdue)} for more than ${CASH_OVERDUE_DAYS} days)` : ''),
      ),
      ...link,
      '',
      'You get this summary each morning because you asked for it in Kidogo (Notifications, What I Am Told Of). Turn it off there.',
    ].join('\n');
    return { subject: `Kidogo: ${org} on ${date}`, body };
  }
}
