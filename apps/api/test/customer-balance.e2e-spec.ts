import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCustomerPaymentDetailsSchema,
  ZCustomerStatusReplySchema,
  ZPaymentOutcomeSchema,
  ZReportSchema,
  type CustomerPaymentDetails,
  type PaymentOutcome,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant, type SeededUser } from './support/factories.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';

/** The plan of the README's worked examples: 1,500 upfront, 50 a day, 3 grace days, paid off at 20,000. */
const README_PLAN = { deposit_made: '1000.00', activation_price: '500.00', daily_price: '50.00', grace_period_days: 3, free_code_price: '20000.00' };

/**
 * What is left to pay off is worked out per device (README "Payment rules"):
 * GET /customers/{id}/status, GET /customers/{id}/payment-details and the
 * customer report (JSON whole and paged, CSV, PDF, and their totals) must
 * all say the same, for a customer with several devices too.
 */
describe('customer balance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A payment through the payment pipeline, as staff record it. */
  const pay = async (user: SeededUser, serial: string, amount: number | string): Promise<PaymentOutcome> => {
    const res = await t.http.post('/payg/payments').set(user.auth).send({ serial_number: serial, amount, payment_method: 'cash' });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    return ZPaymentOutcomeSchema.parse(res.body);
  };

  /** Another device for the customer, assigned the way seedCustomerWithDevice assigns its own. */
  const addDevice = async (orgId: string, customerId: number, price: string) => {
    const item = await seedItem(t, orgId, { customer_id: customerId, price });
    await t.db.db.itemAssignment.create({ data: { organization_id: orgId, item_id: item.id, customer_id: customerId } });
    return item;
  };

  const status = async (user: SeededUser, customerId: number) =>
    ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customerId}/status`).set(user.auth).expect(200)).body);

  const summary = async (user: SeededUser, customerId: number): Promise<CustomerPaymentDetails['data']['payment_summary']> =>
    ZCustomerPaymentDetailsSchema.parse((await t.http.get(`/payg/customers/${customerId}/payment-details`).set(user.auth).expect(200)).body).data
      .payment_summary;

  const report = (user: SeededUser, body: Record<string, unknown>) => t.http.post('/payg/reports/page').set(user.auth).send(body);

  /**
   * The remaining balance of a customer (the only one of their organization)
   * as each place reports it: status, payment details, and every form of the
   * customer report with its totals row. Money as plain decimals ("8001.00").
   */
  async function remainingEverywhere(user: SeededUser, customerId: number): Promise<Record<string, string>> {
    const whole = ZReportSchema.parse((await report(user, { report: 'customers' }).expect(200)).body);
    const page = ZReportSchema.parse((await report(user, { report: 'customers', limit: 20, offset: 0 }).expect(200)).body);
    const csv = (await report(user, { report: 'customers', format: 'csv' }).expect(200)).text.trim().split('\r\n').map((line) => line.split(','));
    const remainingAt = csv[0].indexOf('Remaining');
    const pdf = pdfText(bodyBytes(await report(user, { report: 'customers', format: 'pdf' }).buffer(true).parse(binaryParser).expect(200)));
    // In the PDF, the first two money cells of a row are Total Paid and Remaining (then Expected by Today and Paid Towards It).
    const pdfRemaining = (start: RegExp) => {
      const line = pdf?.split('\n').find((l) => start.test(l.trim()));
      const cells = line?.match(/-?[\d,]+\.\d\d/g) ?? [];
      return (cells[1] ?? 'missing').replace(/,/g, '');
    };
    const row = (rows: typeof whole.rows) => rows.find((r) => r.customer_id === customerId)?.remaining;
    return {
      status: (await status(user, customerId)).balance,
      payment_details: (await summary(user, customerId)).remaining_balance,
      report_row: String(row(whole.rows)),
      report_totals: String(whole.totals.remaining),
      report_page_row: String(row(page.rows)),
      report_page_totals: String(page.totals.remaining),
      csv_row: csv.find((r) => r[0] === String(customerId))?.[remainingAt] ?? 'missing',
      csv_totals: csv.find((r) => r[0] === 'Total')?.[remainingAt] ?? 'missing',
      ...(pdf === null ? {} : { pdf_row: pdfRemaining(new RegExp(`^${customerId}\\s`)), pdf_totals: pdfRemaining(/^Total\s/) }),
    };
  }

  /** Every place says `remaining` (the PDF's only when pdftotext is there to read it). */
  const expectRemainingEverywhere = async (user: SeededUser, customerId: number, remaining: string) => {
    const seen = await remainingEverywhere(user, customerId);
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((place) => [place, remaining])));
  };

  it('two devices on a 10,000.50 plan with 6,000 paid on each: 4,000.50 left on each, 8,001.00 in all, everywhere', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00', free_code_price: '10000.50' } });
    const second = await addDevice(org.id, customer.id, '30000.00');
    for (const serial of [item.serial_number, second.serial_number]) {
      const outcome = await pay(user, serial, 6000);
      expect(outcome).toMatchObject({ remaining_balance: '4000.50' });
      expect(outcome.reply_message).toContain('Balance to pay off: KES 4,000.50.');
    }

    const s = await status(user, customer.id);
    expect(s.devices.map((d) => [d.payoff_price, d.remaining])).toEqual([
      ['10000.50', '4000.50'],
      ['10000.50', '4000.50'],
    ]);
    await expectRemainingEverywhere(user, customer.id, '8001.00');
    // Both devices' payoff prices; 12,000 of 20,001 is 59.997 %.
    expect(await summary(user, customer.id)).toEqual({
      total_paid: '12000.00',
      free_code_price: '20001.00',
      remaining_balance: '8001.00',
      payment_progress: 60,
      is_fully_paid: false,
      payment_count: 2,
      paid_before: '0.00',
    });
    const row = ZReportSchema.parse((await report(user, { report: 'customers' }).expect(200)).body).rows[0];
    expect(row).toMatchObject({ customer_id: customer.id, devices: 2, total_paid: '12000.00', remaining: '8001.00' });

    // One device paid off is not the customer paid off; both are.
    expect((await pay(user, item.serial_number, '4000.50')).remaining_balance).toBe('0.00');
    expect(await summary(user, customer.id)).toMatchObject({ remaining_balance: '4000.50', payment_progress: 80, is_fully_paid: false });
    expect((await pay(user, second.serial_number, '4000.50')).remaining_balance).toBe('0.00');
    await expectRemainingEverywhere(user, customer.id, '0.00');
    expect(await summary(user, customer.id)).toMatchObject({ free_code_price: '20001.00', payment_progress: 100, is_fully_paid: true });
  });

  it('two devices on a 20,000 plan: 37,473.94 left, as the status says, not 17,473.94', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
    const second = await addDevice(org.id, customer.id, '20000.00');
    expect((await pay(user, item.serial_number, 1500)).remaining_balance).toBe('18500.00');
    expect((await pay(user, second.serial_number, '1026.06')).remaining_balance).toBe('18973.94');

    await expectRemainingEverywhere(user, customer.id, '37473.94');
    // 2,526.06 of 40,000 is 6.31515 %.
    expect(await summary(user, customer.id)).toEqual({
      total_paid: '2526.06',
      free_code_price: '40000.00',
      remaining_balance: '37473.94',
      payment_progress: 6.32,
      is_fully_paid: false,
      payment_count: 2,
      paid_before: '0.00',
    });
  });

  it("without a plan, each device against its own price; a device without a price has no balance and is never paid off", async () => {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id);
    const big = await addDevice(org.id, customer.id, '25000.00');
    const small = await addDevice(org.id, customer.id, '1000.00');
    const unpriced = await addDevice(org.id, customer.id, '0.00');
    expect((await pay(user, big.serial_number, 500)).remaining_balance).toBe('24500.00');
    // No plan: no unlock, but nothing is left to pay on this one (500 over its price).
    expect((await pay(user, small.serial_number, 1500)).remaining_balance).toBe('0.00');
    expect((await pay(user, unpriced.serial_number, 300)).remaining_balance).toBeNull();

    const s = await status(user, customer.id);
    expect(Object.fromEntries(s.devices.map((d) => [d.serial_number, [d.payoff_price, d.remaining]]))).toEqual({
      [big.serial_number]: ['25000.00', '24500.00'],
      [small.serial_number]: ['1000.00', '0.00'],
      [unpriced.serial_number]: [null, null],
    });
    await expectRemainingEverywhere(user, customer.id, '24500.00');
    // Progress over the devices with a price: 1,500 of 26,000 is 5.769 %.
    expect(await summary(user, customer.id)).toEqual({
      total_paid: '2300.00',
      free_code_price: '26000.00',
      remaining_balance: '24500.00',
      payment_progress: 5.77,
      is_fully_paid: false,
      payment_count: 3,
      paid_before: '0.00',
    });

    await pay(user, big.serial_number, 24500);
    await expectRemainingEverywhere(user, customer.id, '0.00');
    expect(await summary(user, customer.id)).toMatchObject({ payment_progress: 100, is_fully_paid: false });
  });

  it('one device: 15,000 left of 20,000 after 5,000, everywhere, as before', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
    expect((await pay(user, item.serial_number, 5000)).remaining_balance).toBe('15000.00');

    await expectRemainingEverywhere(user, customer.id, '15000.00');
    expect(await summary(user, customer.id)).toEqual({
      total_paid: '5000.00',
      free_code_price: '20000.00',
      remaining_balance: '15000.00',
      payment_progress: 25,
      is_fully_paid: false,
      payment_count: 1,
      paid_before: '0.00',
    });
  });

  it('one device after giving another back: what was paid on the returned device does not pay off the current one', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
    const returned = await addDevice(org.id, customer.id, '20000.00');
    await pay(user, returned.serial_number, 3000);
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: returned.serial_number }).expect(200);
    expect((await pay(user, item.serial_number, 5000)).remaining_balance).toBe('15000.00');

    const s = await status(user, customer.id);
    expect(s.devices.map((d) => d.serial_number)).toEqual([item.serial_number]);
    await expectRemainingEverywhere(user, customer.id, '15000.00');
    // All the customer's payments, set against the device they hold now.
    expect(await summary(user, customer.id)).toMatchObject({ total_paid: '8000.00', free_code_price: '20000.00', payment_progress: 25, is_fully_paid: false });
  });
});
