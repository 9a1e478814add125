import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import {
  ZCustomerPaymentDetailsSchema,
  ZCustomerPaymentsReplySchema,
  ZCustomerStatusReplySchema,
  ZItemAssignReplySchema,
  ZOdysseyCustomersReplySchema,
  ZOnboardingReplySchema,
  ZReportSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, SECOND_PLAN, payCash } from './support/plans.js';
import { seedApiKey, seedCustomer, seedItem, seedTemplate, seedTenant, type SeededUser } from './support/factories.js';

// A device taken back from one customer and given to another starts a new
// account (README "Payment rules"): the next customer pays their own plan's
// upfront amount, the first customer's money stays with their payments, and
// the device's OpenPAYGO count goes on, since the device remembers it.

const NOW = new Date();
/** A's plan is the README's, B's the second one. */
const [PLAN_A, PLAN_B] = [README_PLAN, SECOND_PLAN];

describe('a device given to another customer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const pay = (user: SeededUser, serial: string, amount: string) => payCash(t, user, serial, amount);
  const status = async (user: SeededUser, customerId: number) =>
    ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customerId}/status`).set(user.auth).expect(200)).body);
  const details = async (user: SeededUser, customerId: number) =>
    ZCustomerPaymentDetailsSchema.parse((await t.http.get(`/payg/customers/${customerId}/payment-details`).set(user.auth).expect(200)).body).data;
  const assign = async (user: SeededUser, customerId: number, serial: string) =>
    ZItemAssignReplySchema.parse((await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customerId, item_serial_number: serial }).expect(200)).body);
  const unassign = (user: SeededUser, serial: string) => t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: serial }).expect(200);
  const resets = (orgId: string) => t.db.platform.auditLog.findMany({ where: { organization_id: orgId, action: 'item.account_reset' } });

  /**
   * Customer A onboarded on PLAN_A with a device fresh from the factory,
   * who paid 5,555.55: 1,500 upfront, 81 days (4,050) and 5.55 carried; one
   * activation token of 84 days, which the simulated device took (count 2).
   */
  async function customerAWhoPaid() {
    const { user, org } = await seedTenant(t);
    const a = await seedCustomer(t, org.id, { customer_name: 'Achieng A' });
    const b = await seedCustomer(t, org.id, { customer_name: 'Baraka B' });
    const [planA, planB] = [await seedTemplate(t, org.id, PLAN_A), await seedTemplate(t, org.id, PLAN_B)];
    const item = await seedItem(t, org.id, { token_count: 1, price: '25000.00' });
    const device = new Device({ secretKey: item.secret.secretKey, startingCode: item.secret.startingCode }, 1);
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: a.id, item_serial_number: item.serial_number, template_id: planA.id }).expect(200);
    const paid = await pay(user, item.serial_number, '5555.55');
    expect(paid).toMatchObject({ reason: 'activated', days: 84, credit: '5.55', remaining_balance: '14444.45' });
    expect(device.enterToken(paid.token!, NOW)).toMatchObject({ status: 'VALID', type: 'ADD_TIME', days: 84, count: 2 });
    return { user, org, a, b, planB, item, device };
  }

  it('starts a new account for the new customer, who pays their plan’s activation; the device takes that token with its count carried on', async () => {
    const { user, org, a, b, planB, item, device } = await customerAWhoPaid();
    await unassign(user, item.serial_number);
    const onboarded = ZOnboardingReplySchema.parse(
      (await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: b.id, item_serial_number: item.serial_number, template_id: planB.id }).expect(200)).body,
    );
    // The account is new; the OpenPAYGO count is the device's and goes on.
    expect(onboarded.item).toMatchObject({ customer_id: b.id, total_paid: '0.00', paid_off: false, credit_until: null, token_count: 2 });
    const row = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect([row.credit.toFixed(2), row.total_paid.toFixed(2), row.activated_at, row.paid_off_at, row.credit_until, row.token_count]).toEqual([
      '0.00',
      '0.00',
      null,
      null,
      null,
      2,
    ]);

    const s = await status(user, b.id);
    expect(s).toMatchObject({ total_paid: '0.00', payments_count: 0, balance: '15000.00' });
    expect(s.devices).toEqual([
      expect.objectContaining({ serial_number: item.serial_number, total_paid: '0.00', days_left: 0, credit_until: null, paid_off: false, remaining: '15000.00' }),
    ]);
    const d = await details(user, b.id);
    expect(d.customer_info.device_serial).toBe(item.serial_number);
    expect(d.payment_summary).toEqual({
      total_paid: '0.00',
      free_code_price: '15000.00',
      remaining_balance: '15000.00',
      payment_progress: 0,
      is_fully_paid: false,
      payment_count: 0,
      paid_before: '0.00',
    });

    // B's money is held until B's own 2,000 upfront is reached, then one activation token: 2 days + 2 grace.
    const first = await pay(user, item.serial_number, '1500');
    expect(first).toMatchObject({ reason: 'below_activation', tokens: [], credit: '1500.00', remaining_balance: '13500.00' });
    expect(first.reply_message).toContain('KES 500.00 more is needed to activate your device.');
    const second = await pay(user, item.serial_number, '580');
    expect(second).toMatchObject({ reason: 'activated', days: 4, credit: '0.00', remaining_balance: '12920.00' });
    expect(second.tokens).toEqual([expect.objectContaining({ token_type: 'activation', days: 4, token_count: 4 })]);
    expect(device.enterToken(second.token!, NOW)).toMatchObject({ status: 'VALID', type: 'ADD_TIME', days: 4, count: 4 });
    expect((await status(user, b.id)).devices[0]).toMatchObject({ total_paid: '2080.00', remaining: '12920.00', days_left: 4 });

    // What the device carried is in the audit log, with whose it was.
    const [reset] = await resets(org.id);
    expect(reset).toMatchObject({ entity_id: item.serial_number, actor_username: user.username });
    expect(reset!.metadata).toMatchObject({ customer_id: b.id, previous_customer_id: a.id, total_paid: '5555.55', credit: '5.55', token_count: 2 });
    expect(reset!.metadata).toMatchObject({ activated_at: expect.any(String), credit_until: expect.any(String), paid_off_at: null });
  });

  it("leaves the first customer's payments in their history and the device out of their figures", async () => {
    const { user, a, b, planB, item } = await customerAWhoPaid();
    await unassign(user, item.serial_number);
    await assign(user, b.id, item.serial_number);
    await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: b.id, template_id: planB.id }).expect(200);

    const s = await status(user, a.id);
    expect(s).toMatchObject({ devices: [], total_paid: '5555.55', payments_count: 1, balance: '0.00' });
    const history = ZCustomerPaymentsReplySchema.parse((await t.http.get(`/payg/customers/${a.id}/payments`).set(user.auth).expect(200)).body);
    expect(history.data).toEqual([expect.objectContaining({ amount: '5555.55', item_serial_number: item.serial_number })]);
    const d = await details(user, a.id);
    expect(d.customer_info.device_serial).toBeNull();
    expect(d.payment_summary).toMatchObject({ total_paid: '5555.55', remaining_balance: '0.00', payment_count: 1 });

    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'customers' }).expect(200)).body);
    const byId = Object.fromEntries(report.rows.map((r) => [r.customer_id, r]));
    expect(byId[a.id]).toMatchObject({ devices: 0, total_paid: '5555.55', remaining: '0.00' });
    expect(byId[b.id]).toMatchObject({ devices: 1, total_paid: '0.00', remaining: '15000.00' });
    // The device starts a new account for the second customer: its plan's upfront amount is expected, nothing paid yet.
    expect(report.totals).toEqual({ rows: 2, devices: 1, total_paid: '5555.55', remaining: '15000.00', expected: '2000.00', paid_towards: '0.00', repaid_share: 0 });

    const key = await seedApiKey(t, user);
    const odyssey = ZOdysseyCustomersReplySchema.parse((await t.http.get('/payg/external/odyssey/customers').set(key).expect(200)).body);
    const exported = Object.fromEntries(odyssey.data.map((c) => [c.customer_id, c]));
    expect(exported[a.id]).toMatchObject({ devices: [], total_paid: '5555.55' });
    expect(exported[b.id]).toMatchObject({
      devices: [{ serial_number: item.serial_number, product_name: item.product_name, status: 'assigned', total_paid: '0.00', paid_off: false, activated_at: null }],
      total_paid: '0.00',
    });
  });

  it('keeps the account of a customer who gets their device back, and starts a new one only for someone else', async () => {
    const { user, org, a, b, item, device } = await customerAWhoPaid();
    // Given a month ago: what A's plan expects by today counts from then.
    const began = new Date(Date.now() - 30 * 86_400_000);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, data: { assigned_at: began } });
    await t.db.db.itemAssignment.updateMany({ where: { organization_id: org.id, item_id: item.id }, data: { assigned_at: began } });
    const expected = (await details(user, a.id)).devices[0]!.repayment;
    // Unassigned by mistake and given back: A keeps what they paid, their activation and the day the account began.
    await unassign(user, item.serial_number);
    const back = await assign(user, a.id, item.serial_number);
    expect(back.item).toMatchObject({ customer_id: a.id, total_paid: '5555.55', token_count: 2, assigned_at: began.toISOString() });
    expect((await details(user, a.id)).devices[0]!.repayment).toEqual(expected);
    expect((await status(user, a.id)).devices[0]).toMatchObject({ total_paid: '5555.55', remaining: '14444.45' });
    const more = await pay(user, item.serial_number, '100');
    // 5.55 carried + 100 buys 2 days at 50: add time, no second activation.
    expect(more).toMatchObject({ reason: 'days_added', days: 2, credit: '5.55', remaining_balance: '14344.45' });
    expect(device.enterToken(more.token!, NOW)).toMatchObject({ status: 'VALID', days: 2, count: 4 });
    expect(await resets(org.id)).toEqual([]);

    // Then to B: B does not inherit A's 5,655.55.
    await unassign(user, item.serial_number);
    const moved = await assign(user, b.id, item.serial_number);
    expect(moved.item).toMatchObject({ customer_id: b.id, total_paid: '0.00', credit_until: null, token_count: 4 });
    expect((await status(user, b.id)).devices[0]).toMatchObject({ total_paid: '0.00', days_left: 0 });
    expect((await resets(org.id)).map((r) => r.metadata)).toEqual([expect.objectContaining({ previous_customer_id: a.id, total_paid: '5655.55' })]);
  });
});
