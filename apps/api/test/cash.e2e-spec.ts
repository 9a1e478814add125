import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCashCollectorsReplySchema,
  ZCashHandoverReplySchema,
  ZCashLedgerReplySchema,
  ZCashSummarySchema,
  ZMyNotificationsReplySchema,
  type CashCollector,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { Calendar } from '../src/common/calendar.js';
import { NoticeSweepService } from '../src/notifications/notice-sweep.service.js';
import { seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// Cash in hand (README "Cash in hand"): the cash payments a user recorded,
// less the handovers an owner or admin recorded, oldest cash handed first.

const DAY = 86_400_000;

describe('cash in hand', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const pay = (user: SeededUser, serial: string, amount: string, extra: object = {}) =>
    t.http.post('/payg/payments').set(user.auth).send({ serial_number: serial, amount, payment_method: 'cash', ...extra }).expect(201);
  const summary = async (user: SeededUser) => ZCashSummarySchema.parse((await t.http.get('/payg/cash').set(user.auth).expect(200)).body);
  const of = (s: { data: CashCollector[] }, username: string) => s.data.find((c) => c.username === username);
  const handover = (user: SeededUser, body: object) => t.http.post('/payg/cash/handovers').set(user.auth).send(body);

  /** An owner, an agent (staff) who took 500 ten days ago and 300 today in cash, and 1,000 by M-Pesa recorded by hand. */
  async function shop() {
    const { org, user: owner } = await seedTenant(t);
    const agent = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const d = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00', free_code_price: '100000.00' } });
    const serial = d.item.serial_number;
    await pay(agent, serial, '500', { paid_at: new Date(Date.now() - 10 * DAY).toISOString() });
    await pay(agent, serial, '1000', { payment_method: 'mobile_money', reference: `QK${Date.now()}` });
    const today = await pay(agent, serial, '300');
    return { org, owner, agent, d, serial, todayPaymentId: today.body.payment_id as number };
  }

  it('counts what each user holds, since when, and refuses a handover of more than that', async () => {
    const { owner, agent } = await shop();
    const s = await summary(owner);
    expect(s.data).toHaveLength(1);
    const a = of(s, agent.username)!;
    expect(a).toMatchObject({ role: 'staff', is_active: true, collected: '800.00', collected_count: 2, handed_over: '0.00', in_hand: '800.00' });
    expect(a.days_held).toBe(10);
    expect(a.overdue).toBe(true);
    expect(s.totals).toEqual([{ currency: a.currency, collected: '800.00', handed_over: '0.00', in_hand: '800.00' }]);

    // More than held: refused, named, nothing written.
    const over = await handover(owner, { collector: agent.username, amount: 800.01 }).expect(400);
    expect(over.body.errors).toEqual([{ field: 'amount', message: expect.stringContaining(`must be at most 800.00: ${agent.username} holds`) }]);
    expect(await t.db.db.cashHandover.count({ where: { organization_id: owner.organization_id } })).toBe(0);

    // 500 handed over pays off the oldest cash: what is held now was paid today.
    const r = ZCashHandoverReplySchema.parse(
      (await handover(owner, { collector: agent.username, amount: '500', reference: 'SLIP-1', note: 'Counted at the shop' }).expect(201)).body,
    );
    expect(r.message).toBe(`Recorded ${a.currency} 500.00 handed over by ${agent.username}: they hold ${a.currency} 300.00 now`);
    expect(r.handover).toMatchObject({ collector: agent.username, amount: '500.00', received_by: owner.username, reference: 'SLIP-1' });
    expect(r.collector).toMatchObject({ in_hand: '300.00', handed_over: '500.00', handover_count: 1, days_held: 0, overdue: false });

    // The rest, then nothing is held: a handover of anything is refused.
    await handover(owner, { collector: agent.username, amount: 300 }).expect(201);
    const none = await handover(owner, { collector: agent.username, amount: 1 }).expect(400);
    expect(none.body.errors[0]).toEqual({ field: 'amount', message: `${agent.username} holds no cash in ${a.currency} to hand over` });
    expect(of(await summary(owner), agent.username)).toMatchObject({ in_hand: '0.00', held_since: null, days_held: null, overdue: false });

    // The audit log has both.
    const audit = await t.db.db.auditLog.findMany({ where: { organization_id: owner.organization_id, action: 'cash.handover_recorded' } });
    expect(audit).toHaveLength(2);
  });

  it('voids a handover recorded by mistake, once, and keeps it in the ledger', async () => {
    const { owner, agent, serial, d } = await shop();
    const made = ZCashHandoverReplySchema.parse((await handover(owner, { collector: agent.username, amount: 800 }).expect(201)).body);
    const id = made.handover.handover_id;
    await t.http.post(`/payg/cash/handovers/${id}/void`).set(owner.auth).send({ reason: 'x' }).expect(400);
    const v = ZCashHandoverReplySchema.parse(
      (await t.http.post(`/payg/cash/handovers/${id}/void`).set(owner.auth).send({ reason: 'Counted twice' }).expect(200)).body,
    );
    expect(v.collector.in_hand).toBe('800.00');
    expect(v.handover).toMatchObject({ voided_by: owner.username, void_reason: 'Counted twice' });
    const again = await t.http.post(`/payg/cash/handovers/${id}/void`).set(owner.auth).send({ reason: 'Counted twice' }).expect(409);
    expect(again.body.detail).toContain('voided already');

    // The ledger, newest first: the voided handover (800 out, but held 800 after), today's 300, then the 500 of ten days ago.
    const l = ZCashLedgerReplySchema.parse((await t.http.get(`/payg/cash/${agent.username}/ledger`).set(owner.auth).expect(200)).body);
    expect(l.pagination.total).toBe(3);
    expect(l.data.map((e) => [e.kind, e.amount, e.in_hand_after])).toEqual([
      ['handover', '-800.00', '800.00'],
      ['payment', '300.00', '800.00'],
      ['payment', '500.00', '500.00'],
    ]);
    expect(l.data[0]).toMatchObject({ received_by: owner.username, void_reason: 'Counted twice' });
    expect(l.data[1]).toMatchObject({ serial_number: serial, customer_id: d.customer.id, customer_name: d.customer.customer_name, payment_status: 'completed' });
    const page2 = ZCashLedgerReplySchema.parse((await t.http.get(`/payg/cash/${agent.username}/ledger?limit=2&page=2`).set(owner.auth).expect(200)).body);
    expect(page2.data.map((e) => e.amount)).toEqual(['500.00']);
    const past = ZCashLedgerReplySchema.parse((await t.http.get(`/payg/cash/${agent.username}/ledger?page=9`).set(owner.auth).expect(200)).body);
    expect(past).toMatchObject({ data: [], pagination: { total: 3, total_pages: 1, page: 9 } });
  });

  it('keeps a reversed cash payment held and drops a rejected one', async () => {
    const { owner, agent, todayPaymentId } = await shop();
    await t.http.post(`/payg/payments/${todayPaymentId}/reverse`).set(owner.auth).send({ reason: 'Wrong device' }).expect(200);
    expect(of(await summary(owner), agent.username)!.in_hand).toBe('800.00');
    await t.http.post(`/payg/payments/${todayPaymentId}/reject`).set(owner.auth).send({ reason: 'Refunded to the customer' }).expect(200);
    expect(of(await summary(owner), agent.username)).toMatchObject({ in_hand: '500.00', collected_count: 1 });
  });

  it("holds a clerk's entry of an agent's receipt as the agent's cash, and names who entered it", async () => {
    const { org, owner, agent, serial } = await shop();
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await pay(clerk, serial, '120', { collected_by: agent.username });
    const s = await summary(owner);
    expect(of(s, agent.username)).toMatchObject({ in_hand: '920.00', collected_count: 3 });
    expect(of(s, clerk.username)).toBeUndefined();
    const l = ZCashLedgerReplySchema.parse((await t.http.get(`/payg/cash/${agent.username}/ledger`).set(owner.auth).expect(200)).body);
    expect(l.data[0]).toMatchObject({ amount: '120.00', recorded_by: clerk.username });
    expect(l.data[1]).toMatchObject({ amount: '300.00', recorded_by: null });

    // Whom it can be: the organization's active users; nobody else, and only for cash.
    const collectors = ZCashCollectorsReplySchema.parse((await t.http.get('/payg/cash/collectors').set(clerk.auth).expect(200)).body);
    expect(collectors.data.map((c) => c.username).sort()).toEqual([owner.username, agent.username, clerk.username].sort());
    const before = await t.db.db.payment.count({ where: { organization_id: org.id } });
    const bad = async (body: object, message: string) => {
      const r = await t.http.post('/payg/payments').set(clerk.auth).send({ serial_number: serial, amount: 10, payment_method: 'cash', ...body }).expect(400);
      expect(r.body.errors).toEqual([{ field: 'collected_by', message }]);
    };
    await bad({ collected_by: 'nobody-here' }, 'no active user of this organization is called nobody-here');
    await bad({ collected_by: agent.username, payment_method: 'mobile_money' }, 'is only for a cash payment');
    const other = await seedTenant(t);
    await bad({ collected_by: other.user.username }, `no active user of this organization is called ${other.user.username}`);
    await t.http.put(`/payg/users/${agent.user_id}`).set(owner.auth).send({ is_active: false }).expect(200);
    await bad({ collected_by: agent.username }, `no active user of this organization is called ${agent.username}`);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(before);
  });

  it('tells the collector and the owners and admins of cash held too long, once for the oldest payment still held', async () => {
    const { org, owner, agent, serial } = await shop();
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await pay(clerk, serial, '40', { paid_at: new Date(Date.now() - 2 * DAY).toISOString() });
    const sweeps = t.app.get(NoticeSweepService);
    const told = async (user: SeededUser) =>
      ZMyNotificationsReplySchema.parse((await t.http.get('/payg/me/notifications').set(user.auth).expect(200)).body).data.items.filter(
        (n) => n.kind === 'cash_overdue',
      );
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: t.app.get(Calendar).zone, day: 'numeric', month: 'short', year: 'numeric' });
    const currency = of(await summary(owner), agent.username)!.currency;
    const held = `${currency} 800.00 in cash for 10 days (since ${day.format(new Date(Date.now() - 10 * DAY))})`;

    await sweeps.sweep();
    expect(await told(agent)).toEqual([
      expect.objectContaining({ message: `You have held ${held}: hand it over`, collector: agent.username, actor: null, read_at: null }),
    ]);
    for (const manager of [owner, admin]) {
      expect(await told(manager)).toEqual([
        expect.objectContaining({ message: `${agent.username} has held ${held} without handing it over`, collector: agent.username }),
      ]);
    }
    // The clerk's 40 of two days ago is not overdue yet, and the clerk is told of nobody else's cash.
    expect(await told(clerk)).toEqual([]);

    // Swept again, or by two processes at once: nothing new.
    const run = (sweeps as unknown as { run: (now: Date) => Promise<{ cash: number }> }).run.bind(sweeps);
    await Promise.all([run(new Date()), run(new Date())]);
    await sweeps.sweep();
    expect(await told(owner)).toHaveLength(1);

    // The old 500 handed over: what is held was paid today, nothing overdue. Voided, the 500 is held again, told of already.
    const h = ZCashHandoverReplySchema.parse((await handover(owner, { collector: agent.username, amount: 500 }).expect(201)).body);
    await sweeps.sweep();
    await t.http.post(`/payg/cash/handovers/${h.handover.handover_id}/void`).set(owner.auth).send({ reason: 'Counted twice' }).expect(200);
    await sweeps.sweep();
    expect(await told(agent)).toHaveLength(1);
    expect(await told(owner)).toHaveLength(1);

    // A handover of part of the old cash leaves the rest of that payment held: told of already.
    await handover(owner, { collector: agent.username, amount: 200 }).expect(201);
    await sweeps.sweep();
    expect(await told(owner)).toHaveLength(1);

    // A collector who left is still named to the owners and admins (the cash is out), and is not told themselves.
    await t.http.put(`/payg/users/${agent.user_id}`).set(owner.auth).send({ is_active: false }).expect(200);
    const gone = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await pay(gone, serial, '75', { paid_at: new Date(Date.now() - 5 * DAY).toISOString() });
    await t.http.put(`/payg/users/${gone.user_id}`).set(owner.auth).send({ is_active: false }).expect(200);
    // An admin who turned the kind off hears nothing of it.
    await t.http.put('/payg/me/notification-settings').set(admin.auth).send({ muted: ['cash_overdue'] }).expect(200);
    await sweeps.sweep();
    expect((await told(owner)).map((n) => n.collector)).toEqual([gone.username, agent.username]);
    expect((await told(owner))[0]!.message).toMatch(new RegExp(`^${gone.username} has held ${currency} 75\\.00 in cash for 5 days `));
    expect(await told(admin)).toHaveLength(1);

    // A suspended organization is not told.
    const late = await seedUser(t, { organization_id: org.id, role: 'owner' });
    await t.db.pool.query(`UPDATE organizations SET status = 'suspended' WHERE organization_id = $1`, [org.id]);
    await sweeps.sweep();
    expect(await t.db.pool.query(`SELECT 1 FROM user_notifications WHERE user_id = $1`, [late.user_id])).toMatchObject({ rowCount: 0 });
  });

  it('shows staff only their own cash, and lets only owners and admins record handovers', async () => {
    const { org, owner, agent, serial } = await shop();
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    await pay(clerk, serial, '50');
    expect((await summary(owner)).data.map((c) => c.username).sort()).toEqual([agent.username, clerk.username].sort());
    const mine = await summary(clerk);
    expect(mine.data.map((c) => c.username)).toEqual([clerk.username]);
    expect(mine.totals[0]!.in_hand).toBe('50.00');
    await t.http.get(`/payg/cash/${clerk.username}/ledger`).set(clerk.auth).expect(200);
    const theirs = await t.http.get(`/payg/cash/${agent.username}/ledger`).set(clerk.auth).expect(403);
    expect(theirs.body.detail).toBe('Staff see only their own cash');
    await handover(clerk, { collector: agent.username, amount: 10 }).expect(403);
    await handover(admin, { collector: agent.username, amount: 10 }).expect(201);
  });

  it('names each bad field and writes nothing', async () => {
    const { owner, agent } = await shop();
    const cases: [object, string][] = [
      [{ amount: 10 }, 'collector'],
      [{ collector: agent.username, amount: 0 }, 'amount'],
      [{ collector: agent.username, amount: 1.005 }, 'amount'],
      [{ collector: agent.username, amount: 'ten' }, 'amount'],
      [{ collector: agent.username, amount: 10, currency: 'shillings' }, 'currency'],
      [{ collector: agent.username, amount: 10, currency: 'UGX' }, 'amount'],
      [{ collector: agent.username, amount: 10, handed_at: 'yesterday' }, 'handed_at'],
      [{ collector: agent.username, amount: 10, handed_at: new Date(Date.now() + DAY).toISOString() }, 'handed_at'],
      [{ collector: agent.username, amount: 10, reference: 'x'.repeat(65) }, 'reference'],
      [{ collector: 'nobody-here', amount: 10 }, 'collector'],
    ];
    for (const [body, field] of cases) {
      const r = await handover(owner, body).expect(400);
      expect((r.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    }
    await t.http.get(`/payg/cash/${agent.username}/ledger?limit=0`).set(owner.auth).expect(400);
    await t.http.get(`/payg/cash/${agent.username}/ledger?currency=12`).set(owner.auth).expect(400);
    await t.http.get('/payg/cash/nobody-here/ledger').set(owner.auth).expect(404);
    await t.http.post('/payg/cash/handovers/999999/void').set(owner.auth).send({ reason: 'Counted twice' }).expect(404);
    expect(await t.db.db.cashHandover.count({ where: { organization_id: owner.organization_id } })).toBe(0);
  });

  it('exports the handovers of a period as CSV, the voided ones with why, and records the export', async () => {
    const { owner, agent, org } = await shop();
    const other = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await pay(other, (await t.db.db.item.findFirstOrThrow({ where: { organization_id: org.id } })).serial_number, '40');
    const old = new Date(Date.now() - 40 * DAY).toISOString();
    await handover(owner, { collector: agent.username, amount: 100, handed_at: old, reference: '=HYPERLINK("x")' }).expect(201);
    const kept = ZCashHandoverReplySchema.parse((await handover(owner, { collector: agent.username, amount: 200, note: 'Counted, "twice"' }).expect(201)).body);
    await t.http.post(`/payg/cash/handovers/${kept.handover.handover_id}/void`).set(owner.auth).send({ reason: 'Wrong amount' }).expect(200);
    await handover(owner, { collector: other.username, amount: 40 }).expect(201);

    const csv = await t.http.get('/payg/cash/handovers/export').set(owner.auth).expect(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="cash-handovers-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('handover_id,handed_at,collector,amount,currency,received_by,reference,note,recorded_at,voided_at,voided_by,void_reason');
    expect(lines).toHaveLength(4);
    // Newest first: the other's, the voided one (with why), the old one (its formula-like reference defused).
    expect(lines[1]).toContain(`,${other.username},40.00,`);
    expect(lines[2]).toContain(`,${agent.username},200.00,`);
    expect(lines[2]).toContain('"Counted, ""twice"""');
    expect(lines[2]).toMatch(new RegExp(`,${owner.username},Wrong amount$`));
    expect(lines[3]).toContain(',100.00,');
    expect(lines[3]).toContain(`"'=HYPERLINK(""x"")"`);

    // A period (the last week) and one collector.
    const from = new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10);
    const week = await t.http.get('/payg/cash/handovers/export').query({ from, collector: agent.username }).set(owner.auth).expect(200);
    expect(week.text.trim().split('\r\n')).toHaveLength(2);
    await t.http.get('/payg/cash/handovers/export').query({ from: '2026-02-30' }).set(owner.auth).expect(400);
    await t.http.get('/payg/cash/handovers/export').query({ from: '2026-03-02', to: '2026-03-01' }).set(owner.auth).expect(400);
    await t.http.get('/payg/cash/handovers/export').set(agent.auth).expect(403);
    await t.http.get('/payg/cash/handovers/export').query({ collector: 'nobody-here' }).set(owner.auth).expect(400);
    // Recorded just after the download.
    let recorded = 0;
    for (let i = 0; i < 40 && recorded < 2; i++) {
      recorded = await t.db.db.auditLog.count({ where: { organization_id: org.id, action: 'cash.handovers_exported' } });
      if (recorded < 2) await new Promise((r) => setTimeout(r, 25));
    }
    expect(recorded).toBe(2);
  });

  it("keeps organizations apart: no one sees, hands over or voids another's cash", async () => {
    const a = await shop();
    const b = await shop();
    expect((await summary(b.owner)).data.map((c) => c.username)).toEqual([b.agent.username]);
    await t.http.get(`/payg/cash/${a.agent.username}/ledger`).set(b.owner.auth).expect(404);
    await handover(b.owner, { collector: a.agent.username, amount: 10 }).expect(400);
    const made = ZCashHandoverReplySchema.parse((await handover(a.owner, { collector: a.agent.username, amount: 10 }).expect(201)).body);
    await t.http.post(`/payg/cash/handovers/${made.handover.handover_id}/void`).set(b.owner.auth).send({ reason: 'Not ours' }).expect(404);
    expect(of(await summary(a.owner), a.agent.username)!.in_hand).toBe('790.00');
  });

  it('records two handovers at once without handing over the same cash twice', async () => {
    const { owner, agent } = await shop();
    const replies = await Promise.all(Array.from({ length: 6 }, () => handover(owner, { collector: agent.username, amount: 300 })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 400, 400, 400, 400]);
    expect(of(await summary(owner), agent.username)!.in_hand).toBe('200.00');
  });

  it('still counts the cash of a user who was deleted', async () => {
    const { owner, agent } = await shop();
    await t.http.delete(`/payg/users/${agent.user_id}`).set(owner.auth).expect((r) => expect([200, 204]).toContain(r.status));
    expect(of(await summary(owner), agent.username)).toMatchObject({ role: null, is_active: null, in_hand: '800.00' });
    await handover(owner, { collector: agent.username, amount: 800 }).expect(201);
  });

  it('keeps each collector\'s totals equal to their cash payments through every change to a payment', async () => {
    const { org, owner, agent, serial, todayPaymentId } = await shop();
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    // What the triggers keep, and the same summed from the payments themselves.
    const kept = async () =>
      (
        await t.db.pool.query(
          `SELECT username, currency, collected::text, collected_count, last_collected_at FROM cash_collector_totals
           WHERE organization_id = $1 AND collected_count > 0 ORDER BY 1, 2`,
          [org.id],
        )
      ).rows;
    const summed = async () =>
      (
        await t.db.pool.query(
          `SELECT collected_by AS username, currency, sum(amount)::numeric(14,2)::text AS collected, count(*)::int AS collected_count,
                  max(paid_at) AS last_collected_at
           FROM payments WHERE organization_id = $1 AND payment_method = 'cash' AND source = 'manual' AND collected_by IS NOT NULL
             AND status <> 'failed' GROUP BY 1, 2 ORDER BY 1, 2`,
          [org.id],
        )
      ).rows;
    const same = async () => {
      const k = await kept();
      expect(k).toEqual(await summed());
      return k;
    };
    expect(await same()).toEqual([expect.objectContaining({ username: agent.username, collected: '800.00', collected_count: 2 })]);

    // Reversed (still held), rejected (no longer), through the API.
    await t.http.post(`/payg/payments/${todayPaymentId}/reverse`).set(owner.auth).send({ reason: 'Wrong device' }).expect(200);
    await same();
    await t.http.post(`/payg/payments/${todayPaymentId}/reject`).set(owner.auth).send({ reason: 'Refunded to the customer' }).expect(200);
    expect(await same()).toEqual([expect.objectContaining({ username: agent.username, collected: '500.00', collected_count: 1 })]);

    // A clerk's own cash, and an agent's receipt the clerk entered.
    await pay(clerk, serial, '120', { collected_by: agent.username });
    await pay(clerk, serial, '80');
    expect((await same()).map((r) => [r.username, r.collected])).toEqual(
      [
        [agent.username, '620.00'],
        [clerk.username, '80.00'],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );

    // Any change to what decides it, made straight in the database: the amount, the collector, the day, the method,
    // a rejected payment counted again, the newest payment deleted.
    const q = (sql: string, params: unknown[]) => t.db.pool.query(sql, params);
    const ids = (await q(`SELECT payment_id FROM payments WHERE organization_id = $1 AND payment_method = 'cash' ORDER BY paid_at`, [org.id])).rows.map(
      (r) => r.payment_id as number,
    );
    await q(`UPDATE payments SET amount = amount + 1 WHERE payment_id = $1`, [ids[0]]);
    await same();
    await q(`UPDATE payments SET collected_by = $2 WHERE payment_id = $1`, [ids[1], clerk.username]);
    await same();
    await q(`UPDATE payments SET paid_at = now() + interval '1 hour' WHERE payment_id = $1`, [ids[0]]);
    await same();
    await q(`UPDATE payments SET payment_method = 'bank' WHERE payment_id = $1`, [ids[2]]);
    await same();
    await q(`UPDATE payments SET payment_method = 'cash', status = 'completed' WHERE payment_id = $1`, [todayPaymentId]);
    await same();
    await q(`DELETE FROM token_logs WHERE payment_id = $1`, [ids[0]]);
    await q(`DELETE FROM payments WHERE payment_id = $1`, [ids[0]]);
    await same();
    // A payment that was not cash is passed over on every path.
    await q(`UPDATE payments SET amount = amount + 5 WHERE organization_id = $1 AND payment_method <> 'cash'`, [org.id]);
    await same();
  });
});
