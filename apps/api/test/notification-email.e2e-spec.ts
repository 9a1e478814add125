import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZNotificationSettingsSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeSmtp } from './support/fake-smtp.js';
import { seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { NotificationEmailService } from '../src/notifications/notification-email.service.js';
import { MailOutboxService } from '../src/mail/mail-outbox.service.js';
import { DailySummaryService } from '../src/notifications/daily-summary.service.js';
import { Calendar } from '../src/common/calendar.js';
import { seedItem, seedPayment, seedTokenLog } from './support/factories.js';

// A user's own notifications, also by email (README "Your notifications").

describe('notifications by email', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await new FakeSmtp().start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://payg.example.test', TIME_ZONE: 'Africa/Nairobi' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const emailOf = async (u: SeededUser) => (await t.db.platform.user.findUniqueOrThrow({ where: { id: u.user_id } })).email!;
  const put = (u: SeededUser, body: object) => t.http.put('/payg/me/notification-settings').set(u.auth).send(body);
  /** A notification as the API writes one (the ticket and payment ones need rows of their own; the text is what is mailed). */
  const notify = async (u: SeededUser, kind: string, message: string, read = false) =>
    (
      await t.db.pool.query(
        `INSERT INTO user_notifications (organization_id, user_id, kind, message, read_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [u.organization_id, u.user_id, kind, message, read ? new Date() : null],
      )
    ).rows[0].id as number;
  const tick = () => t.app.get(NotificationEmailService).tick();
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));

  it('emails the chosen kinds, new and unread, in one digest, once; the settings say where they go', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const email = await emailOf(tech);
    await notify(tech, 'ticket_assigned', 'Ticket #1 on SHS-0001 (Device fault) was assigned to you by juma');

    const chosen = ZNotificationSettingsSchema.parse(
      (await put(tech, { muted: ['ticket_noted'], emailed: ['payment_request_answered', 'ticket_assigned', 'ticket_assigned'] }).expect(200)).body,
    ).data;
    expect(chosen).toEqual({ muted: ['ticket_noted'], emailed: ['ticket_assigned', 'payment_request_answered'], email, email_available: true, daily_summary: false });

    // What came before emailing was turned on is not emailed; of what comes after, the chosen kinds not read yet.
    await notify(tech, 'ticket_assigned', 'Ticket #2 on SHS-0002 (Installation) was assigned to you by juma');
    await notify(tech, 'ticket_resolved', 'Ticket #3 on SHS-0003 was resolved by juma');
    await notify(tech, 'payment_request_answered', 'The customer of SHS-0004 paid KES 500.00 (receipt RK12ABC): 10 days');
    await notify(tech, 'ticket_assigned', 'Ticket #5 on SHS-0005 was assigned to you by juma', true);
    await notify(owner, 'ticket_assigned', 'Ticket #6 was assigned to the owner');

    expect(await tick()).toEqual({ queued: 1, sent: 1 });
    const [mail, ...more] = mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Kidogo: 2 new notifications');
    expect(mail!.text).toContain(`Hello ${tech.username},`);
    expect(mail!.text).toMatch(/- Ticket #2 on SHS-0002 \(Installation\) was assigned to you by juma \(\d{1,2} \w{3} \d{4}, \d{2}:\d{2}\)/);
    expect(mail!.text).toContain('- The customer of SHS-0004 paid KES 500.00 (receipt RK12ABC): 10 days');
    expect(mail!.text).not.toContain('Ticket #1 ');
    expect(mail!.text).not.toContain('Ticket #3 ');
    expect(mail!.text).not.toContain('Ticket #5 ');
    expect(mail!.text).toContain('See them in Kidogo: https://payg.example.test/notifications');
    // The owner chose nothing: nothing to them.
    expect(mailsTo(await emailOf(owner))).toHaveLength(0);

    // Once: the next look finds nothing new; one new notification is its own subject.
    expect(await tick()).toEqual({ queued: 0, sent: 0 });
    await notify(tech, 'ticket_assigned', 'Ticket #7 on SHS-0007 was assigned to you by amina');
    expect((await tick()).queued).toBe(1);
    expect(mailsTo(email)[1]!.subject).toBe('Kidogo: Ticket #7 on SHS-0007 was assigned to you by amina');

    // Emailing off: nothing more, and muted stays as it was when emailed is left out.
    expect(ZNotificationSettingsSchema.parse((await put(tech, { muted: ['ticket_noted'], emailed: [] }).expect(200)).body).data.emailed).toEqual([]);
    expect(ZNotificationSettingsSchema.parse((await put(tech, { muted: [] }).expect(200)).body).data).toMatchObject({ muted: [], emailed: [] });
    await notify(tech, 'ticket_assigned', 'Ticket #8 was assigned to you');
    expect((await tick()).queued).toBe(0);
  });

  it('keeps a mail the server would not take and tries again later, and writes each digest once with two processes', async () => {
    const { org } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const email = await emailOf(tech);
    await put(tech, { muted: [], emailed: ['ticket_assigned'] }).expect(200);
    await notify(tech, 'ticket_assigned', 'Ticket #20 was assigned to you');

    const down = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      expect(await down.app.get(NotificationEmailService).tick()).toEqual({ queued: 1, sent: 0 });
    } finally {
      await down.close();
    }
    const [queued] = await t.db.platform.mailOutbox.findMany({ where: { user_id: tech.user_id } });
    expect(queued).toMatchObject({ to_address: email, attempts: 1, sent_at: null, failed_at: null, last_error: expect.stringContaining('ECONNREFUSED') });
    expect(queued!.next_attempt_at.getTime() - Date.now()).toBeGreaterThan(20_000);
    expect(mailsTo(email)).toHaveLength(0);

    // Its time comes: sent, once.
    await t.db.platform.mailOutbox.update({ where: { id: queued!.id }, data: { next_attempt_at: new Date() } });
    expect(await t.app.get(MailOutboxService).drain()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect((await smtp.mailTo(email)).subject).toBe('Kidogo: Ticket #20 was assigned to you');
    expect(await t.db.platform.mailOutbox.findUniqueOrThrow({ where: { id: queued!.id } })).toMatchObject({ attempts: 2, last_error: null });

    // Two processes looking at once: one digest.
    const second = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: smtp.url } });
    try {
      await notify(tech, 'ticket_assigned', 'Ticket #21 was assigned to you');
      const [a, b] = await Promise.all([t.app.get(NotificationEmailService).digest(), second.app.get(NotificationEmailService).digest()]);
      expect(a + b).toBe(1);
      await Promise.all([t.app.get(MailOutboxService).drain(), second.app.get(MailOutboxService).drain()]);
      await smtp.mailTo(email, 10_000, 1);
      await new Promise((r) => setTimeout(r, 200));
      expect(mailsTo(email).map((m) => m.subject)).toEqual(['Kidogo: Ticket #20 was assigned to you', 'Kidogo: Ticket #21 was assigned to you']);
    } finally {
      await second.close();
    }
  });

  it('emails nobody deactivated or of a suspended organization; refuses email without an address or a mail server', async () => {
    const { org } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const other = await seedUser(t, { organization_id: org.id, role: 'admin' });
    await put(tech, { muted: [], emailed: ['ticket_assigned'] }).expect(200);
    await put(other, { muted: [], emailed: ['ticket_assigned'] }).expect(200);
    await t.db.platform.user.update({ where: { id: tech.user_id }, data: { is_active: false } });
    await notify(tech, 'ticket_assigned', 'Ticket #30 was assigned to you');
    await t.db.platform.organization.update({ where: { id: org.id }, data: { status: 'suspended' } });
    await notify(other, 'ticket_assigned', 'Ticket #31 was assigned to you');
    await tick();
    expect(smtp.mails.filter((m) => /Ticket #3[01] /.test(m.text))).toHaveLength(0);
    await t.db.platform.organization.update({ where: { id: org.id }, data: { status: 'active' } });

    const noEmail = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.db.platform.user.update({ where: { id: noEmail.user_id }, data: { email: null } });
    const refused = await put(noEmail, { muted: [], emailed: ['ticket_assigned'] }).expect(409);
    expect(refused.body.detail).toBe('Your account has no email address: ask an owner or admin to add one (Settings → Team → Edit)');
    const bad = await put(noEmail, { muted: [], emailed: ['everything'] }).expect(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'emailed.0' });
    expect(ZNotificationSettingsSchema.parse((await t.http.get('/payg/me/notification-settings').set(noEmail.auth).expect(200)).body).data).toEqual({
      muted: [],
      emailed: [],
      email: null,
      email_available: true,
      daily_summary: false,
    });

    const bare = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: '' } });
    try {
      const r = await bare.http.put('/payg/me/notification-settings').set(other.auth).send({ muted: [], emailed: ['ticket_assigned'] }).expect(409);
      expect(r.body.detail).toBe('Email is not set up on this installation (SMTP_URL): notifications reach the bell only');
      expect((await bare.http.get('/payg/me/notification-settings').set(other.auth).expect(200)).body.data.email_available).toBe(false);
      // Emailing nothing is always allowed.
      await bare.http.put('/payg/me/notification-settings').set(other.auth).send({ muted: [], emailed: [] }).expect(200);
    } finally {
      await bare.close();
    }
  });

  it('emails an owner who asked for it a summary of the day before, once each morning from the hour set', async () => {
    const { org, user: owner } = await seedTenant(t);
    await t.db.platform.organization.update({ where: { id: org.id }, data: { name: 'Jua Solar' } });
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const calendar = t.app.get(Calendar);
    const today = calendar.today();
    const at = (day: number, hours: number) => new Date(calendar.startOf(day).getTime() + hours * 3_600_000);
    const item = await seedItem(t, org.id);
    // The day before: two payments applied, one failed, one code; and one held now, from today.
    await seedPayment(t, org.id, { amount: '500.00', paid_at: at(today - 1, 9) });
    await seedPayment(t, org.id, { amount: '250.50', status: 'success', paid_at: at(today - 1, 18) });
    await seedPayment(t, org.id, { amount: '99.00', status: 'failed', paid_at: at(today - 1, 10) });
    await seedPayment(t, org.id, { amount: '75.00', paid_at: at(today - 2, 12) });
    await seedPayment(t, org.id, { amount: '40.00', status: 'pending', paid_at: at(today, 1) });
    await seedTokenLog(t, org.id, item, { created_at: at(today - 1, 11) });
    // Cash the staff user took and has not handed over: 300 ten days ago (overdue), 200 the day before.
    const cash = { payment_method: 'cash', source: 'manual', recorded_by: staff.username, collected_by: staff.username, transaction_code: null };
    await seedPayment(t, org.id, { ...cash, amount: '300.00', paid_at: at(today - 10, 9) });
    await seedPayment(t, org.id, { ...cash, amount: '200.00', paid_at: at(today - 1, 9) });

    expect(ZNotificationSettingsSchema.parse((await put(owner, { muted: [], daily_summary: true }).expect(200)).body).data).toMatchObject({ daily_summary: true, emailed: [] });
    const refused = await put(staff, { muted: [], daily_summary: true }).expect(403);
    expect(refused.body.detail).toBe('The daily summary is for owners and admins: it tells of the whole organization');
    await put(admin, { muted: [], daily_summary: false }).expect(200);

    const summaries = t.app.get(DailySummaryService);
    // Before the hour (7 in the business time zone): nothing yet.
    expect(await summaries.queueDue(at(today, 6.5))).toBe(0);
    expect(await summaries.queueDue(at(today, 8))).toBe(1);
    expect(await summaries.queueDue(at(today, 9))).toBe(0);
    await t.app.get(MailOutboxService).drain();
    const mail = await smtp.mailTo(await emailOf(owner));
    expect(mail.subject).toMatch(/^Kidogo: Jua Solar on \w+day, \d{1,2} \w+ \d{4}$/);
    expect(mail.text).toMatch(/Yesterday, \w+day, \d{1,2} \w+ \d{4}, at Jua Solar:/);
    expect(mail.text).toMatch(/- Payments applied: 3, (\w{3} )?950\.50/);
    expect(mail.text).toContain('- Codes issued: 1');
    expect(mail.text).toContain('- Payments held for matching: 1');
    expect(mail.text).toContain('- Service tickets not resolved: 0');
    expect(mail.text).toContain('- Cash not handed over: KES 500.00, held by 1 user (1 for more than 3 days)');
    expect(mail.text).toContain('Open Kidogo: https://payg.example.test/dashboard');
    expect(mailsTo(await emailOf(admin))).toHaveLength(0);

    // The next morning has its own.
    expect(await summaries.queueDue(at(today + 1, 7.5))).toBe(1);
    // Turned off: no more.
    await put(owner, { muted: [], daily_summary: false }).expect(200);
    expect(await summaries.queueDue(at(today + 2, 8))).toBe(0);
  });
});
