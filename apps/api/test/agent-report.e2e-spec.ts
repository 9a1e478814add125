import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZReportSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { payCash } from './support/plans.js';
import { seedCustomerWithDevice, seedTenant, type SeededUser } from './support/factories.js';

// The Agent report (POST /payg/reports/page {report: 'agents'}): per sales
// agent, the customers and devices they brought and the money and arrears of
// their customers (README "Metrics, reports, histories ...").

const DAY = 86_400_000;

describe('the agent report', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const report = async (user: SeededUser, body: Record<string, unknown> = {}) =>
    ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'agents', ...body }).expect(200)).body);

  it('adds up each agent’s customers, devices, payments and arrears, most revenue first, customers without an agent last', async () => {
    const { user, org } = await seedTenant(t);
    const plan = { daily_price: '50.00' };
    const withAgent = async (agent: string | null, creditUntil: Date | null = null) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: plan });
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { agent_id: agent } });
      if (creditUntil) await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: d.item.id } }, data: { credit_until: creditUntil } });
      return d;
    };
    const a1 = await withAgent('AG-001');
    const a2 = await withAgent(' AG-001 ', new Date(Date.now() - 40 * DAY));
    const b1 = await withAgent('AG-002', new Date(Date.now() - 3 * DAY));
    const none = await withAgent(null);
    await payCash(t, user, a1.item.serial_number, '500.00');
    await payCash(t, user, a2.item.serial_number, '100.00');
    await payCash(t, user, b1.item.serial_number, '1000.00');
    await payCash(t, user, none.item.serial_number, '50.00');
    // Paying moved the credit forward: put the two in arrears back.
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: a2.item.id } }, data: { credit_until: new Date(Date.now() - 40 * DAY) } });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: b1.item.id } }, data: { credit_until: new Date(Date.now() - 3 * DAY) } });

    const r = await report(user);
    expect(r.columns.map((c) => c.label)).toEqual(['Agent', 'New Customers', 'Devices Given', 'Payments', 'Revenue', 'Out of Credit Now', 'Over 30 Days']);
    expect(r.rows).toEqual([
      { agent: 'AG-002', new_customers: 1, devices_given: 1, payments: 1, revenue: '1000.00', out_of_credit: 1, over_30_days: 0 },
      { agent: 'AG-001', new_customers: 2, devices_given: 2, payments: 2, revenue: '600.00', out_of_credit: 1, over_30_days: 1 },
      { agent: '(no agent)', new_customers: 1, devices_given: 1, payments: 1, revenue: '50.00', out_of_credit: 0, over_30_days: 0 },
    ]);
    expect(r.totals).toEqual({ rows: 3, new_customers: 4, devices_given: 4, payments: 4, revenue: '1650.00', out_of_credit: 2, over_30_days: 1 });

    // A period before any of it: only the arrears, which are now.
    const past = await report(user, { from: '2020-01-01', to: '2020-12-31' });
    expect(past.rows.map((x) => [x.agent, x.new_customers, x.payments, x.out_of_credit])).toEqual([
      ['AG-001', 0, 0, 1],
      ['AG-002', 0, 0, 1],
    ]);
    // As CSV, for the commission sheet.
    const csv = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'agents', format: 'csv' }).expect(200);
    expect(csv.text.split(/\r?\n/)[0]).toBe('Agent,New Customers,Devices Given,Payments,Revenue,Out of Credit Now,Over 30 Days');
    expect(csv.text).toContain('AG-002,1,1,1,1000.00,1,0');
    // Another organization's agents are not in it.
    const other = await seedTenant(t);
    expect((await report(other.user)).rows).toEqual([]);
  });
});
