import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SeedService } from '../src/seed/seed.service.js';
import { Calendar } from '../src/common/calendar.js';
import { isoDayOf } from '../src/metrics/period.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('first start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('creates the super admin and a demo organization filled through the real services, once', async () => {
    const lines = await t.app.get(SeedService).run();
    expect(lines.join('\n')).toMatch(/Demo sign-in: super admin admin \/ admin123, organization owner demo \/ demo1234, technician baraka \/ baraka123/);

    const admin = await t.http.post('/payg/authenticate').type('form').send({ username: 'admin', password: 'admin123' }).expect(200);
    expect(admin.body.user.role).toBe('super_admin');
    const owner = await t.http.post('/payg/authenticate').type('form').send({ username: 'demo', password: 'demo1234' }).expect(200);
    const auth = { Authorization: `Bearer ${owner.body.access_token}` };

    const customers = await t.http.get('/payg/registered-customers').set(auth).expect(200);
    expect(customers.body.pagination.total).toBeGreaterThanOrEqual(15);
    const products = await t.http.get('/payg/products/summary').set(auth).expect(200);
    expect(products.body.data.assigned_products).toBeGreaterThan(5);
    expect(products.body.data.unassigned_products).toBeGreaterThan(0);
    const tokens = await t.http.get('/payg/metrics/token-generation-logs').set(auth).expect(200);
    expect(tokens.body.data.total).toBeGreaterThan(5);
    const messages = await t.http.get('/payg/fetch_messages').set(auth).expect(200);
    const statuses = new Set(messages.body.data.map((m: { status: string }) => m.status));
    expect(statuses).toEqual(new Set(['processed', 'unmatched', 'unparsed']));
    const summary = await t.http.get('/payg/metrics/summary').set(auth).expect(200);
    expect(Number(summary.body.total_revenue)).toBeGreaterThan(0);
    const notifications = await t.http.get('/payg/notifications').set(auth).expect(200);
    expect(notifications.body.data.length).toBe(1);

    // The plans were in place before the payments, so the plans' figures count them.
    const perf = await t.http.get('/payg/payments/templates/performance').set(auth).expect(200);
    const collected = perf.body.data.reduce((sum: number, p: { revenue_collected: string }) => sum + Number(p.revenue_collected), 0);
    expect(collected).toBeCloseTo(Number(summary.body.total_revenue), 2);

    // Its history reads in order: customers registered before they took a device, tokens issued when their
    // payment was made, an SMS payment made before its confirmation was received.
    const rows = await t.db.platform.$queryRaw<{ late_customers: number; late_tokens: number; late_sms: number; stale_credit: number }[]>`
      SELECT (SELECT count(*)::int FROM customers c JOIN items i ON i.organization_id = c.organization_id AND i.customer_id = c.customer_id
               WHERE c.organization_id = 'demo' AND c.created_at > i.assigned_at) AS late_customers,
             (SELECT count(*)::int FROM token_logs tl JOIN payments p ON p.organization_id = tl.organization_id AND p.payment_id = tl.payment_id
               WHERE tl.organization_id = 'demo' AND tl.created_at <> p.paid_at) AS late_tokens,
             (SELECT count(*)::int FROM payments p JOIN messages m ON m.organization_id = p.organization_id AND m.message_id = p.message_id
               WHERE p.organization_id = 'demo' AND p.paid_at > m.received_at) AS late_sms,
             (SELECT count(*)::int FROM items WHERE organization_id = 'demo' AND credit_until > now() + interval '60 days') AS stale_credit`;
    expect(rows[0]).toEqual({ late_customers: 0, late_tokens: 0, late_sms: 0, stale_credit: 0 });
    // The repaired SHS-1004 took a set-time token: its earlier tokens are expired, and the dashboard says so.
    const repaired = await t.db.platform.tokenLog.findMany({ where: { organization_id: 'demo', serial_number: 'SHS-1004' }, orderBy: { token_count: 'asc' } });
    expect(repaired.map((r) => [r.token_type, r.is_valid])).toEqual([...repaired.slice(0, -1).map((r) => [r.token_type, false]), ['set_time', true]]);
    expect(repaired.length).toBeGreaterThan(1);
    const usage = await t.http.get('/payg/metrics/usage').set(auth).expect(200);
    const expired = await t.db.platform.tokenLog.count({ where: { organization_id: 'demo', is_valid: false } });
    expect(expired).toBeGreaterThanOrEqual(repaired.length - 1);
    expect(usage.body.tokens_expired).toBe(expired);
    const customerDays = await t.db.platform.$queryRaw<{ days: number }[]>`
      SELECT count(DISTINCT created_at::date)::int AS days FROM customers WHERE organization_id = 'demo'`;
    expect(customerDays[0]!.days).toBeGreaterThan(10);
    // Collections' promises: one of each outcome a demo can show.
    const promises = await t.http.get('/payg/collections/promises').set(auth).expect(200);
    expect(promises.body.data.items.map((p: { serial_number: string; status: string }) => [p.serial_number, p.status])).toEqual([
      ['LMP-2003', 'upcoming'],
      ['SHS-1005', 'broken'],
      ['PHN-3001', 'kept'],
      ['SHS-1002', 'paid_late'],
    ]);

    // A discount given as goodwill: LMP-2002 (3,500, 510 paid) has 2,490 left instead of 2,990.
    const discounts = await t.http.get('/payg/items/LMP-2002/discounts').set(auth).expect(200);
    expect(discounts.body).toMatchObject({ total: '500.00', data: [{ amount: '500.00', remaining_before: '2990.00', remaining_after: '2490.00' }] });

    // Last month's agent commissions: the agent who earned the most paid, the others still owed.
    const calendar = t.app.get(Calendar);
    const [y, m] = isoDayOf(calendar.today()).split('-').map(Number) as [number, number];
    const lastMonth = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
    const month = (await t.http.get('/payg/commissions').query({ month: lastMonth }).set(auth).expect(200)).body;
    expect(month.totals.paid_count).toBe(1);
    expect(month.data[0]).toMatchObject({ status: 'paid', payout: { reference: 'SKC4D5E6F7' } });
    expect(month.totals.unpaid_count).toBeGreaterThan(0);

    // The USSD menu is on, and Amina read her balance on it.
    const ussd = (await t.http.get('/payg/settings/ussd').set(auth).expect(200)).body.data;
    expect(ussd).toMatchObject({ enabled: true, sessions_7d: 1, customers_7d: 1, service_code: '*384*123#' });
    const dialled = (await t.http.get('/payg/settings/ussd/sessions').set(auth).expect(200)).body.data;
    expect(dialled).toEqual([expect.objectContaining({ customer_name: 'Amina Wanjiru', outcome: 'balance', steps: 1 })]);

    // Service tickets: one of each status.
    const tickets = await t.http.get('/payg/tickets').query({ status: 'all' }).set(auth).expect(200);
    // Agent commissions are set, so the Agent report's Commission column means something in the demo.
    const commissions = await t.http.get('/payg/settings/commissions').set('Authorization', `Bearer ${owner.body.access_token}`).expect(200);
    expect(commissions.body).toMatchObject({ per_device: '500.00', percent: '5.00', example: { commission: '10000.00' } });
    expect(tickets.body.data.items.map((k: { serial_number: string; status: string }) => [k.serial_number, k.status])).toEqual([
      ['PHN-3002', 'open'],
      ['LMP-2001', 'in_progress'],
      ['SHS-1004', 'resolved'],
    ]);
    expect(tickets.body.data.items.map((k: { assigned_to: { username: string } | null }) => k.assigned_to?.username ?? null)).toEqual(['demo', 'baraka', null]);
    // The owner signs in to three unread notifications: the technician's cash held too long, the payment held for
    // matching, and the code problem the technician handed them.
    const mine = await t.http.get('/payg/me/notifications').set(auth).expect(200);
    expect(mine.body.data).toMatchObject({ unread: 3, next_before: null });
    expect(mine.body.data.items).toEqual([
      expect.objectContaining({
        kind: 'cash_overdue',
        collector: 'baraka',
        message: expect.stringMatching(/^baraka has held KES 5,800\.00 in cash for 9 days \(since \d{1,2} \w{3} \d{4}\) without handing it over$/),
      }),
      expect.objectContaining({ kind: 'payments_held', actor: null, read_at: null, message: 'A payment of KES 250.00 (receipt SKD9H0J1K2) is held for matching' }),
      expect.objectContaining({ kind: 'ticket_assigned', actor: 'baraka', read_at: null, message: expect.stringMatching(/ on PHN-3002 \(Code not accepted\) was assigned to you by baraka$/) }),
    ]);

    // Plans per device: Amina's phone is on the phone plan of its own, her solar home system on her plan.
    const phone = await t.http.get('/payg/devices/PHN-3003/activity').set(auth).expect(200);
    expect(phone.body.data.device_info.payment_plan).toMatchObject({ template_name: 'Smartphone - Weekly', own: true });
    const home = await t.http.get('/payg/devices/SHS-1001/activity').set(auth).expect(200);
    expect(home.body.data.device_info.payment_plan).toMatchObject({ template_name: 'Solar Home 50W - Daily', own: false });
    // The makers' warranties, from the day the account began two months ago.
    expect(home.body.data.device_info.warranty).toMatchObject({ months: 24, in_warranty: true });
    const warranties = await t.http.get('/payg/settings/warranties').set(auth).expect(200);
    expect(warranties.body.warranties.map((w: { product_name: string; months: number }) => [w.product_name, w.months])).toEqual([
      ['E-Bike Lite', 6],
      ['Smartphone A10', 12],
      ['Solar Home System 50W', 24],
      ['Solar Home System 80W + TV', 24],
      ['Solar Lamp Pro', 12],
    ]);

    // The owner's bulk SMS of three days ago: every text sent, one per phone number.
    const bulk = await t.http.get('/payg/sms-campaigns').set(auth).expect(200);
    expect(bulk.body.data).toHaveLength(1);
    expect(bulk.body.data[0]).toMatchObject({ audience_text: 'Customers with a device', status: 'sent', created_by: 'demo' });
    expect(bulk.body.data[0].recipients).toBeGreaterThan(5);
    expect(bulk.body.data[0].delivery).toEqual({ queued: 0, sent: bulk.body.data[0].recipients, failed: 0, cancelled: 0 });
    const texts = await t.http.get(`/payg/sms-campaigns/${bulk.body.data[0].campaign_id}/texts`).set(auth).expect(200);
    expect(texts.body.data[0].text).toMatch(/^Habari [A-Z][a-z]+! Our new Nakuru shop opens on Monday/);

    // The technician's cash: the deposits he took in the field, two handovers, the last three deposits (9 days ago) still held.
    const cash = await t.http.get('/payg/cash').set(auth).expect(200);
    expect(cash.body.data).toHaveLength(1);
    expect(cash.body.data[0]).toMatchObject({
      username: 'baraka',
      role: 'staff',
      collected: '16550.00',
      collected_count: 11,
      handed_over: '10750.00',
      handover_count: 2,
      in_hand: '5800.00',
      days_held: 9,
      overdue: true,
    });

    // A second start changes nothing.
    const before = await t.db.platform.customer.count({ where: { organization_id: 'demo' } });
    await t.app.get(SeedService).run();
    expect(await t.db.platform.customer.count({ where: { organization_id: 'demo' } })).toBe(before);
  });
});
