import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZReportSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedPayment, seedTenant, type SeededUser } from './support/factories.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { MetricSnapshots, REPORT_KEPT_S, SNAPSHOT_SLOW_MS } from '../src/metrics/metric-snapshots.js';

// The Portfolio report (POST /payg/reports/page {report: 'portfolio'}): the
// devices given each month (sales cohorts) and how each cohort is repaying
// (README "Metrics, reports, histories ...").

const DAY = 86_400_000;
/** The test app's business time zone, Africa/Nairobi, is UTC+3 all year. */
const ZONE_OFFSET = 3 * 3_600_000;

/** Noon (Nairobi) on the 15th of the month `k` months before this one, and that month as "YYYY-MM". */
function monthsAgo(k: number): { at: Date; month: string } {
  const local = new Date(Date.now() + ZONE_OFFSET);
  const at = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - k, 15, 9));
  return { at, month: at.toISOString().slice(0, 7) };
}

const PLAN = { daily_price: '50.00', free_code_price: '10000.00' };

describe('the portfolio report', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (user: SeededUser, body: Record<string, unknown>) => t.http.post('/payg/reports/page').set(user.auth).send({ report: 'portfolio', ...body });
  const report = async (user: SeededUser, body: Record<string, unknown> = {}) => ZReportSchema.parse((await post(user, body).expect(200)).body);

  /** A customer given a device on the plan at `opened`, with payments of [amount, days after opening]. */
  async function account(orgId: string, opened: Date, payments: [string, number][], opts: { creditUntil?: Date } = {}) {
    const d = await seedCustomerWithDevice(t, orgId, { template: PLAN });
    await t.db.db.itemAssignment.updateMany({ where: { organization_id: orgId, item_id: d.item.id }, data: { assigned_at: opened } });
    for (const [amount, days] of payments) {
      const at = new Date(opened.getTime() + days * DAY);
      const p = await seedPayment(t, orgId, { customer_id: d.customer.id, item_id: d.item.id, amount, paid_at: at });
      await t.db.db.payment.update({ where: { organization_id_id: { organization_id: orgId, id: p.id } }, data: { applied_at: at } });
    }
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: orgId, id: d.item.id } },
      data: { assigned_at: opened, credit_until: opts.creditUntil ?? new Date(Date.now() + 10 * DAY) },
    });
    return d;
  }

  it('groups the accounts by the month they opened and reads each cohort’s repayment, at 3, 6 and 12 months too', async () => {
    const { user, org } = await seedTenant(t);
    const old = monthsAgo(14);
    const recent = monthsAgo(4);

    // Old cohort: one paid off within a year, one repossessed after paying 1,000.00 of 10,000.00.
    const paidOff = await account(org.id, old.at, [['2000.00', 10], ['3000.00', 100], ['5000.00', 300]]);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: paidOff.item.id } }, data: { paid_off_at: new Date(old.at.getTime() + 300 * DAY) } });
    const taken = await account(org.id, old.at, [['1000.00', 5]], { creditUntil: new Date(Date.now() - 200 * DAY) });
    await t.http.post('/payg/items/repossess').set(user.auth).send({ item_serial_number: taken.item.serial_number, reason: 'Stopped paying' }).expect(200);

    // Recent cohort: one out of credit for 40 days, one paying on time; a failed payment counts for nothing.
    const behind = await account(org.id, recent.at, [['500.00', 20]], { creditUntil: new Date(Date.now() - 40 * DAY) });
    await seedPayment(t, org.id, { customer_id: behind.customer.id, item_id: behind.item.id, amount: '700.00', status: 'failed', paid_at: recent.at });
    await account(org.id, recent.at, [['2000.00', 15]]);

    // A device given in the old month to one customer, given back, and given to another in the recent month: two
    // accounts, each with its own customer's payments. The first ended without a repossession: no contract value.
    const [first, second] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
    const device = await seedItem(t, org.id, { customer_id: second.id });
    await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: second.id, template_id: paidOff.template.id, is_active: true } });
    await t.db.db.itemAssignment.createMany({
      data: [
        { organization_id: org.id, item_id: device.id, customer_id: first.id, assigned_at: old.at, unassigned_at: monthsAgo(10).at },
        { organization_id: org.id, item_id: device.id, customer_id: second.id, assigned_at: recent.at },
      ],
    });
    for (const [customer, amount, from] of [[first, '1000.00', old.at], [second, '600.00', recent.at]] as const) {
      const at = new Date(from.getTime() + 10 * DAY);
      const p = await seedPayment(t, org.id, { customer_id: customer.id, item_id: device.id, amount, paid_at: at });
      await t.db.db.payment.update({ where: { organization_id_id: { organization_id: org.id, id: p.id } }, data: { applied_at: at } });
    }
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: org.id, id: device.id } },
      data: { total_paid: '600.00', credit_until: new Date(Date.now() + 5 * DAY) },
    });

    const r = await report(user);
    expect(r.columns.map((c) => `${c.label}:${c.type}`)).toEqual([
      'Month Given:text',
      'Devices Given:number',
      'Contract Value:money',
      'Collected:money',
      'Repaid:percent',
      'By Month 3:percent',
      'By Month 6:percent',
      'By Month 12:percent',
      'Paid Off:number',
      'PAR30:percent',
      'Repossessed:number',
      'Written Off:money',
    ]);
    expect(r.rows).toEqual([
      {
        month: old.month,
        accounts: 3,
        contract_value: '20000.00',
        collected: '12000.00',
        // (10,000 + 1,000) of 20,000; the account without a contract value is not in the shares.
        repaid: 55,
        repaid_3m: 15,
        repaid_6m: 30,
        repaid_12m: 55,
        paid_off: 1,
        par30: 0,
        repossessed: 1,
        written_off: '9000.00',
      },
      {
        month: recent.month,
        accounts: 3,
        contract_value: '30000.00',
        collected: '3100.00',
        repaid: 10.3,
        repaid_3m: 10.3,
        // Not 6 months old yet.
        repaid_6m: null,
        repaid_12m: null,
        paid_off: 0,
        // 9,500.00 left on the device out of credit for 40 days, of 9,500 + 8,000 + 9,400 left on the three.
        par30: 35.3,
        repossessed: 0,
        written_off: '0.00',
      },
    ]);
    expect(r.totals).toEqual({
      rows: 2,
      accounts: 6,
      contract_value: '50000.00',
      collected: '15100.00',
      repaid: 28.2,
      repaid_3m: 12.2,
      repaid_6m: 30,
      repaid_12m: 55,
      paid_off: 1,
      par30: 35.3,
      repossessed: 1,
      written_off: '9000.00',
    });

    // The period chooses the cohorts: the devices given from the recent month on.
    const since = await report(user, { from: `${recent.month}-01` });
    expect(since.rows.map((x) => x.month)).toEqual([recent.month]);
    expect(since.totals).toMatchObject({ rows: 1, accounts: 3, collected: '3100.00', repaid_6m: null, par30: 35.3 });
    // A page of it keeps the totals of the whole.
    const page = await report(user, { limit: 1, offset: 1 });
    expect(page.rows.map((x) => x.month)).toEqual([recent.month]);
    expect(page.totals).toMatchObject({ rows: 2, accounts: 6 });

    // As CSV: the shares as numbers of percent, empty where a cohort is too young.
    const csv = await post(user, { format: 'csv' }).expect(200);
    const lines = csv.text.split(/\r\n/);
    expect(lines[0]).toBe('Month Given,Devices Given,Contract Value,Collected,Repaid,By Month 3,By Month 6,By Month 12,Paid Off,PAR30,Repossessed,Written Off');
    expect(lines[1]).toBe(`${old.month},3,20000.00,12000.00,55,15,30,55,1,0,1,9000.00`);
    expect(lines[2]).toBe(`${recent.month},3,30000.00,3100.00,10.3,10.3,,,0,35.3,0,0.00`);
    expect(lines[3]).toBe('Total,6,50000.00,15100.00,28.2,12.2,30,55,1,35.3,1,9000.00');
    // As PDF: the shares with their per cent sign.
    const pdf = await post(user, { format: 'pdf' }).buffer(true).parse(binaryParser).expect(200);
    expect(bodyBytes(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bodyBytes(pdf));
    if (text !== null) {
      expect(text).toContain('Portfolio Report');
      expect(text).toContain('55.0%');
      expect(text).toContain('35.3%');
    }

    // Worked out now on a small portfolio: no note of when.
    expect(r.note ?? null).toBeNull();

    // One sales agent's customers: the old cohort's two accounts were sold by AGT-001 (written two ways, trimmed).
    for (const [d, agent] of [[paidOff, ' AGT-001'], [taken, 'AGT-001 ']] as const) {
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { agent_id: agent } });
    }
    const agent = await report(user, { agent: 'AGT-001' });
    expect(agent.rows.map((x) => [x.month, x.accounts, x.collected, x.repaid, x.repossessed])).toEqual([[old.month, 2, '11000.00', 55, 1]]);
    expect(agent.note).toBe('Agent: AGT-001.');
    const none = await report(user, { agent: '(no agent)' });
    expect(none.rows.map((x) => [x.month, x.accounts])).toEqual([[old.month, 1], [recent.month, 3]]);
    expect(none.note).toBe('Agent: the customers without an agent.');
    expect((await report(user, { agent: 'AGT-999' })).rows).toEqual([]);

    // Another organization sees none of it.
    const other = await seedTenant(t);
    const empty = await report(other.user);
    expect(empty.rows).toEqual([]);
    expect(empty.totals).toMatchObject({ rows: 0, accounts: 0, contract_value: '0.00', collected: '0.00', repaid: null, par30: 0 });
  });

  it('continues an account given back to the same customer, and opens a new one when another held the device between', async () => {
    const { user, org } = await seedTenant(t);
    const [a, b] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
    const template = await t.db.db.paymentTemplate.create({
      data: { organization_id: org.id, template_name: 'Lamp', daily_price: '20.00', free_code_price: '3000.00' },
    });
    await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: a.id, template_id: template.id, is_active: true } });
    const at = (k: number, days = 0) => new Date(monthsAgo(k).at.getTime() + days * DAY);
    // Lamp 1: A, given back and given to A again (one account); lamp 2: A, then B, then A again (three accounts).
    const [one, two] = [await seedItem(t, org.id, { customer_id: a.id }), await seedItem(t, org.id, { customer_id: a.id })];
    await t.db.db.itemAssignment.createMany({
      data: [
        { organization_id: org.id, item_id: one.id, customer_id: a.id, assigned_at: at(8), unassigned_at: at(8, 3) },
        { organization_id: org.id, item_id: one.id, customer_id: a.id, assigned_at: at(7) },
        { organization_id: org.id, item_id: two.id, customer_id: a.id, assigned_at: at(8), unassigned_at: at(6) },
        { organization_id: org.id, item_id: two.id, customer_id: b.id, assigned_at: at(6, 1), unassigned_at: at(3) },
        { organization_id: org.id, item_id: two.id, customer_id: a.id, assigned_at: at(2) },
      ],
    });
    const pay = async (item: number, customer: number, amount: string, when: Date) => {
      const p = await seedPayment(t, org.id, { customer_id: customer, item_id: item, amount, paid_at: when });
      await t.db.db.payment.update({ where: { organization_id_id: { organization_id: org.id, id: p.id } }, data: { applied_at: when } });
    };
    await pay(one.id, a.id, '100.00', at(8, 1));
    await pay(one.id, a.id, '200.00', at(7, 5));
    await pay(two.id, a.id, '300.00', at(8, 2));
    await pay(two.id, b.id, '400.00', at(6, 5));
    await pay(two.id, a.id, '500.00', at(2, 5));
    for (const item of [one, two]) {
      await t.db.db.item.update({
        where: { organization_id_id: { organization_id: org.id, id: item.id } },
        data: { total_paid: item.id === one.id ? '300.00' : '500.00', credit_until: new Date(Date.now() + DAY) },
      });
    }
    const r = await report(user);
    expect(r.rows.map((x) => [x.month, x.accounts, x.collected])).toEqual([
      // Lamp 1's one account (both its payments) and lamp 2's first with A.
      [monthsAgo(8).month, 2, '600.00'],
      [monthsAgo(6).month, 1, '400.00'],
      [monthsAgo(2).month, 1, '500.00'],
    ]);
    // The open accounts are on A's plan (3,000.00 each); the ones that ended without a repossession have no contract value.
    expect(r.rows.map((x) => x.contract_value)).toEqual(['3000.00', '0.00', '3000.00']);
    expect(r.rows[0]!.repaid).toBe(10);
  });

  it('serves a large portfolio’s figures kept minutes ago, and says when they were worked out', async () => {
    const { user, org } = await seedTenant(t);
    const kept = [
      { month: '2026-01', accounts: 40000, contract_value: '600000000.00', collected: '240000000.00', repaid: 40, repaid_3m: 18.5, repaid_6m: 30.1, repaid_12m: null, paid_off: 900, par30: 12.4, repossessed: 310, written_off: '2790000.00' },
      { month: null, accounts: 40000, contract_value: '600000000.00', collected: '240000000.00', repaid: 40, repaid_3m: 18.5, repaid_6m: 30.1, repaid_12m: null, paid_off: 900, par30: 12.4, repossessed: 310, written_off: '2790000.00' },
    ];
    const computedAt = new Date(Date.now() - 2 * 60_000);
    await t.db.db.metricSnapshot.create({
      data: { organization_id: org.id, key: 'report.portfolio.2025-01-01.', value: kept, computed_at: computedAt, took_ms: 9000 },
    });
    const r = await report(user, { from: '2025-01-01' });
    expect(r.rows).toEqual([kept[0]]);
    expect(r.totals).toMatchObject({ rows: 1, accounts: 40000, par30: 12.4 });
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Africa/Nairobi', dateStyle: 'short', timeStyle: 'short' }).format(computedAt);
    expect(r.note).toBe(`Figures as of ${local} (Africa/Nairobi): on a large portfolio they are kept for up to 10 minutes.`);
    // Another period is its own figures, worked out now (none here).
    expect((await report(user, { from: '2025-02-01' })).rows).toEqual([]);
    // Kept longer than 10 minutes ago: worked out again while the caller waits, never served (as a dashboard figure
    // that took seconds would be), so a report run again the next day is that day's.
    await t.db.db.metricSnapshot.update({
      where: { organization_id_key: { organization_id: org.id, key: 'report.portfolio.2025-01-01.' } },
      data: { computed_at: new Date(Date.now() - 11 * 60_000) },
    });
    const again = await report(user, { from: '2025-01-01' });
    expect(again.rows).toEqual([]);
    expect(again.note ?? null).toBeNull();
  });

  it('drops a report’s kept figures a day after they were last worked out, when another is kept', async () => {
    const { org } = await seedTenant(t);
    const snapshots = t.app.get(MetricSnapshots);
    const dayAgo = new Date(Date.now() - (REPORT_KEPT_S + 60) * 1000);
    await t.db.db.metricSnapshot.createMany({
      data: [
        { organization_id: org.id, key: 'report.portfolio.2024-01-01.', value: [], computed_at: dayAgo, took_ms: 9000 },
        { organization_id: org.id, key: 'report.portfolio.2026-01-01.', value: [], computed_at: new Date(), took_ms: 9000 },
        { organization_id: org.id, key: 'performance', value: {}, computed_at: dayAgo, took_ms: 9000 },
      ],
    });
    const slow = async () => {
      await new Promise((r) => setTimeout(r, SNAPSHOT_SLOW_MS + 50));
      return [];
    };
    await snapshots.get(org.id, 'report.portfolio.2025-06-01.', slow, 600, { waitWhenOld: true });
    const keys = (await t.db.db.metricSnapshot.findMany({ where: { organization_id: org.id }, select: { key: true } })).map((k) => k.key).sort();
    expect(keys).toEqual(['performance', 'report.portfolio.2025-06-01.', 'report.portfolio.2026-01-01.']);
  });

  it('refuses a period in the wrong order, or an agent that is empty, too long or for another report, naming the field', async () => {
    const { user } = await seedTenant(t);
    const res = await post(user, { from: '2026-05-01', to: '2026-04-01' }).expect(400);
    expect(JSON.stringify(res.body)).toContain('from');
    for (const [body, message] of [
      [{ agent: '   ' }, 'must not be empty'],
      [{ agent: 'A'.repeat(65) }, 'must be at most 64 characters'],
      [{ agent: 7 }, 'must be text'],
      [{ report: 'agents', agent: 'AGT-001' }, 'only with the portfolio report'],
    ] as const) {
      const refused = await post(user, body).expect(400);
      expect(JSON.stringify(refused.body)).toContain('agent');
      expect(JSON.stringify(refused.body)).toContain(message);
    }
  });
});
