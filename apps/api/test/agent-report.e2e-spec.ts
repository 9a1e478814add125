import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZCommissionSettingsSchema, ZReportSchema } from '@kidogo/contracts';
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
    expect(r.columns.map((c) => c.label)).toEqual([
      'Agent',
      'New Customers',
      'Devices Given',
      'Payments',
      'Revenue',
      'Commission',
      'Out of Credit Now',
      'Over 30 Days',
    ]);
    // No commission set: 0.00 for everyone.
    expect(r.rows).toEqual([
      { agent: 'AG-002', new_customers: 1, devices_given: 1, payments: 1, revenue: '1000.00', commission: '0.00', out_of_credit: 1, over_30_days: 0 },
      { agent: 'AG-001', new_customers: 2, devices_given: 2, payments: 2, revenue: '600.00', commission: '0.00', out_of_credit: 1, over_30_days: 1 },
      { agent: '(no agent)', new_customers: 1, devices_given: 1, payments: 1, revenue: '50.00', commission: '0.00', out_of_credit: 0, over_30_days: 0 },
    ]);
    expect(r.totals).toEqual({
      rows: 3,
      new_customers: 4,
      devices_given: 4,
      payments: 4,
      revenue: '1650.00',
      commission: '0.00',
      out_of_credit: 2,
      over_30_days: 1,
    });

    // 150.00 a device and 2.5% of payments: AG-001 gave 2 devices and collected 600.00 (300.00 + 15.00).
    await t.http.put('/payg/settings/commissions').set(user.auth).send({ per_device: 150, percent: '2.5' }).expect(200);
    const paid = await report(user);
    expect(paid.rows.map((x) => [x.agent, x.commission])).toEqual([
      ['AG-002', '175.00'],
      ['AG-001', '315.00'],
      ['(no agent)', '151.25'],
    ]);
    expect(paid.totals.commission).toBe('641.25');
    expect(paid.note).toBe('Commission: 150.00 per device given and 2.50% of payments collected, as set in Settings, Agent Commissions.');
    expect(r.note).toBe('No agent commissions are set: owners and admins set them in Settings, Agent Commissions.');
    // The printed sheet says what the commission rests on.
    const pdf = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'agents', format: 'pdf' }).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(pdf.status).toBe(200);
    expect((pdf.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // A period before any of it: only the arrears, which are now.
    const past = await report(user, { from: '2020-01-01', to: '2020-12-31' });
    expect(past.rows.map((x) => [x.agent, x.new_customers, x.payments, x.out_of_credit])).toEqual([
      ['AG-001', 0, 0, 1],
      ['AG-002', 0, 0, 1],
    ]);
    // As CSV, for the commission sheet.
    const csv = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'agents', format: 'csv' }).expect(200);
    expect(csv.text.split(/\r?\n/)[0]).toBe('Agent,New Customers,Devices Given,Payments,Revenue,Commission,Out of Credit Now,Over 30 Days');
    expect(csv.text).toContain('AG-002,1,1,1,1000.00,175.00,1,0');
    // Another organization's agents are not in it.
    const other = await seedTenant(t);
    expect((await report(other.user)).rows).toEqual([]);
  });

  describe('commission settings', () => {
    const get = async (user: SeededUser) =>
      ZCommissionSettingsSchema.parse((await t.http.get('/payg/settings/commissions').set(user.auth).expect(200)).body);
    const put = (user: SeededUser, body: object) => t.http.put('/payg/settings/commissions').set(user.auth).send(body);

    it('start at none, keep a field left out, and show what an agent earns', async () => {
      const { user } = await seedTenant(t);
      expect(await get(user)).toEqual({
        per_device: '0.00',
        percent: '0.00',
        example: { devices_given: 10, revenue: '100000.00', commission: '0.00' },
      });
      const set = ZCommissionSettingsSchema.parse((await put(user, { per_device: '500', percent: 2.5 }).expect(200)).body);
      expect(set).toEqual({ per_device: '500.00', percent: '2.50', example: { devices_given: 10, revenue: '100000.00', commission: '7500.00' } });
      expect((await put(user, { percent: 0.33 }).expect(200)).body).toMatchObject({ per_device: '500.00', percent: '0.33' });
      // 5,000.00 + 330.00
      expect((await get(user)).example.commission).toBe('5330.00');
      const [entry] = await t.db.db.auditLog.findMany({ where: { action: 'commissions.update', organization_id: user.organization_id }, orderBy: { id: 'desc' }, take: 1 });
      expect(entry?.description).toBe(`Agent commissions: 500.00 per device given and 0.33% of payments collected, set by ${user.username}`);
      expect(entry?.metadata).toEqual({ before: { per_device: '500.00', percent: '2.50' }, after: { per_device: '500.00', percent: '0.33' } });
      await put(user, { per_device: 0, percent: 0 }).expect(200);
      const [off] = await t.db.db.auditLog.findMany({ where: { action: 'commissions.update', organization_id: user.organization_id }, orderBy: { id: 'desc' }, take: 1 });
      expect(off?.description).toBe(`Agent commissions off, set by ${user.username}`);
    });

    it('refuse a value out of range or with more than 2 decimals, naming the field, and change nothing', async () => {
      const { user } = await seedTenant(t);
      await put(user, { per_device: 100, percent: 1 }).expect(200);
      const cases: [object, string, string][] = [
        [{ per_device: -1 }, 'per_device', 'must be at least 0'],
        [{ per_device: 1_000_001 }, 'per_device', 'must be at most 1000000'],
        [{ per_device: '12.345' }, 'per_device', 'must have at most 2 decimals'],
        [{ per_device: 'ten' }, 'per_device', 'must be a number'],
        [{ percent: 100.01 }, 'percent', 'must be at most 100'],
        [{ percent: -0.5 }, 'percent', 'must be at least 0'],
        [{ percent: null }, 'percent', 'must be a number'],
      ];
      for (const [body, field, message] of cases) {
        const res = await put(user, { percent: 5, ...body }).expect(400);
        expect(JSON.stringify(res.body)).toContain(field);
        expect(JSON.stringify(res.body)).toContain(message);
      }
      const extra = await put(user, { per_device: 5, rate: 3 }).expect(400);
      expect(JSON.stringify(extra.body)).toContain('rate');
      expect(await get(user)).toMatchObject({ per_device: '100.00', percent: '1.00' });
    });

    it('are for owners and admins, and each organization has its own', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await put(a.user, { per_device: 300 }).expect(200);
      expect((await get(b.user)).per_device).toBe('0.00');
      const staff = await seedTenant(t, { role: 'staff' });
      await t.http.get('/payg/settings/commissions').set(staff.user.auth).expect(403);
      await put(staff.user, { per_device: 1 }).expect(403);
    });
  });
});
