import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  COMMISSIONS_CSV_COLUMNS,
  ZCommissionMonthSchema,
  ZCommissionPayAllReplySchema,
  ZCommissionPayoutListSchema,
  ZCommissionPayoutReplySchema,
  ZReportSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { payCash } from './support/plans.js';
import { seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// Agent commission payouts (README "Agent commissions"): each agent's
// commission for a month that is over, reckoned as the Agent report does,
// recorded as paid once with the amount frozen, voided when recorded by
// mistake.

/** A month long over, whatever day the tests run on; mid-month instants stay in it in any time zone. */
const MONTH = '2025-03';
const IN_MONTH = '2025-03-15T09:00:00Z';
const BEFORE_MONTH = '2025-02-10T09:00:00Z';

describe('agent commission payouts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const month = async (user: SeededUser, m = MONTH) =>
    ZCommissionMonthSchema.parse((await t.http.get('/payg/commissions').query({ month: m }).set(user.auth).expect(200)).body);
  const pay = (user: SeededUser, body: object) => t.http.post('/payg/commissions/payouts').set(user.auth).send(body);
  const voidIt = (user: SeededUser, id: number, body: object) => t.http.post(`/payg/commissions/payouts/${id}/void`).set(user.auth).send(body);

  /**
   * An organization paying 100.00 a device and 10%: in March 2025 AG-001's customers were given 2 devices and paid
   * 500.00 and 300.00, AG-002's were given 1 and paid 1,000.00, a customer without an agent 1 and 50.00; AG-003's
   * customer was given a device and paid in February only.
   */
  async function book() {
    const { org, user: owner } = await seedTenant(t);
    await t.http.put('/payg/settings/commissions').set(owner.auth).send({ per_device: 100, percent: 10 }).expect(200);
    const plan = { daily_price: '50.00' };
    const withAgent = async (agent: string | null, amount: string, at = IN_MONTH) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: plan });
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { agent_id: agent } });
      const p = await payCash(t, owner, d.item.serial_number, amount);
      await t.db.pool.query(`UPDATE payments SET paid_at = $3 WHERE organization_id = $1 AND payment_id = $2`, [org.id, p.payment_id, at]);
      await t.db.pool.query(`UPDATE item_assignments SET assigned_at = $3 WHERE organization_id = $1 AND item_id = $2`, [org.id, d.item.id, at]);
      return d;
    };
    await withAgent('AG-001', '500.00');
    await withAgent(' AG-001', '300.00');
    await withAgent('AG-002', '1000.00');
    await withAgent(null, '50.00');
    await withAgent('AG-003', '700.00', BEFORE_MONTH);
    return { org, owner };
  }

  it("reckons each agent's month as the Agent report does, records a payout once, frozen, and voids it", async () => {
    const { org, owner } = await book();
    const before = await month(owner);
    expect(before).toMatchObject({ month: MONTH, closed: true, per_device: '100.00', percent: '10.00', voided: [] });
    // AG-001: 2 × 100.00 + 10% of 800.00 = 280.00; AG-002: 100.00 + 100.00 = 200.00; nobody earns on customers without an agent.
    expect(before.data).toEqual([
      { agent: 'AG-001', devices_given: 2, payments: 2, revenue: '800.00', commission: '280.00', status: 'unpaid', payout: null, difference: null },
      { agent: 'AG-002', devices_given: 1, payments: 1, revenue: '1000.00', commission: '200.00', status: 'unpaid', payout: null, difference: null },
    ]);
    expect(before.totals).toEqual({ commission: '480.00', paid: '0.00', unpaid: '480.00', paid_count: 0, unpaid_count: 2 });
    // The same figures as the Agent report for the month.
    const report = ZReportSchema.parse(
      (await t.http.post('/payg/reports/page').set(owner.auth).send({ report: 'agents', from: `${MONTH}-01`, to: `${MONTH}-31` }).expect(200)).body,
    );
    expect(report.rows.filter((r) => r.agent !== '(no agent)').map((r) => [r.agent, r.commission])).toEqual([
      ['AG-002', '200.00'],
      ['AG-001', '280.00'],
    ]);

    await t.http.post('/payg/webhooks').set(owner.auth).send({ url: 'https://books.example.com/hook', events: ['commission.paid', 'commission.payout_voided'] }).expect(201);
    const paid = ZCommissionPayoutReplySchema.parse(
      (await pay(owner, { agent: ' AG-001 ', month: MONTH, reference: 'SKA1B2C3D4', note: 'March, by M-Pesa' }).expect(201)).body,
    );
    expect(paid.message).toBe('Paid AG-001 a commission of 280.00 for March 2025 (SKA1B2C3D4).');
    expect(paid.payout).toMatchObject({
      agent: 'AG-001',
      month: MONTH,
      devices_given: 2,
      payments: 2,
      revenue: '800.00',
      per_device: '100.00',
      percent: '10.00',
      amount: '280.00',
      reference: 'SKA1B2C3D4',
      note: 'March, by M-Pesa',
      paid_by: owner.username,
      voided_at: null,
    });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'commission.paid' } });
    expect(audit).toMatchObject({ entity_type: 'commission_payout', entity_id: String(paid.payout.payout_id), description: 'Paid AG-001 a commission of 280.00 for March 2025 (SKA1B2C3D4)' });
    const [event] = await t.db.platform.webhookDelivery.findMany({ where: { organization_id: org.id, event_type: 'commission.paid' }, select: { payload: true } });
    expect((event!.payload as { data: unknown }).data).toMatchObject({ agent: 'AG-001', month: MONTH, amount: '280.00', reference: 'SKA1B2C3D4' });

    // Once: a second payout of the same month is refused, and nothing is written.
    const twice = await pay(owner, { agent: 'AG-001', month: MONTH }).expect(409);
    expect(twice.body.detail).toMatch(/^AG-001's commission for March 2025 was already paid: 280\.00 on \d{4}-\d{2}-\d{2} by /);

    // A payment of the month reversed later: the payout keeps what was paid, and the month shows the difference.
    await t.db.pool.query(
      `UPDATE payments SET status = 'failed' WHERE organization_id = $1 AND amount = 300.00 AND paid_at = $2`,
      [org.id, IN_MONTH],
    );
    const after = await month(owner);
    expect(after.data[0]).toMatchObject({ agent: 'AG-001', commission: '250.00', status: 'paid', difference: '-30.00' });
    expect(after.data[0]!.payout).toMatchObject({ amount: '280.00', payout_id: paid.payout.payout_id });
    expect(after.totals).toEqual({ commission: '450.00', paid: '280.00', unpaid: '200.00', paid_count: 1, unpaid_count: 1 });

    // Voided by mistake: listed with why, the month unpaid again, and it may be paid again at what is reckoned now.
    expect((await voidIt(owner, paid.payout.payout_id, { reason: 'no' }).expect(400)).body.errors).toEqual([
      { field: 'reason', message: 'must say why, in at least 3 characters' },
    ]);
    const voided = ZCommissionPayoutReplySchema.parse((await voidIt(owner, paid.payout.payout_id, { reason: 'Sent to the wrong number' }).expect(200)).body);
    expect(voided.payout).toMatchObject({ voided_by: owner.username, void_reason: 'Sent to the wrong number' });
    expect(voided.message).toBe('Voided the commission of 280.00 paid to AG-001 for March 2025: Sent to the wrong number.');
    expect((await voidIt(owner, paid.payout.payout_id, { reason: 'again' }).expect(409)).body.detail).toBe(
      `This payout was voided already by ${owner.username}: Sent to the wrong number`,
    );
    expect(await t.db.platform.webhookDelivery.count({ where: { organization_id: org.id, event_type: 'commission.payout_voided' } })).toBe(1);
    const unpaid = await month(owner);
    expect(unpaid.data[0]).toMatchObject({ agent: 'AG-001', status: 'unpaid', payout: null, difference: null });
    expect(unpaid.voided.map((v) => v.payout_id)).toEqual([paid.payout.payout_id]);
    const again = ZCommissionPayoutReplySchema.parse((await pay(owner, { agent: 'AG-001', month: MONTH }).expect(201)).body);
    expect(again.payout.amount).toBe('250.00');

    // The history: newest first, the voided one listed but not in what was paid.
    const history = ZCommissionPayoutListSchema.parse(
      (await t.http.get('/payg/commissions/payouts').query({ agent: 'AG-001' }).set(owner.auth).expect(200)).body,
    );
    expect(history.data.map((p) => [p.amount, p.voided_at === null])).toEqual([
      ['250.00', true],
      ['280.00', false],
    ]);
    expect(history.total_paid).toBe('250.00');
    expect(history.pagination).toEqual({ total: 2, total_pages: 1, page: 1, limit: 25 });
  });

  it('refuses a month not over, an agent who earned nothing, customers without an agent and bad input, changing nothing', async () => {
    const { org, owner } = await book();
    const now = new Date();
    const current = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const notOver = await pay(owner, { agent: 'AG-001', month: '2999-01' }).expect(409);
    expect(notOver.body.detail).toBe('January 2999 is not over yet: its commissions can be paid from 2999-02-01');
    expect((await month(owner, '2999-01')).closed).toBe(false);
    expect((await month(owner, current)).closed).toBe(false);

    // AG-003's customer paid in February only.
    expect((await pay(owner, { agent: 'AG-003', month: MONTH }).expect(400)).body.errors).toEqual([
      { field: 'agent', message: 'no customer of AG-003 was given a device or paid in March 2025' },
    ]);
    // Commissions set to 0: nothing to pay.
    await t.http.put('/payg/settings/commissions').set(owner.auth).send({ per_device: 0, percent: 0 }).expect(200);
    expect((await pay(owner, { agent: 'AG-002', month: MONTH }).expect(409)).body.detail).toBe('Nothing to pay: AG-002 earned no commission in March 2025');
    expect((await month(owner)).data.map((a) => a.status)).toEqual(['nothing_due', 'nothing_due']);

    const bad = async (body: object, field: string, message: string) =>
      expect((await pay(owner, body).expect(400)).body.errors).toEqual([{ field, message }]);
    await bad({ month: MONTH }, 'agent', 'is required');
    await bad({ agent: '(no agent)', month: MONTH }, 'agent', 'customers without an agent earn no commission');
    await bad({ agent: 'AG-001', month: '2025-13' }, 'month', 'must be a month as YYYY-MM');
    await bad({ agent: 'AG-001', month: '1999-12' }, 'month', 'must be 2000-01 or later');
    await bad({ agent: 'AG-001', month: MONTH, reference: 'x'.repeat(65) }, 'reference', 'must be at most 64 characters');
    expect((await t.http.get('/payg/commissions').query({ month: 'March' }).set(owner.auth).expect(400)).body.errors).toEqual([
      { field: 'month', message: 'must be a month as YYYY-MM' },
    ]);
    expect((await t.http.get('/payg/commissions').set(owner.auth).expect(400)).body.errors).toEqual([{ field: 'month', message: 'is required' }]);
    expect((await voidIt(owner, 999_999, { reason: 'a mistake' }).expect(404)).body.detail).toBe('Commission payout not found');
    expect(await t.db.platform.commissionPayout.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('pays each agent once when two pay at the same moment', async () => {
    const { org, owner } = await book();
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const replies = await Promise.all([owner, admin, owner, admin].map((u) => pay(u, { agent: 'AG-002', month: MONTH })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await t.db.platform.commissionPayout.count({ where: { organization_id: org.id } })).toBe(1);
  });

  it('pays every agent still owed at once, for the total the owner confirmed, and no agent twice', async () => {
    const { org, owner } = await book();
    const payAll = (body: object) => t.http.post('/payg/commissions/payouts/all').set(owner.auth).send(body);
    // The total must be the one owed now: 480.00 for both; a wrong one records nothing.
    const stale = await payAll({ month: MONTH, total: '400.00' }).expect(409);
    expect(stale.body.detail).toBe('The commissions owed for March 2025 changed since you looked: 2 agents are owed 480.00 now, not 400.00. Look at the month again before paying.');
    expect(await t.db.platform.commissionPayout.count({ where: { organization_id: org.id } })).toBe(0);
    const bad = await payAll({ month: '2025-13', total: 'lots', reference: 'x'.repeat(65) }).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['month', 'reference', 'total']);
    await payAll({ month: '2999-01', total: 1 }).expect(409);

    // AG-002 paid alone first: the rest owed is AG-001's 280.00, paid with the bank batch's reference.
    await pay(owner, { agent: 'AG-002', month: MONTH }).expect(201);
    const all = ZCommissionPayAllReplySchema.parse((await payAll({ month: MONTH, total: 280, reference: 'BATCH-0325', note: 'Equity bulk transfer' }).expect(201)).body);
    expect(all.message).toBe('Paid 1 agent their commissions for March 2025: 280.00 (BATCH-0325).');
    expect(all.total).toBe('280.00');
    expect(all.payouts).toEqual([
      expect.objectContaining({ agent: 'AG-001', month: MONTH, amount: '280.00', devices_given: 2, revenue: '800.00', reference: 'BATCH-0325', note: 'Equity bulk transfer', paid_by: owner.username }),
    ]);
    const after = await month(owner);
    expect(after.totals).toMatchObject({ paid: '480.00', unpaid: '0.00', paid_count: 2, unpaid_count: 0 });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'commission.paid', entity_id: String(all.payouts[0]!.payout_id) } });
    expect(audit.description).toBe('Paid AG-001 a commission of 280.00 for March 2025 (BATCH-0325), with every agent owed');
    expect(audit.metadata).toMatchObject({ all_agents: true, amount: '280.00' });
    // Nothing left to pay.
    expect((await payAll({ month: MONTH, total: 1 }).expect(409)).body.detail).toBe('Nothing to pay: no agent is owed a commission for March 2025');
  });

  it('pays every agent once when all are paid at once and one by one at the same moment', async () => {
    const { org, owner } = await book();
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const replies = await Promise.all([
      t.http.post('/payg/commissions/payouts/all').set(owner.auth).send({ month: MONTH, total: '480.00' }),
      pay(admin, { agent: 'AG-001', month: MONTH }),
      pay(owner, { agent: 'AG-002', month: MONTH }),
      t.http.post('/payg/commissions/payouts/all').set(admin.auth).send({ month: MONTH, total: '480.00' }),
    ]);
    // However they fell, each agent is paid once, and the statuses say which ones were recorded.
    const payouts = await t.db.platform.commissionPayout.findMany({ where: { organization_id: org.id } });
    expect(payouts.map((p) => p.agent).sort()).toEqual(['AG-001', 'AG-002']);
    expect(replies.every((r) => r.status === 201 || r.status === 409)).toBe(true);
  });

  it('downloads the month as CSV, and keeps staff and other organizations out', async () => {
    const { org, owner } = await book();
    await pay(owner, { agent: 'AG-002', month: MONTH, reference: 'SKB' }).expect(201);
    const csv = await t.http.get('/payg/commissions/export').query({ month: MONTH }).set(owner.auth).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain(`commissions-${MONTH}.csv`);
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe(COMMISSIONS_CSV_COLUMNS.join(','));
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 10).join(','))).toEqual([
      `${MONTH},AG-001,2,2,800.00,280.00,unpaid,,,`,
      `${MONTH},AG-002,1,1,1000.00,200.00,paid,200.00,,SKB`,
    ]);

    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.get('/payg/commissions').query({ month: MONTH }).set(staff.auth).expect(403);
    await pay(staff, { agent: 'AG-001', month: MONTH }).expect(403);

    // Another organization sees none of this one's agents or payouts, and cannot void them.
    const other = await seedTenant(t);
    expect((await month(other.user)).data).toEqual([]);
    const [payout] = await t.db.platform.commissionPayout.findMany({ where: { organization_id: org.id } });
    await voidIt(other.user, payout!.id, { reason: 'not mine' }).expect(404);
    const list = ZCommissionPayoutListSchema.parse((await t.http.get('/payg/commissions/payouts').set(other.user.auth).expect(200)).body);
    expect(list.data).toEqual([]);
  });
});
