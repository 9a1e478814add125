import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import {
  ZMessageListReplySchema,
  ZPaymentListReplySchema,
  ZPaymentOutcomeSchema,
  ZReceiveReplySchema,
  ZReversePaymentReplySchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, SECOND_PLAN, payCash } from './support/plans.js';
import {
  mpesaCode,
  mpesaPaybillSms,
  seedApiKey,
  seedCustomer,
  seedCustomerWithDevice,
  seedTemplate,
  seedTenant,
  seedUser,
  type SeededUser,
} from './support/factories.js';

// A payment applied to the wrong device (README "Payment rules", "Reversing a
// payment"): POST /payments/{id}/reverse gives the device back what it had
// before the payment and holds the payment for matching to the right one.

const DAY_MS = 86_400_000;

describe('reversing a payment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const reverse = (user: SeededUser, id: number | undefined, body: object = { reason: 'Paid to the wrong account number' }) =>
    t.http.post(`/payg/payments/${id}/reverse`).set(user.auth).send(body);
  const account = (orgId: string, id: number) =>
    t.db.db.item.findUniqueOrThrow({
      where: { organization_id_id: { organization_id: orgId, id } },
      select: { total_paid: true, credit: true, credit_until: true, activated_at: true, token_count: true },
    });
  const plain = (a: Awaited<ReturnType<typeof account>>) => ({
    total_paid: a.total_paid.toFixed(2),
    credit: a.credit.toFixed(2),
    credit_until: a.credit_until?.getTime() ?? null,
    activated: a.activated_at !== null,
  });
  const payment = (orgId: string, id: number | undefined) => t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id: id! } } });

  it('takes an SMS payment off the wrong device, holds it, and matching gives the right device its days', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const plan = { daily_price: '20.00' };
    const right = await seedCustomerWithDevice(t, org.id, { template: plan });
    const wrong = await seedCustomerWithDevice(t, org.id, { template: plan });
    // The wrong device has paid before: 100 bought 5 days.
    await payCash(t, user, wrong.item.serial_number, '100.00');
    const before = plain(await account(org.id, wrong.item.id));

    // The right customer types the other device's serial number.
    const code = mpesaCode('R');
    const sms = mpesaPaybillSms({ code, amount: '60.00', account: wrong.item.serial_number, phone: '254722000444' });
    const r = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
    expect(r).toMatchObject({ status: 'processed', serial_number: wrong.item.serial_number, days: 3 });
    const revenue = async () => (await t.http.get('/payg/metrics/summary').set(user.auth).expect(200)).body.total_revenue as string;
    expect(await revenue()).toBe('160.00');

    const res = await reverse(user, r.payment_id!, { reason: '  Customer typed the wrong account number  ' }).expect(200);
    const reply = ZReversePaymentReplySchema.parse(res.body);
    expect(reply).toEqual({
      message: 'Payment reversed: it is held for matching',
      payment_id: r.payment_id,
      status: 'pending',
      hold_reason: `Reversed from ${wrong.item.serial_number} by ${user.username}: Customer typed the wrong account number`,
      serial_number: wrong.item.serial_number,
      total_paid: '100.00',
      credit: '0.00',
      credit_until: new Date(before.credit_until!).toISOString(),
      days_removed: 3,
      deactivated: false,
    });
    // The wrong device is back where it was; the money is no longer revenue.
    expect(plain(await account(org.id, wrong.item.id))).toEqual(before);
    expect(await revenue()).toBe('100.00');
    expect(await payment(org.id, r.payment_id!)).toMatchObject({ status: 'pending', item_id: null, customer_id: null, days_bought: 0, credit_after: null, applied_at: null });
    // Held with the others, its text unmatched again, and audited.
    const held = ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').query({ status: 'pending' }).set(user.auth).expect(200)).body);
    expect(held.data.map((p) => [p.payment_id, p.hold_reason])).toEqual([[r.payment_id, reply.hold_reason]]);
    const messages = ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').set(user.auth).expect(200)).body);
    expect(messages.data.find((m) => m.id === r.message_id)).toMatchObject({ status: 'unmatched' });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'payment.reverse' } });
    expect(audit).toMatchObject({ entity_id: String(r.payment_id), actor_username: user.username });
    expect(audit.metadata).toMatchObject({ serial_number: wrong.item.serial_number, days_removed: 3, before: { total_paid: '160.00' }, after: { total_paid: '100.00' } });

    // Matched to the right device: its token opens that device, and the payer is told.
    const matched = ZPaymentOutcomeSchema.parse(
      (await t.http.post(`/payg/payments/${r.payment_id}/match`).set(user.auth).send({ serial_number: right.item.serial_number }).expect(200)).body,
    );
    expect(matched).toMatchObject({ status: 'processed', serial_number: right.item.serial_number, days: 3, message_id: r.message_id });
    const device = new Device({ secretKey: right.item.secret.secretKey, startingCode: right.item.secret.startingCode }, 1);
    expect(device.enterToken(matched.token!, new Date())).toMatchObject({ status: 'VALID', days: 3 });
    expect(await payment(org.id, r.payment_id!)).toMatchObject({ status: 'completed', item_id: right.item.id, customer_id: right.customer.id, hold_reason: null });
    expect((await payment(org.id, r.payment_id!)).applied_at).not.toBeNull();
    expect(await revenue()).toBe('160.00');
    const message = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: r.message_id! } } });
    expect(message).toMatchObject({ status: 'processed', item_id: right.item.id, recipient_number: '254722000444', delivery_status: 'queued' });
    expect(message.forwarded_message).toBe(matched.reply_message);

    // The same code sent again is still recognised as a duplicate.
    const again = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
    expect(again).toMatchObject({ status: 'duplicate', payment_id: r.payment_id });
  });

  it('undoes exactly what the payment did: the activation, the days and the credit carried', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    const fresh = plain(await account(org.id, s.item.id));

    // 2,400 activates: 1,500 upfront, 18 days and 3 grace days; reversed, the device is as new.
    const first = await payCash(t, user, s.item.serial_number, '2400.00');
    expect(first).toMatchObject({ reason: 'activated', days: 21 });
    const undone = ZReversePaymentReplySchema.parse((await reverse(user, first.payment_id).expect(200)).body);
    expect(undone).toMatchObject({ total_paid: '0.00', credit: '0.00', credit_until: null, days_removed: 21, deactivated: true });
    expect(plain(await account(org.id, s.item.id))).toEqual(fresh);
    // So the next payment activates it again, by the same rule.
    expect(await payCash(t, user, s.item.serial_number, '2400.00')).toMatchObject({ reason: 'activated', days: 21, credit: '0.00' });

    // 130 buys 2 days at 50 and carries 30; reversed, then paid again, the device ends where it did.
    const afterActivation = plain(await account(org.id, s.item.id));
    const second = await payCash(t, user, s.item.serial_number, '130.00');
    expect(second).toMatchObject({ reason: 'days_added', days: 2, credit: '30.00' });
    const paidTwice = plain(await account(org.id, s.item.id));
    expect(ZReversePaymentReplySchema.parse((await reverse(user, second.payment_id).expect(200)).body)).toMatchObject({
      total_paid: '2400.00',
      credit: '0.00',
      days_removed: 2,
      deactivated: false,
    });
    expect(plain(await account(org.id, s.item.id))).toEqual(afterActivation);
    expect(paidTwice.credit_until! - afterActivation.credit_until!).toBe(2 * DAY_MS);

    // Money below a day's price only moves the credit.
    const small = await payCash(t, user, s.item.serial_number, '20.00');
    expect(small).toMatchObject({ reason: 'below_daily_price', tokens: [], credit: '20.00' });
    expect(ZReversePaymentReplySchema.parse((await reverse(user, small.payment_id).expect(200)).body)).toMatchObject({ credit: '0.00', days_removed: 0 });
    expect(plain(await account(org.id, s.item.id))).toEqual(afterActivation);
  });

  it('reverses only the latest payment on the device, and never one that paid the device off', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    const a = await payCash(t, user, s.item.serial_number, '2400.00');
    const b = await payCash(t, user, s.item.serial_number, '100.00');
    const first = await reverse(user, a.payment_id).expect(409);
    expect(first.body.detail).toBe(
      `Payment ${b.payment_id} was applied to device ${s.item.serial_number} after payment ${a.payment_id}: only the latest payment on a device can be reversed; reverse payment ${b.payment_id} first`,
    );
    // Latest first, then the one before it.
    await reverse(user, b.payment_id).expect(200);
    await reverse(user, a.payment_id).expect(200);
    expect((await account(org.id, s.item.id)).total_paid.toFixed(2)).toBe('0.00');

    // Once pending it is not completed any more.
    expect((await reverse(user, a.payment_id).expect(409)).body.detail).toBe(`Payment ${a.payment_id} is pending: only a completed payment can be reversed`);

    // The payment that pays the device off sent an unlock code: it opens the device for good.
    const off = await payCash(t, user, s.item.serial_number, '20000.00');
    expect(off).toMatchObject({ reason: 'paid_off' });
    const unlocked = await reverse(user, off.payment_id).expect(409);
    expect(unlocked.body.detail).toBe(`Payment ${off.payment_id} paid device ${s.item.serial_number} off and its unlock code opens the device for good: it cannot be reversed`);
    expect((await payment(org.id, off.payment_id)).status).toBe('completed');
  });

  it('refuses when the plan changed since, or the device went to another customer', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    await payCash(t, user, s.item.serial_number, '2400.00');
    const days = await payCash(t, user, s.item.serial_number, '130.00');
    // The customer is moved to a plan at 40 a day: what 130 bought at 50 cannot be read from the device any more.
    const other = await seedTemplate(t, org.id, { ...SECOND_PLAN, template_name: 'Forty a day' });
    await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: s.customer.id, template_id: other.id }).expect(200);
    const changed = await reverse(user, days.payment_id).expect(409);
    expect(changed.body.detail).toBe(
      `The payment plan of device ${s.item.serial_number} changed after payment ${days.payment_id}, so what it bought cannot be worked out: it cannot be reversed`,
    );

    // A device that changed hands started a new account: the old one's payments stay where they are.
    const next = await seedCustomer(t, org.id, { customer_name: 'Next Holder' });
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: s.item.serial_number }).expect(200);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: next.id, item_serial_number: s.item.serial_number }).expect(200);
    const moved = await reverse(user, days.payment_id).expect(409);
    expect(moved.body.detail).toBe(
      `Device ${s.item.serial_number} started a new account after payment ${days.payment_id}: the payment belongs to a closed account and cannot be reversed`,
    );
    expect((await payment(org.id, days.payment_id)).status).toBe('completed');
  });

  it('un-keeps the promise the payment kept', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
    const promisedOn = new Date(Date.now() + 3 * DAY_MS).toISOString().slice(0, 10);
    await t.http.post(`/payg/collections/${s.item.id}/contacts`).set(user.auth).send({ outcome: 'promised_to_pay', promised_on: promisedOn }).expect(201);
    const promise = () => t.db.db.collectionContact.findFirstOrThrow({ where: { organization_id: org.id, item_id: s.item.id }, select: { paid_at: true, paid_amount: true } });
    const paid = await payCash(t, user, s.item.serial_number, '60.00');
    expect((await promise()).paid_amount?.toFixed(2)).toBe('60.00');
    await reverse(user, paid.payment_id).expect(200);
    expect(await promise()).toEqual({ paid_at: null, paid_amount: null });
  });

  it('is for owners and admins, names the bad field, and changes nothing on a refusal', async () => {
    const { user, org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
    const paid = await payCash(t, user, s.item.serial_number, '60.00');
    const before = plain(await account(org.id, s.item.id));

    await reverse(staff, paid.payment_id).expect(403);
    for (const [body, detail] of [
      [{}, 'reason: is required'],
      [{ reason: ' x ' }, 'reason: must say why, in at least 3 characters'],
      [{ reason: 'y'.repeat(201) }, 'reason: must be at most 200 characters'],
    ] as const) {
      const bad = await reverse(user, paid.payment_id, body).expect(400);
      expect(bad.body.detail).toContain(detail);
    }
    await t.http.post('/payg/payments/abc/reverse').set(user.auth).send({ reason: 'Wrong device' }).expect(400);
    await reverse(user, 999_999).expect(404);

    // Another organization's owner cannot see it, let alone reverse it.
    const other = await seedTenant(t);
    await reverse(other.user, paid.payment_id).expect(404);
    expect(plain(await account(org.id, s.item.id))).toEqual(before);
    expect((await payment(org.id, paid.payment_id)).status).toBe('completed');
    expect(await t.db.platform.auditLog.count({ where: { action: 'payment.reverse', organization_id: org.id } })).toBe(0);
  });
});
