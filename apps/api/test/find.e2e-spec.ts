import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZFindReplySchema, type FindReply } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { mpesaCode, seedCustomer, seedCustomerWithDevice, seedItem, seedPayment, seedTenant, type SeededUser } from './support/factories.js';

// GET /payg/find: the header's Find box (README "Find").

describe('Find', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const find = async (user: SeededUser, q: string, limit?: number): Promise<FindReply> =>
    ZFindReplySchema.parse((await t.http.get('/payg/find').query({ q, ...(limit ? { limit } : {}) }).set(user.auth).expect(200)).body);
  const names = (r: FindReply) => r.customers.map((c) => c.customer_name);

  it('finds a customer by part of their name, any phone form, their ID number, and says which field held it', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, {
      customer: { customer_name: 'Grace Wanjiru Kamau', phone_contact: '0712 345 678', id_number: '29876543', email: 'grace.k@example.test' },
      item: { serial_number: 'SHS-77001', product_name: 'Solar Home System 50W' },
    });
    await seedCustomer(t, org.id, { customer_name: 'Peter Otieno', phone_contact: '0798000111', id_number: '11112222' });

    const byName = await find(user, 'wanjiru');
    expect(byName.customers).toEqual([
      { customer_id: customer.id, customer_name: 'Grace Wanjiru Kamau', phone_contact: '0712 345 678', id_number: '29876543', matched: 'customer_name', devices: 1 },
    ]);
    expect(byName.devices).toEqual([]);
    expect(byName.payments).toEqual([]);

    // The whole number in any form, read in the organization's country (Kenya), and a part of it as written.
    for (const q of ['0712345678', '+254 712 345 678', '254712345678', '345 678']) {
      const r = await find(user, q);
      expect({ q, found: r.customers.map((c) => [c.customer_id, c.matched]) }).toEqual({ q, found: [[customer.id, 'phone_contact']] });
    }
    expect((await find(user, '9876')).customers.map((c) => [c.customer_id, c.matched])).toEqual([[customer.id, 'id_number']]);
    expect((await find(user, 'grace.k@')).customers.map((c) => [c.customer_id, c.matched])).toEqual([[customer.id, 'email']]);
    // An email is searched only for a term with an @.
    expect((await find(user, 'example.test')).customers).toEqual([]);
    expect((await find(user, 'nobody here')).customers).toEqual([]);
    expect(item.serial_number).toBe('SHS-77001');
  });

  it("finds a device by its serial whatever the case, spaces and dashes, or a part of it, with who holds it", async () => {
    const { user, org } = await seedTenant(t);
    const { customer } = await seedCustomerWithDevice(t, org.id, { item: { serial_number: 'SHS-77002', product_name: 'Solar Lamp' } });
    await seedItem(t, org.id, { serial_number: 'SHS-770021', product_name: 'Solar Lamp' });
    await seedItem(t, org.id, { serial_number: 'LMP-5', product_name: 'Lamp', status: 'maintenance' });

    // The serial itself only, when one is the term.
    const exact = await find(user, 'shs 77002');
    expect(exact.devices).toEqual([
      { serial_number: 'SHS-77002', product_name: 'Solar Lamp', status: 'assigned', customer_id: customer.id, customer_name: customer.customer_name },
    ]);
    // A part: every serial holding it, newest first.
    expect((await find(user, '7700')).devices.map((d) => [d.serial_number, d.status, d.customer_id])).toEqual([
      ['SHS-770021', 'available', null],
      ['SHS-77002', 'assigned', customer.id],
    ]);
    expect((await find(user, 'lmp-5')).devices.map((d) => [d.serial_number, d.status])).toEqual([['LMP-5', 'maintenance']]);
  });

  it('finds a payment by its transaction code whatever the case, applied or held for matching', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id);
    const code = mpesaCode('QK');
    const paid = await seedPayment(t, org.id, { customer_id: customer.id, item_id: item.id, amount: '750.00', transaction_code: code });
    const heldCode = mpesaCode('QH');
    const held = await seedPayment(t, org.id, { amount: '300.00', status: 'pending', transaction_code: heldCode });
    await t.db.db.payment.update({
      where: { organization_id_id: { organization_id: org.id, id: held.id } },
      data: { hold_reason: 'No device with serial SHS-NOPE', applied_at: null },
    });

    expect((await find(user, code.toLowerCase())).payments).toEqual([
      {
        payment_id: paid.id,
        transaction_code: code,
        amount: '750.00',
        currency: 'KES',
        status: 'completed',
        hold_reason: null,
        paid_at: paid.paid_at.toISOString(),
        serial_number: item.serial_number,
        customer_id: customer.id,
        customer_name: customer.customer_name,
      },
    ]);
    const r = await find(user, heldCode);
    expect(r.payments.map((p) => [p.payment_id, p.status, p.hold_reason, p.serial_number, p.customer_id])).toEqual([
      [held.id, 'pending', 'No device with serial SHS-NOPE', null, null],
    ]);
    // Only the whole code: a part of one finds no payment.
    expect((await find(user, heldCode.slice(0, 6))).payments).toEqual([]);
  });

  it('keeps each group newest first and at most limit long (5 unless given)', async () => {
    const { user, org } = await seedTenant(t);
    for (let i = 1; i <= 7; i++) await seedCustomer(t, org.id, { customer_name: `Akinyi Number ${i}` });
    expect(names(await find(user, 'akinyi'))).toEqual([7, 6, 5, 4, 3].map((i) => `Akinyi Number ${i}`));
    expect(names(await find(user, 'akinyi', 2))).toEqual(['Akinyi Number 7', 'Akinyi Number 6']);
    expect(names(await find(user, 'akinyi', 20))).toHaveLength(7);
  });

  it("never shows another organization's customers, devices or payments", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const code = mpesaCode('QI');
    const { customer, item } = await seedCustomerWithDevice(t, b.org.id, {
      customer: { customer_name: 'Halima Isolated', phone_contact: '0733444555', id_number: '55443322' },
      item: { serial_number: 'ISO-90001' },
    });
    await seedPayment(t, b.org.id, { customer_id: customer.id, item_id: item.id, transaction_code: code });
    for (const q of ['Halima', '0733444555', '55443322', 'ISO-90001', code]) {
      expect(await find(a.user, q)).toEqual({ q, customers: [], devices: [], payments: [] });
    }
    const own = await find(b.user, 'Halima');
    expect(own.customers.map((c) => c.customer_id)).toEqual([customer.id]);
  });

  it('refuses a term under 3 or over 100 characters, and a bad limit, naming the field', async () => {
    const { user } = await seedTenant(t, { role: 'staff' });
    for (const [query, field] of [
      [{}, 'q'],
      [{ q: '  ab ' }, 'q'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ q: 'grace', limit: 0 }, 'limit'],
      [{ q: 'grace', limit: 21 }, 'limit'],
      [{ q: 'grace', limit: 'five' }, 'limit'],
    ] as const) {
      const res = await t.http.get('/payg/find').query(query).set(user.auth).expect(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    // Staff may search; the term is trimmed.
    expect((await find(user, '  abc  ')).q).toBe('abc');
  });
});
