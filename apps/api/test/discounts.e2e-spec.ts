import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import {
  ZCustomerStatusReplySchema,
  ZDeviceActivitySchema,
  ZDeviceDiscountListSchema,
  ZDiscountVoidReplySchema,
  ZItemDiscountReplySchema,
  ZItemSwapReplySchema,
  ZReportSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, payCash } from './support/plans.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// POST /payg/items/discount and GET /payg/items/{serial_number}/discounts (README "Discounts").

describe('discounts off what is left to pay', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const give = (user: SeededUser, body: object) => t.http.post('/payg/items/discount').set(user.auth).send(body);
  const item = (orgId: string, id: number) => t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const status = async (user: SeededUser, customerId: number) =>
    ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customerId}/status`).set(user.auth).expect(200)).body);
  const activity = async (user: SeededUser, serial: string) =>
    ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${serial}/activity`).set(user.auth).expect(200)).body).data.device_info;

  /** A customer on the README plan (paid off at 20,000) who paid 2,400: 17,600 left. */
  async function payer() {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '25000.00' } });
    const paid = await payCash(t, user, s.item.serial_number, '2400.00');
    return { user, org, ...s, paid };
  }

  it('takes the amount off what is left to pay everywhere, and the payment that reaches the lower price pays the device off', async () => {
    const d = await payer();
    const reply = ZItemDiscountReplySchema.parse(
      (await give(d.user, { item_serial_number: d.item.serial_number, amount: '2600', reason: '  Paying off early this month  ' }).expect(201)).body,
    );
    expect(reply).toEqual({
      message: `KES 2,600.00 taken off ${d.item.serial_number}: KES 15,000.00 left to pay`,
      discount: {
        discount_id: expect.any(Number),
        serial_number: d.item.serial_number,
        customer_id: d.customer.id,
        customer_name: d.customer.customer_name,
        amount: '2600.00',
        currency: 'KES',
        reason: 'Paying off early this month',
        remaining_before: '17600.00',
        remaining_after: '15000.00',
        unlock_token_count: null,
        given_by: d.user.username,
        given_at: expect.any(String),
        voided_at: null,
        voided_by: null,
        void_reason: null,
      },
      payoff: '17400.00',
      remaining: '15000.00',
      paid_off: false,
      unlock_token: null,
    });
    // The customer's page lists it too, across their devices.
    const theirs = ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/customers/${d.customer.id}/discounts`).set(d.user.auth).expect(200)).body);
    expect(theirs).toEqual({ data: [reply.discount], total: '2600.00' });
    await t.http.get('/payg/customers/999999/discounts').set(d.user.auth).expect(404);
    // Every figure that shows what is left reads the lower price.
    expect((await status(d.user, d.customer.id)).balance).toBe('15000.00');
    expect(await activity(d.user, d.item.serial_number)).toMatchObject({ remaining: '15000.00', discount: '2600.00' });
    const listed = ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/items/${d.item.serial_number}/discounts`).set(d.user.auth).expect(200)).body);
    expect(listed).toEqual({ data: [reply.discount], total: '2600.00' });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.discounted' } });
    expect(audit.description).toBe(
      `KES 2600.00 taken off what ${d.customer.customer_name} has left to pay on ${d.item.serial_number} by ${d.user.username} ` +
        '(17600.00 left before, 15000.00 now): Paying off early this month',
    );
    expect(audit.metadata).toMatchObject({ amount: '2600.00', remaining_before: '17600.00', remaining_after: '15000.00', paid_off: false });

    // The customer pays the 15,000 left: the payment rules unlock the device for good, as at the full price.
    const last = await payCash(t, d.user, d.item.serial_number, '15000.00');
    expect(last).toMatchObject({ reason: 'paid_off', remaining_balance: '0.00' });
    const device = new Device({ secretKey: d.item.secret.secretKey, startingCode: d.item.secret.startingCode }, 1);
    const now = new Date();
    device.enterToken(d.paid.token!, now);
    expect(device.enterToken(last.token!, now)).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
    expect((await item(d.org.id, d.item.id)).paid_off_at).not.toBeNull();
    expect((await status(d.user, d.customer.id)).balance).toBe('0.00');
  });

  it('pays the device off on the spot when it takes all that is left, with the code that unlocks it', async () => {
    const d = await payer();
    await t.http.post('/payg/webhooks').set(d.user.auth).send({ url: 'https://crm.example.com/hook', events: ['device.discounted', 'token.issued'] }).expect(201);
    const reply = ZItemDiscountReplySchema.parse(
      (await give(d.user, { item_serial_number: d.item.serial_number, amount: 17600, reason: 'Goodwill: down three months with a fault' }).expect(201)).body,
    );
    expect(reply).toMatchObject({
      message: `KES 17,600.00 taken off ${d.item.serial_number}: it is paid off; enter the unlock code on the device`,
      remaining: '0.00',
      payoff: '2400.00',
      paid_off: true,
      unlock_token: { token: expect.stringMatching(/^\d{9,}$/), token_count: expect.any(Number) },
      discount: { remaining_after: '0.00', unlock_token_count: reply.unlock_token!.token_count },
    });
    const device = new Device({ secretKey: d.item.secret.secretKey, startingCode: d.item.secret.startingCode }, 1);
    const now = new Date();
    device.enterToken(d.paid.token!, now);
    expect(device.enterToken(reply.unlock_token!.token, now)).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
    const row = await item(d.org.id, d.item.id);
    expect(row).toMatchObject({ token_count: reply.unlock_token!.token_count, credit_until: null });
    expect(row.paid_off_at).not.toBeNull();
    expect(row.discount.toFixed(2)).toBe('17600.00');
    const log = await t.db.db.tokenLog.findFirstOrThrow({ where: { organization_id: d.org.id, item_id: d.item.id }, orderBy: { token_count: 'desc' } });
    expect(log).toMatchObject({ token_type: 'unlock', generated_by: d.user.username, token_value: reply.unlock_token!.token });
    expect(await status(d.user, d.customer.id)).toMatchObject({ balance: '0.00', repayment: { standing: 'paid_off' } });
    // The organization's own systems are told, with the code; the Discount report lists it.
    const events = await t.db.platform.webhookDelivery.findMany({ where: { organization_id: d.org.id }, select: { event_type: true, payload: true } });
    expect(events.map((e) => e.event_type).sort()).toEqual(['device.discounted', 'token.issued']);
    expect((events.find((e) => e.event_type === 'device.discounted')!.payload as { data: unknown }).data).toMatchObject({
      serial_number: d.item.serial_number,
      customer_id: d.customer.id,
      amount: '17600.00',
      remaining_after: '0.00',
      paid_off: true,
      unlock_token: reply.unlock_token,
      given_by: d.user.username,
    });
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'discounts' }).expect(200)).body);
    expect(report.rows).toEqual([
      {
        given_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        serial_number: d.item.serial_number,
        customer_name: d.customer.customer_name,
        amount: '17600.00',
        currency: 'KES',
        remaining_before: '17600.00',
        remaining_after: '0.00',
        paid_off: 'Yes',
        reason: 'Goodwill: down three months with a fault',
        given_by: d.user.username,
      },
    ]);
    expect(report.totals).toMatchObject({ rows: 1, amount: '17600.00' });
    const csv = await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'discounts', format: 'csv' }).expect(200);
    expect(csv.text.split(/\r?\n/)[0]!.replace(/^\uFEFF/, '')).toBe('Given,Serial Number,Customer,Discount,Currency,Left Before,Left After,Paid Off,Reason,By');
    // Nothing is left to take off.
    expect((await give(d.user, { item_serial_number: d.item.serial_number, amount: 1, reason: 'Again' }).expect(409)).body.detail).toBe(
      `Device ${d.item.serial_number} is paid off: there is nothing left to pay on it`,
    );
  });

  it('refuses bad input, naming the field, and changes nothing', async () => {
    const d = await payer();
    const staff = await seedUser(t, { organization_id: d.org.id, role: 'staff' });
    const serial = d.item.serial_number;
    await give(staff, { item_serial_number: serial, amount: 100, reason: 'Paying off early' }).expect(403);
    for (const [body, detail] of [
      [{ item_serial_number: serial, amount: 17600.01, reason: 'Paying off early' }, `amount: must be at most 17600.00, what is left to pay on ${serial}`],
      [{ item_serial_number: serial, amount: 0, reason: 'Paying off early' }, 'amount: must be at least 0.01'],
      [{ item_serial_number: serial, amount: '12.345', reason: 'Paying off early' }, 'amount: must have at most 2 decimals'],
      [{ item_serial_number: serial, amount: 'lots', reason: 'Paying off early' }, 'amount: must be a number'],
      [{ item_serial_number: serial, amount: 100 }, 'reason: is required'],
      [{ item_serial_number: serial, amount: 100, reason: 'ok' }, 'reason: must say why'],
      [{ amount: 100, reason: 'Paying off early' }, 'item_serial_number:'],
    ] as const) {
      const bad = await give(d.user, body).expect(400);
      expect(bad.body.detail).toContain(detail);
    }
    await give(d.user, { item_serial_number: 'NO-SUCH-DEVICE', amount: 100, reason: 'Paying off early' }).expect(404);
    // A device in stock has nothing to pay on; one with no price has no price to take a discount off.
    const spare = await seedItem(t, d.org.id);
    expect((await give(d.user, { item_serial_number: spare.serial_number, amount: 100, reason: 'Paying off early' }).expect(409)).body.detail).toBe(
      `Device ${spare.serial_number} is not assigned to a customer: there is nothing left to pay on it`,
    );
    const priceless = await seedItem(t, d.org.id, { customer_id: (await seedCustomer(t, d.org.id)).id, price: '0.00' });
    expect((await give(d.user, { item_serial_number: priceless.serial_number, amount: 100, reason: 'Paying off early' }).expect(409)).body.detail).toContain(
      'has no price to pay off',
    );
    expect((await item(d.org.id, d.item.id)).discount.toFixed(2)).toBe('0.00');
    expect(await t.db.db.deviceDiscount.count({ where: { organization_id: d.org.id } })).toBe(0);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: d.org.id, action: 'item.discounted' } })).toBe(0);
    await t.http.get('/payg/items/NO-SUCH-DEVICE/discounts').set(d.user.auth).expect(404);
  });

  it("is part of the device's account: it moves with a swap, and another customer starts without it", async () => {
    const d = await payer();
    await give(d.user, { item_serial_number: d.item.serial_number, amount: '600.00', reason: 'Price corrected' }).expect(201);
    // Swapped for a device from stock: the account, discount and all, moves to it.
    const spare = await seedItem(t, d.org.id, { price: '25000.00' });
    ZItemSwapReplySchema.parse(
      (await t.http.post('/payg/items/swap').set(d.user.auth).send({ item_serial_number: d.item.serial_number, new_serial_number: spare.serial_number, reason: 'Panel cracked' }).expect(201)).body,
    );
    expect((await item(d.org.id, spare.id)).discount.toFixed(2)).toBe('600.00');
    expect((await item(d.org.id, d.item.id)).discount.toFixed(2)).toBe('0.00');
    expect((await status(d.user, d.customer.id)).balance).toBe('17000.00');
    // The old device keeps the discount's history; its present account (none) has no discount.
    expect(ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/items/${d.item.serial_number}/discounts`).set(d.user.auth).expect(200)).body)).toMatchObject({
      data: [{ amount: '600.00', reason: 'Price corrected' }],
      total: '0.00',
    });
    // The replacement lists it too, as given on the device it replaced: its account came with it.
    expect(ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/items/${spare.serial_number}/discounts`).set(d.user.auth).expect(200)).body)).toMatchObject({
      data: [{ amount: '600.00', reason: 'Price corrected', serial_number: d.item.serial_number }],
      total: '600.00',
    });

    // Repossessed and given to someone else: a new account, the full price again.
    await t.http.post('/payg/items/repossess').set(d.user.auth).send({ item_serial_number: spare.serial_number, reason: 'Stopped paying', status: 'available' }).expect(200);
    const next = await seedCustomer(t, d.org.id);
    await t.http.post('/payg/items/assign').set(d.user.auth).send({ customer_id: next.id, item_serial_number: spare.serial_number }).expect(200);
    expect((await item(d.org.id, spare.id)).discount.toFixed(2)).toBe('0.00');
    // The next customer's account brought nothing: the replacement lists no discount of the last one's.
    expect(ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/items/${spare.serial_number}/discounts`).set(d.user.auth).expect(200)).body)).toEqual({
      data: [],
      total: '0.00',
    });
  });

  it('voids a discount given by mistake: its amount is back on what is left to pay, and the row says who and why', async () => {
    const d = await payer();
    const given = ZItemDiscountReplySchema.parse(
      (await give(d.user, { item_serial_number: d.item.serial_number, amount: '2600.00', reason: 'Paying off early' }).expect(201)).body,
    );
    const voidIt = (user: SeededUser, id: number, body: object) => t.http.post(`/payg/items/discounts/${id}/void`).set(user.auth).send(body);
    const staff = await seedUser(t, { organization_id: d.org.id, role: 'staff' });
    await voidIt(staff, given.discount.discount_id, { reason: 'Meant for another device' }).expect(403);
    expect((await voidIt(d.user, given.discount.discount_id, { reason: 'no' }).expect(400)).body.detail).toContain('reason: must say why');
    await voidIt(d.user, 999_999, { reason: 'Meant for another device' }).expect(404);
    expect((await status(d.user, d.customer.id)).balance).toBe('15000.00');

    const reply = ZDiscountVoidReplySchema.parse((await voidIt(d.user, given.discount.discount_id, { reason: ' Meant for another device ' }).expect(200)).body);
    expect(reply).toEqual({
      message: `Discount of KES 2,600.00 on ${d.item.serial_number} voided: KES 17,600.00 left to pay`,
      discount: { ...given.discount, voided_at: expect.any(String), voided_by: d.user.username, void_reason: 'Meant for another device' },
      remaining: '17600.00',
    });
    expect((await status(d.user, d.customer.id)).balance).toBe('17600.00');
    expect((await item(d.org.id, d.item.id)).discount.toFixed(2)).toBe('0.00');
    // Still listed, marked voided; off the report and the device's total.
    const listed = ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/items/${d.item.serial_number}/discounts`).set(d.user.auth).expect(200)).body);
    expect(listed).toEqual({ data: [reply.discount], total: '0.00' });
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'discounts' }).expect(200)).body);
    expect(report.rows).toEqual([]);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.discount_voided' } });
    expect(audit.description).toBe(
      `Discount of KES 2600.00 on ${d.item.serial_number} (${d.customer.customer_name}), given by ${d.user.username}, voided by ${d.user.username} ` +
        '(17600.00 left to pay now): Meant for another device',
    );
    // Once only.
    expect((await voidIt(d.user, given.discount.discount_id, { reason: 'Again' }).expect(409)).body.detail).toBe(
      `This discount was voided already, by ${d.user.username}`,
    );

    // One that paid the device off stays: its unlock code cannot be taken back.
    const all = ZItemDiscountReplySchema.parse(
      (await give(d.user, { item_serial_number: d.item.serial_number, amount: '17600.00', reason: 'Goodwill' }).expect(201)).body,
    );
    expect((await voidIt(d.user, all.discount.discount_id, { reason: 'Too generous' }).expect(409)).body.detail).toBe(
      `Device ${d.item.serial_number} is paid off: its unlock code cannot be taken back, so the discount stays`,
    );
  });

  it('voids a discount given before a swap from the replacement its account moved to, and not once that account has ended', async () => {
    const d = await payer();
    const given = ZItemDiscountReplySchema.parse(
      (await give(d.user, { item_serial_number: d.item.serial_number, amount: '600.00', reason: 'Price corrected' }).expect(201)).body,
    );
    // Swapped twice: the account, discount and all, is on the second replacement.
    const spare = await seedItem(t, d.org.id, { price: '25000.00' });
    const third = await seedItem(t, d.org.id, { price: '25000.00' });
    await t.http.post('/payg/items/swap').set(d.user.auth).send({ item_serial_number: d.item.serial_number, new_serial_number: spare.serial_number, reason: 'Panel cracked' }).expect(201);
    await t.http.post('/payg/items/swap').set(d.user.auth).send({ item_serial_number: spare.serial_number, new_serial_number: third.serial_number, reason: 'Battery dead' }).expect(201);
    expect((await item(d.org.id, third.id)).discount.toFixed(2)).toBe('600.00');
    expect(ZDeviceDiscountListSchema.parse((await t.http.get(`/payg/items/${third.serial_number}/discounts`).set(d.user.auth).expect(200)).body).data).toEqual([
      expect.objectContaining({ discount_id: given.discount.discount_id, serial_number: d.item.serial_number }),
    ]);
    const voided = ZDiscountVoidReplySchema.parse(
      (await t.http.post(`/payg/items/discounts/${given.discount.discount_id}/void`).set(d.user.auth).send({ reason: 'Wrong device' }).expect(200)).body,
    );
    expect(voided.message).toBe(`Discount of KES 600.00 on ${third.serial_number} voided: KES 17,600.00 left to pay`);
    expect((await item(d.org.id, third.id)).discount.toFixed(2)).toBe('0.00');
    expect((await status(d.user, d.customer.id)).balance).toBe('17600.00');

    // Once the account is over (the device taken back and given to someone else), there is nothing to take one back from.
    const again = ZItemDiscountReplySchema.parse((await give(d.user, { item_serial_number: third.serial_number, amount: '100.00', reason: 'Goodwill' }).expect(201)).body);
    await t.http.post('/payg/items/repossess').set(d.user.auth).send({ item_serial_number: third.serial_number, reason: 'Stopped paying', status: 'available' }).expect(200);
    const next = await seedCustomer(t, d.org.id);
    await t.http.post('/payg/items/assign').set(d.user.auth).send({ customer_id: next.id, item_serial_number: third.serial_number }).expect(200);
    const res = await t.http.post(`/payg/items/discounts/${again.discount.discount_id}/void`).set(d.user.auth).send({ reason: 'Wrong device' }).expect(409);
    expect(res.body.detail).toBe(
      `The account of ${d.customer.customer_name} on ${third.serial_number} this discount was given on has ended: there is nothing to take it back from`,
    );
  });

  it('writes off what is left after the discount when the device is repossessed', async () => {
    const d = await payer();
    await give(d.user, { item_serial_number: d.item.serial_number, amount: '1000.00', reason: 'Paying off early' }).expect(201);
    const res = await t.http.post('/payg/items/repossess').set(d.user.auth).send({ item_serial_number: d.item.serial_number, reason: 'Stopped paying' }).expect(200);
    expect(res.body.written_off).toBe('16600.00');
  });
});
