import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZCustomerPaymentDetailsSchema, ZCustomerStatusReplySchema, ZDeviceActivitySchema, ZReportSchema, type Repayment } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, payCash } from './support/plans.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant, type SeededUser } from './support/factories.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { ReportsService } from '../src/reports/reports.service.js';
import { Calendar } from '../src/common/calendar.js';
import { toPeriod } from '../src/metrics/period.js';

const DAY_MS = 86_400_000;

/**
 * A customer's repayment standing (README "Repayment standing"): what the
 * plan expects paid by today (1,500 upfront on the README's plan, then 50 a
 * day after its 3 grace days, at most the 20,000 payoff price), what was paid
 * towards it, the share and the standing, the same in the status, payment
 * details and every form of the customer report.
 */
describe('repayment standing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const status = async (user: SeededUser, customerId: number) =>
    ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customerId}/status`).set(user.auth).expect(200)).body);
  const details = async (user: SeededUser, customerId: number) =>
    ZCustomerPaymentDetailsSchema.parse((await t.http.get(`/payg/customers/${customerId}/payment-details`).set(user.auth).expect(200)).body).data;
  const report = (user: SeededUser, body: Record<string, unknown>) => t.http.post('/payg/reports/page').set(user.auth).send(body);

  /** The device was given `days` days and an hour ago. */
  const givenDaysAgo = (orgId: string, itemId: number, days: number) =>
    t.db.db.item.update({ where: { organization_id_id: { organization_id: orgId, id: itemId } }, data: { assigned_at: new Date(Date.now() - days * DAY_MS - 3_600_000) } });

  /** A customer on the README's plan with a device given `days` ago and `paid` paid on it. */
  async function customerPaying(user: SeededUser, orgId: string, days: number, paid: string | null, name = 'Achieng Otieno') {
    const { customer, item } = await seedCustomerWithDevice(t, orgId, { template: README_PLAN, customer: { customer_name: name } });
    if (paid) await payCash(t, user, item.serial_number, paid);
    await givenDaysAgo(orgId, item.id, days);
    return { customer, item };
  }

  it('expects the upfront amount, then a day’s price for every day after the grace days, and says how far the customer is', async () => {
    const { user, org } = await seedTenant(t);
    // 20 days after it was given: 1,500 + 50 × (20 − 3) = 2,350 expected; 2,200 paid is 93.6 %.
    const { customer, item } = await customerPaying(user, org.id, 20, '2200.00');
    const onTrack: Repayment = { expected_by_today: '2350.00', paid_towards: '2200.00', repaid_share: 93.6, standing: 'on_track' };

    const s = await status(user, customer.id);
    expect(s.repayment).toEqual(onTrack);
    expect(s.devices.map((d) => [d.serial_number, d.repayment])).toEqual([[item.serial_number, onTrack]]);
    const d = await details(user, customer.id);
    expect(d.repayment).toEqual(onTrack);
    expect(d.devices[0]!.repayment).toEqual(onTrack);

    // The device's own page says the same.
    const activity = async () =>
      ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${item.serial_number}/activity`).set(user.auth).expect(200)).body).data.device_info.repayment;
    expect(await activity()).toEqual(onTrack);

    // 40 days: 1,500 + 50 × 37 = 3,350 expected; 2,200 is 65.7 %, behind.
    await givenDaysAgo(org.id, item.id, 40);
    expect((await status(user, customer.id)).repayment).toEqual({ expected_by_today: '3350.00', paid_towards: '2200.00', repaid_share: 65.7, standing: 'behind' });
    // 100 days: 6,350 expected; 34.6 %, far behind.
    await givenDaysAgo(org.id, item.id, 100);
    expect((await status(user, customer.id)).repayment).toMatchObject({ expected_by_today: '6350.00', repaid_share: 34.6, standing: 'far_behind' });
    // A year and a half: the expected stops at the payoff price.
    await givenDaysAgo(org.id, item.id, 550);
    expect((await status(user, customer.id)).repayment).toMatchObject({ expected_by_today: '20000.00', repaid_share: 11, standing: 'far_behind' });
    expect(await activity()).toMatchObject({ expected_by_today: '20000.00', repaid_share: 11, standing: 'far_behind' });
    // A device in stock has no standing.
    const stock = await seedItem(t, org.id, {});
    const inStock = ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${stock.serial_number}/activity`).set(user.auth).expect(200)).body);
    expect(inStock.data.device_info.repayment).toEqual({ expected_by_today: null, paid_towards: null, repaid_share: null, standing: null });
  });

  it('counts the upfront amount from the first day, the grace days free, and a customer ahead over 100 %', async () => {
    const { user, org } = await seedTenant(t);
    // Given today, nothing paid: 1,500 expected, 0 %.
    const fresh = await customerPaying(user, org.id, 0, null, 'Baraka Mwangi');
    expect((await status(user, fresh.customer.id)).repayment).toEqual({ expected_by_today: '1500.00', paid_towards: '0.00', repaid_share: 0, standing: 'far_behind' });
    // Three days, the grace days: still 1,500; 1,500 paid is on track at 100 %.
    const grace = await customerPaying(user, org.id, 3, '1500.00', 'Chebet Kiprop');
    expect((await status(user, grace.customer.id)).repayment).toEqual({ expected_by_today: '1500.00', paid_towards: '1500.00', repaid_share: 100, standing: 'on_track' });
    // Ten days, 5,000 paid: 1,850 expected, 270.3 %.
    const ahead = await customerPaying(user, org.id, 10, '5000.00', 'Dalmas Ouma');
    expect((await status(user, ahead.customer.id)).repayment).toEqual({ expected_by_today: '1850.00', paid_towards: '5000.00', repaid_share: 270.3, standing: 'on_track' });
  });

  it('does not expect the days given free paid for: a ticket’s free days, a code by days; another customer starts from none', async () => {
    const { user, org } = await seedTenant(t);
    // 40 days: 3,350 expected, 2,200 paid: 65.7 %, behind.
    const { customer, item } = await customerPaying(user, org.id, 40, '2200.00');
    expect((await status(user, customer.id)).repayment).toMatchObject({ expected_by_today: '3350.00', standing: 'behind' });
    // Ten days for the time the lamp was down, with its repair: 500 less expected.
    const ticket = (await t.http.post('/payg/tickets').set(user.auth).send({ serial_number: item.serial_number, category: 'device_fault', description: 'No light' }).expect(201)).body;
    await t.http.patch(`/payg/tickets/${ticket.data.ticket_id}`).set(user.auth).send({ status: 'resolved', resolution: 'New battery', compensation_days: 10 }).expect(200);
    expect((await status(user, customer.id)).repayment).toEqual({ expected_by_today: '2850.00', paid_towards: '2200.00', repaid_share: 77.2, standing: 'behind' });
    // And five more given on the Tokens page: 2,600 expected, 84.6 %.
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 5 }).expect(200);
    expect((await status(user, customer.id)).repayment).toMatchObject({ expected_by_today: '2600.00', repaid_share: 84.6, standing: 'behind' });
    // A payment buys days, it does not give them.
    await payCash(t, user, item.serial_number, '250.00');
    expect((await status(user, customer.id)).repayment).toMatchObject({ expected_by_today: '2600.00', paid_towards: '2450.00', repaid_share: 94.2, standing: 'on_track' });

    // The free days are the account's: the device given to another customer starts without them.
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: item.serial_number }).expect(200);
    const next = await seedCustomer(t, org.id, { customer_name: 'Next Holder' });
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: next.id, item_serial_number: item.serial_number }).expect(200);
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, select: { free_days: true, total_paid: true } });
    expect({ free_days: device.free_days, total_paid: device.total_paid.toFixed(2) }).toEqual({ free_days: 0, total_paid: '0.00' });
  });

  it('adds up the devices that have a plan, and a customer is paid off when every one of them is', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await customerPaying(user, org.id, 30, '3000.00');
    // A second device on the customer's plan, paid off; a third with no payoff price on no plan has no standing.
    const second = await seedItem(t, org.id, { customer_id: customer.id, price: '20000.00' });
    await t.db.db.itemAssignment.create({ data: { organization_id: org.id, item_id: second.id, customer_id: customer.id } });
    await payCash(t, user, second.serial_number, '20000.00');
    await givenDaysAgo(org.id, second.id, 30);
    const other = await seedCustomer(t, org.id, { customer_name: 'Not this one' });
    const third = await seedItem(t, org.id, { customer_id: other.id, price: '0.00' });
    await t.db.db.itemAssignment.create({ data: { organization_id: org.id, item_id: third.id, customer_id: other.id } });

    const s = await status(user, customer.id);
    const bySerial = Object.fromEntries(s.devices.map((d) => [d.serial_number, d.repayment]));
    // 30 days: 1,500 + 50 × 27 = 2,850 expected on the first; the paid-off one expects and has its 20,000.
    expect(bySerial[item.serial_number]).toEqual({ expected_by_today: '2850.00', paid_towards: '3000.00', repaid_share: 105.3, standing: 'on_track' });
    expect(bySerial[second.serial_number]).toEqual({ expected_by_today: '20000.00', paid_towards: '20000.00', repaid_share: 100, standing: 'paid_off' });
    // 23,000 paid towards 22,850 expected: 100.7 %.
    expect(s.repayment).toEqual({ expected_by_today: '22850.00', paid_towards: '23000.00', repaid_share: 100.7, standing: 'on_track' });
    expect((await details(user, customer.id)).repayment).toEqual(s.repayment);
    // No plan, no payoff price: nothing says what it should have paid.
    const none: Repayment = { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null };
    expect((await status(user, other.id)).repayment).toEqual(none);
    expect((await status(user, other.id)).devices[0]!.repayment).toEqual(none);

    // Once the first is paid off too, the customer is.
    await payCash(t, user, item.serial_number, '17000.00');
    expect((await status(user, customer.id)).repayment).toEqual({ expected_by_today: '40000.00', paid_towards: '40000.00', repaid_share: 100, standing: 'paid_off' });
  });

  it('the customer report says the same, whole, paged, as CSV and PDF, with the share over all of them in its totals', async () => {
    const { user, org } = await seedTenant(t);
    const a = await customerPaying(user, org.id, 20, '2200.00', 'Achieng Otieno'); // 2,350 expected, 93.6 %, on track
    const b = await customerPaying(user, org.id, 40, '2200.00', 'Baraka Mwangi'); // 3,350 expected, 65.7 %, behind
    const c = await seedCustomer(t, org.id, { customer_name: 'No Device' });

    const whole = ZReportSchema.parse((await report(user, { report: 'customers' }).expect(200)).body);
    expect(whole.columns.map((col) => col.label)).toEqual(
      expect.arrayContaining(['Expected by Today', 'Paid Towards It', 'Repaid %', 'Standing']),
    );
    const pick = (rows: typeof whole.rows) =>
      Object.fromEntries(rows.map((r) => [r.customer_id, [r.expected, r.paid_towards, r.repaid_share, r.standing]]));
    const expected = {
      [a.customer.id]: ['2350.00', '2200.00', 93.6, 'On track'],
      [b.customer.id]: ['3350.00', '2200.00', 65.7, 'Behind'],
      [c.id]: [null, null, null, null],
    };
    expect(pick(whole.rows)).toEqual(expected);
    // 4,400 of 5,700 expected over the whole report is 77.2 %.
    expect(whole.totals).toMatchObject({ expected: '5700.00', paid_towards: '4400.00', repaid_share: 77.2 });
    const page = ZReportSchema.parse((await report(user, { report: 'customers', limit: 2, offset: 0 }).expect(200)).body);
    expect(page.rows).toHaveLength(2);
    expect(page.totals).toMatchObject({ expected: '5700.00', paid_towards: '4400.00', repaid_share: 77.2 });
    expect(pick(page.rows)).toEqual({ [a.customer.id]: expected[a.customer.id], [b.customer.id]: expected[b.customer.id] });

    const csv = (await report(user, { report: 'customers', format: 'csv' }).expect(200)).text.trim().split('\r\n').map((line) => line.split(','));
    const at = (label: string) => csv[0]!.indexOf(label);
    const csvRow = (first: string) => csv.find((r) => r[0] === first)!;
    expect([at('Expected by Today'), at('Repaid %'), at('Standing')].every((i) => i > 0)).toBe(true);
    expect([csvRow(String(b.customer.id))[at('Expected by Today')], csvRow(String(b.customer.id))[at('Repaid %')], csvRow(String(b.customer.id))[at('Standing')]]).toEqual([
      '3350.00',
      '65.7',
      'Behind',
    ]);
    expect(csvRow('Total')[at('Repaid %')]).toBe('77.2');

    const pdf = pdfText(bodyBytes(await report(user, { report: 'customers', format: 'pdf' }).buffer(true).parse(binaryParser).expect(200)));
    if (pdf !== null) {
      expect(pdf).toContain('Standing');
      expect(pdf).toMatch(/On track/);
      expect(pdf).toMatch(/Behind/);
    }
  });

  it('the customer report of some standings only: the customers to offer a second product to, rows and totals', async () => {
    const { user, org } = await seedTenant(t);
    const onTrack = await customerPaying(user, org.id, 20, '2200.00', 'Achieng Otieno'); // 93.6 %
    const behind = await customerPaying(user, org.id, 40, '2200.00', 'Baraka Mwangi'); // 65.7 %
    const farBehind = await customerPaying(user, org.id, 100, '2200.00', 'Chebet Kiprop'); // 34.6 %
    const paidOff = await customerPaying(user, org.id, 100, '20000.00', 'Dalmas Ouma');
    await seedCustomer(t, org.id, { customer_name: 'No Device' });
    // Exactly 90 %: 2,115 of 2,350 is on track, 1 cent less is behind (the filter and the rows compare alike).
    const edge = await customerPaying(user, org.id, 20, '2115.00', 'Edge Exact');
    const under = await customerPaying(user, org.id, 20, '2114.99', 'Edge Under');

    const ids = (r: { rows: Record<string, unknown>[] }) => r.rows.map((row) => row.customer_id);
    const eligible = ZReportSchema.parse((await report(user, { report: 'customers', standing: ['paid_off', 'on_track'] }).expect(200)).body);
    expect(ids(eligible)).toEqual([onTrack.customer.id, paidOff.customer.id, edge.customer.id]);
    expect(eligible.rows.map((r) => r.standing)).toEqual(['On track', 'Paid off', 'On track']);
    // 2,200 + 20,000 + 2,115 towards 2,350 + 20,000 + 2,350.
    expect(eligible.totals).toMatchObject({ rows: 3, devices: 3, expected: '24700.00', paid_towards: '24315.00', repaid_share: 98.4 });
    expect(eligible.note).toBe('Standing: Paid off, On track only.');

    const behindOnes = ZReportSchema.parse((await report(user, { report: 'customers', standing: ['behind', 'far_behind'] }).expect(200)).body);
    expect(ids(behindOnes)).toEqual([behind.customer.id, farBehind.customer.id, under.customer.id]);
    expect(behindOnes.rows.map((r) => r.standing)).toEqual(['Behind', 'Far behind', 'Behind']);

    // Paged: the same rows a page at a time, the totals of all of them on each.
    for (const [offset, limit] of [[0, 2], [2, 2], [1, 1], [3, 5]] as const) {
      const page = ZReportSchema.parse((await report(user, { report: 'customers', standing: ['paid_off', 'on_track'], limit, offset }).expect(200)).body);
      expect({ offset, rows: page.rows, totals: page.totals }).toEqual({ offset, rows: eligible.rows.slice(offset, offset + limit), totals: eligible.totals });
    }
    // Deep pages come from one pass over the organization instead of the stream: the same rows.
    const reports = t.app.get(ReportsService);
    const period = toPeriod(null, null, t.app.get(Calendar));
    for (const [offset, limit] of [[0, 3], [0, 2], [1, 2], [2, 5], [3, 1]] as const) {
      const [streamed, hashed] = await Promise.all([
        reports.filteredPage(org.id, period, ['paid_off', 'on_track'], offset, limit, 1_000),
        reports.filteredPage(org.id, period, ['paid_off', 'on_track'], offset, limit, 0),
      ]);
      expect({ offset, limit, rows: hashed }).toEqual({ offset, limit, rows: streamed });
      expect(streamed).toEqual(eligible.rows.slice(offset, offset + limit));
    }
    expect(await reports.filteredPage(org.id, period, ['behind'], 0, 5, 0)).toEqual(behindOnes.rows.filter((r) => r.standing === 'Behind'));
    const pdf = pdfText(bodyBytes(await report(user, { report: 'customers', standing: ['on_track', 'paid_off'], format: 'pdf' }).buffer(true).parse(binaryParser).expect(200)));
    if (pdf !== null) expect(pdf).toContain('Standing: Paid off, On track only.');
    const csv = (await report(user, { report: 'customers', standing: ['paid_off'], format: 'csv' }).expect(200)).text.trim().split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]!.startsWith(`${paidOff.customer.id},Dalmas Ouma,`)).toBe(true);
    expect(csv[2]!.startsWith('Total,')).toBe(true);

    const refused = async (body: Record<string, unknown>) => (await report(user, body).expect(400)).body.message as string;
    expect(await refused({ report: 'agents', standing: ['on_track'] })).toBe('standing: only with the customer report');
    expect(await refused({ report: 'customers', standing: [] })).toMatch(/^standing: /);
    expect(await refused({ report: 'customers', standing: ['good'] })).toMatch(/^standing\.0: /);
  });

  it('reads only the organization’s own customers', async () => {
    const mine = await seedTenant(t);
    const theirs = await seedTenant(t);
    const { customer } = await customerPaying(theirs.user, theirs.org.id, 20, '2200.00');
    await t.http.get(`/payg/customers/${customer.id}/status`).set(mine.user.auth).expect(404);
    await t.http.get(`/payg/customers/${customer.id}/payment-details`).set(mine.user.auth).expect(404);
    const mineReport = ZReportSchema.parse((await report(mine.user, { report: 'customers' }).expect(200)).body);
    expect(mineReport.rows).toEqual([]);
    expect(mineReport.totals).toMatchObject({ expected: '0.00', paid_towards: '0.00', repaid_share: null });
  });
});
