import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import {
  ZMessageListReplySchema,
  ZPaymentListReplySchema,
  ZPaymentOutcomeSchema,
  ZReceiveReplySchema,
  ZRejectPaymentReplySchema,
  ZStatementImportReplySchema,
  type PaymentOutcome,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  mpesaPaybillSms,
  seedApiKey,
  seedCustomer,
  seedCustomerWithDevice,
  seedItem,
  seedTenant,
  seedUser,
  type SeededUser,
  mpesaCode,
} from './support/factories.js';

const code = () => mpesaCode('P');
const NOW = new Date();
/** The plan of the README's worked examples: 1,500 upfront, 50 a day, 3 grace days, paid off at 20,000. */
const README_PLAN = { deposit_made: '1000.00', activation_price: '500.00', daily_price: '50.00', grace_period_days: 3, free_code_price: '20000.00' };

type Seeded = Awaited<ReturnType<typeof seedCustomerWithDevice>>;
/** The simulated device, by default as it leaves the factory: count 1 used (the seeded rows are at 0, as devices recorded before migration 0021). */
const deviceOf = (s: { item: Seeded['item'] }, count = 1) => new Device({ secretKey: s.item.secret.secretKey, startingCode: s.item.secret.startingCode }, count);

describe('payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
  });
  afterAll(() => t.close());

  const pay = async (user: SeededUser, body: Record<string, unknown>, status = 201): Promise<PaymentOutcome> => {
    const res = await t.http.post('/payg/payments').set(user.auth).send(body);
    expect({ status: res.status, body: res.body }).toMatchObject({ status });
    return ZPaymentOutcomeSchema.parse(res.body);
  };
  const itemRow = (orgId: string, id: number) => t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const setDevice = (orgId: string, id: number, data: { credit: string; total_paid: string; activated: boolean }) =>
    t.db.db.item.update({
      where: { organization_id_id: { organization_id: orgId, id } },
      data: { credit: data.credit, total_paid: data.total_paid, activated_at: data.activated ? new Date(Date.now() - 86_400_000 * 30) : null },
    });

  describe('the payment rules (README "Payment rules"), end to end', () => {
    it('examples 1 and 2: a deposit below activation is held, the payment that completes it activates with the grace days', async () => {
      const { user, org } = await seedTenant(t, { role: 'staff' });
      const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
      const first = await pay(user, { serial_number: s.item.serial_number, amount: 1200, payment_method: 'cash' });
      expect(first).toMatchObject({ status: 'processed', reason: 'below_activation', tokens: [], credit: '1200.00', remaining_balance: '18800.00' });
      expect(first.token).toBeUndefined();
      expect(first.reply_message).toContain('KES 300.00 more is needed to activate your device.');

      const second = await pay(user, { serial_number: s.item.serial_number, amount: '1000', payment_method: 'mobile_money' });
      expect(second).toMatchObject({ status: 'processed', reason: 'activated', days: 17, credit: '0.00', remaining_balance: '17800.00' });
      expect(second.tokens).toHaveLength(1);
      expect(second.tokens![0]).toMatchObject({ token_type: 'activation', days: 17 });
      expect(deviceOf(s).enterToken(second.token!, NOW)).toMatchObject({ status: 'VALID', days: 17 });
      const row = await itemRow(org.id, s.item.id);
      expect([row.credit.toFixed(2), row.total_paid.toFixed(2), row.activated_at !== null]).toEqual(['0.00', '2200.00', true]);
      const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: second.payment_id! } } });
      expect(payment).toMatchObject({ days_bought: 14, status: 'completed', source: 'manual', recorded_by: user.username, payment_method: 'mobile_money' });
      expect(payment.credit_after!.toFixed(2)).toBe('0.00');
    });

    it('a staff token on a new device gives time but does not pay the upfront amount: the first payment still has to', async () => {
      const { user, org } = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
      const device = deviceOf(s);
      const given = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: s.item.serial_number, number_of_days: 7 }).expect(200);
      expect(given.body).toMatchObject({ code_type: 'activation', days: 7 });
      expect(device.enterToken(given.body.code_token, NOW)).toMatchObject({ status: 'VALID', days: 7 });
      expect((await itemRow(org.id, s.item.id)).activated_at).toBeNull();
      // 2,200: 1,500 upfront, then 700 buys 14 days plus the 3 grace days (44 days at face value before).
      const paid = await pay(user, { serial_number: s.item.serial_number, amount: 2200, payment_method: 'cash' });
      expect(paid).toMatchObject({ status: 'processed', reason: 'activated', days: 17, remaining_balance: '17800.00' });
      expect(device.enterToken(paid.token!, NOW)).toMatchObject({ status: 'VALID', days: 17 });
      expect((await itemRow(org.id, s.item.id)).activated_at).not.toBeNull();
    });

    it('examples 3 and 4: credit is carried to the next payment; less than a day buys no token', async () => {
      const { user, org } = await seedTenant(t);
      const key = await seedApiKey(t, user);
      const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
      await setDevice(org.id, s.item.id, { credit: '20.00', total_paid: '5000.00', activated: true });
      const receive = (amount: string) =>
        t.http
          .post('/payg/external/receive-phoneteletalk')
          .set(key)
          .send({ message: mpesaPaybillSms({ code: code(), amount, account: s.item.serial_number }) })
          .expect(200);
      const ex3 = ZReceiveReplySchema.parse((await receive('75.00')).body);
      expect(ex3).toMatchObject({ status: 'processed', reason: 'days_added', days: 1, credit: '45.00', remaining_balance: '14925.00' });
      expect(ex3.tokens![0]!.token_type).toBe('add_time');
      expect(deviceOf(s).enterToken(ex3.token!, NOW)).toMatchObject({ status: 'VALID', days: 1 });
      expect(ex3.reply_message).toContain('Credit carried: KES 45.00.');

      const ex4 = ZReceiveReplySchema.parse((await receive('4.00')).body);
      expect(ex4).toMatchObject({ status: 'processed', reason: 'below_daily_price', tokens: [], credit: '49.00' });
      expect(ex4.reply_message).toContain('KES 49.00 is held as credit for your next payment');
      const row = await itemRow(org.id, s.item.id);
      expect([row.credit.toFixed(2), row.total_paid.toFixed(2), row.token_count]).toEqual(['49.00', '5079.00', 2]);
    });

    it('example 5: crossing the free-code price gives the unlock-forever token', async () => {
      const { user, org } = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
      await setDevice(org.id, s.item.id, { credit: '10.00', total_paid: '19900.00', activated: true });
      const r = await pay(user, { serial_number: s.item.serial_number, amount: 150, payment_method: 'bank' });
      expect(r).toMatchObject({ reason: 'paid_off', credit: '0.00', remaining_balance: '0.00' });
      expect(r.tokens).toEqual([expect.objectContaining({ token_type: 'unlock', days: 0 })]);
      const device = deviceOf(s);
      expect(device.enterToken(r.token!, NOW)).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
      expect(device.unlockedForever).toBe(true);
      expect(r.reply_message).toContain('fully paid and unlocked forever');
      const row = await itemRow(org.id, s.item.id);
      expect(row.paid_off_at).not.toBeNull();
      expect(row.total_paid.toFixed(2)).toBe('20050.00');
    });

    it('example 6: a very large payment is split into tokens of at most 995 days', async () => {
      const { user, org } = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id, { template: { ...README_PLAN, free_code_price: null }, item: { price: '0' } });
      await setDevice(org.id, s.item.id, { credit: '0', total_paid: '2200.00', activated: true });
      const r = await pay(user, { serial_number: s.item.serial_number, amount: 60000, payment_method: 'bank' });
      expect(r).toMatchObject({ reason: 'days_added', days: 1200, credit: '0.00', remaining_balance: null });
      expect(r.tokens!.map((x) => [x.token_type, x.days, x.token_count])).toEqual([
        ['add_time', 995, 2],
        ['add_time', 205, 4],
      ]);
      const device = deviceOf(s);
      for (const x of r.tokens!) expect(device.enterToken(x.token, NOW).status).toBe('VALID');
      expect(Math.round(device.daysLeft(NOW))).toBe(1200);
      expect(r.reply_message).toContain('enter in order: 1)');
    });

    it('example 7: without a payment plan the money is held as credit', async () => {
      const { user, org } = await seedTenant(t);
      const customer = await seedCustomer(t, org.id);
      const item = await seedItem(t, org.id, { customer_id: customer.id, price: '25000.00' });
      const r = await pay(user, { serial_number: item.serial_number, amount: 500, payment_method: 'cash' });
      expect(r).toMatchObject({ reason: 'no_template', tokens: [], credit: '500.00', remaining_balance: '24500.00' });
      expect(r.reply_message).toContain('held as credit on your account until your payment plan is set up');
    });

    it('example 8: a first payment reaching the free-code price unlocks directly', async () => {
      const { user, org } = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
      const r = await pay(user, { serial_number: s.item.serial_number, amount: 21000, payment_method: 'cash' });
      expect(r).toMatchObject({ reason: 'paid_off', credit: '0.00' });
      expect(r.tokens!.map((x) => x.token_type)).toEqual(['unlock']);
      expect(deviceOf(s).enterToken(r.token!, NOW)).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
    });
  });

  describe('POST /payg/payments', () => {
    it('queues the reply to the customer\'s phone and is idempotent by reference', async () => {
      const { user, org } = await seedTenant(t, { role: 'staff' });
      const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '100.00' } });
      const body = { serial_number: s.item.serial_number, amount: '300.00', payment_method: 'cash', reference: 'RCPT-0001', paid_at: '2026-01-05T09:00:00+03:00' };
      const first = await pay(user, body);
      expect(first).toMatchObject({ status: 'processed', days: 3, transaction_code: 'RCPT-0001' });
      const outgoing = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: first.message_id! } } });
      expect(outgoing).toMatchObject({ received_message: null, raw_payload: null, recipient_number: s.customer.phone_normalized, delivery_status: 'queued', payment_id: first.payment_id });
      expect(outgoing.forwarded_message).toBe(first.reply_message);
      const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: first.payment_id! } } });
      expect(payment.paid_at.toISOString()).toBe('2026-01-05T06:00:00.000Z');
      expect(payment.reference).toBe('RCPT-0001');

      const again = await pay(user, body);
      expect(again).toMatchObject({ status: 'duplicate', payment_id: first.payment_id, token: first.token, days: 3 });
      expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
      const conflict = await t.http.post('/payg/payments').set(user.auth).send({ ...body, amount: 400 }).expect(409);
      expect(conflict.body.detail).toMatch(/^reference: RCPT-0001 was already used/);
      // Without a reference every call is a new payment.
      await pay(user, { serial_number: s.item.serial_number, amount: 100, payment_method: 'cash' });
      await pay(user, { serial_number: s.item.serial_number, amount: 100, payment_method: 'cash' });
      expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(3);
    });

    it('validates the payment and refuses unknown, other-organization and retired devices', async () => {
      const { user, org } = await seedTenant(t);
      const other = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id);
      const serial = s.item.serial_number;
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ amount: 0, payment_method: 'cash' }, /^amount: must be at least 0.01/],
        [{ amount: -5, payment_method: 'cash' }, /^amount: must be at least/],
        [{ amount: 1.234, payment_method: 'cash' }, /^amount: must have at most 2 decimals/],
        [{ amount: 'abc', payment_method: 'cash' }, /^amount: must be a number/],
        [{ amount: 10, payment_method: 'card' }, /^payment_method: must be one of cash, bank, mobile_money/],
        [{ amount: 10 }, /^payment_method: /],
        [{ amount: 10, payment_method: 'cash', paid_at: 'yesterday' }, /^paid_at: must be an ISO 8601 date and time/],
        [{ amount: 10, payment_method: 'cash', paid_at: new Date(Date.now() + 86_400_000).toISOString() }, /^paid_at: must not be in the future/],
        [{ amount: 10, payment_method: 'cash', reference: 'x'.repeat(65) }, /^reference: must be at most 64 characters/],
      ];
      for (const [body, re] of cases) {
        const res = await t.http.post('/payg/payments').set(user.auth).send({ serial_number: serial, ...body }).expect(400);
        expect(res.body.detail).toMatch(re);
      }
      await t.http.post('/payg/payments').set(user.auth).send({ amount: 10, payment_method: 'cash' }).expect(400);
      await t.http.post('/payg/payments').set(user.auth).send({ serial_number: 'NOPE', amount: 10, payment_method: 'cash' }).expect(404);
      await t.http.post('/payg/payments').set(other.user.auth).send({ serial_number: serial, amount: 10, payment_method: 'cash' }).expect(404);
      const retired = await seedItem(t, org.id, { status: 'retired' });
      await t.http.post('/payg/payments').set(user.auth).send({ serial_number: retired.serial_number, amount: 10, payment_method: 'cash' }).expect(409);
      expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
      expect((await itemRow(org.id, s.item.id)).total_paid.toFixed(2)).toBe('0.00');
    });
  });

  describe('GET /payg/payments', () => {
    it('filters by status, method, dates, customer and device, pages, and shows only the organization\'s payments', async () => {
      const { user, org } = await seedTenant(t);
      const key = await seedApiKey(t, user);
      const a = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '10.00' } });
      const b = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '10.00' } });
      await pay(user, { serial_number: a.item.serial_number, amount: 100, payment_method: 'cash', paid_at: '2026-01-01T08:00:00Z' });
      await pay(user, { serial_number: a.item.serial_number, amount: 200, payment_method: 'bank', paid_at: '2026-01-02T08:00:00Z' });
      await pay(user, { serial_number: b.item.serial_number, amount: 300, payment_method: 'cash', paid_at: '2026-01-03T08:00:00Z' });
      const unmatched = ZReceiveReplySchema.parse(
        (await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: mpesaPaybillSms({ code: code(), amount: '40.00', account: 'UNKNOWN', when: 'on 4/1/26 at 9:00 AM' }) })).body,
      );
      const list = async (q: Record<string, string | number> = {}) =>
        ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').query(q).set(user.auth).expect(200)).body);

      const all = await list();
      expect(all.pagination).toEqual({ total: 4, total_pages: 1, limit: 20, offset: 0 });
      expect(all.data.map((p) => p.amount)).toEqual(['40.00', '300.00', '200.00', '100.00']);
      expect(all.data[0]).toMatchObject({ payment_id: unmatched.payment_id, status: 'pending', payment_method: 'mobile_money', customer_id: null, serial_number: null, payer_phone: '254712345678' });
      expect(all.data[0]!.hold_reason).toBe('No single device matches the account reference UNKNOWN');
      expect(all.data[1]).toMatchObject({ status: 'completed', customer_id: b.customer.id, customer_name: b.customer.customer_name, serial_number: b.item.serial_number, days_bought: 30, currency: 'KES', hold_reason: null });

      expect((await list({ status: 'pending' })).data.map((p) => p.amount)).toEqual(['40.00']);
      // Totals filtered by status and dates come from the daily totals, part days from the rows.
      const totals = async (q: Record<string, string>) => (await list(q)).pagination.total;
      expect(await totals({ status: 'pending' })).toBe(1);
      expect(await totals({ status: 'completed', from: '2026-01-02' })).toBe(2);
      expect(await totals({ from: '2026-01-02', to: '2026-01-03' })).toBe(2);
      expect(await totals({ from: '2026-01-02T12:00:00Z' })).toBe(2);
      expect(await totals({ to: '2026-01-03T07:59:59Z' })).toBe(2);
      expect(await totals({ method: 'cash', to: '2026-01-02' })).toBe(1);
      expect((await list({ method: 'bank' })).data.map((p) => p.amount)).toEqual(['200.00']);
      expect((await list({ from: '2026-01-02', to: '2026-01-03' })).data.map((p) => p.amount)).toEqual(['300.00', '200.00']);
      expect((await list({ to: '2026-01-01' })).data.map((p) => p.amount)).toEqual(['100.00']);
      expect(await totals({ to: '9999-12-31' })).toBe(4);
      expect((await list({ customer_id: a.customer.id })).data.map((p) => p.amount)).toEqual(['200.00', '100.00']);
      expect((await list({ serial_number: b.item.serial_number })).data.map((p) => p.amount)).toEqual(['300.00']);
      expect((await list({ serial_number: 'NOPE' })).data).toEqual([]);
      const page = await list({ limit: 3, offset: 3 });
      expect(page.pagination).toEqual({ total: 4, total_pages: 2, limit: 3, offset: 3 });
      expect(page.data.map((p) => p.amount)).toEqual(['100.00']);

      for (const q of [{ status: 'paid' }, { method: 'card' }, { from: 'june' }, { to: '2026-02-30' }, { limit: 101 }, { customer_id: 'x' }]) {
        await t.http.get('/payg/payments').query(q).set(user.auth).expect(400);
      }
      const other = await seedTenant(t);
      const theirs = ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').set(other.user.auth).expect(200)).body);
      expect(theirs.pagination.total).toBe(0);
      const byCustomer = ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').query({ customer_id: a.customer.id }).set(other.user.auth).expect(200)).body);
      expect(byCustomer.data).toEqual([]);
      const bySerial = ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').query({ serial_number: a.item.serial_number }).set(other.user.auth).expect(200)).body);
      expect(bySerial.data).toEqual([]);
    });
  });

  describe('POST /payg/payments/{id}/match', () => {
    it('assigns an unmatched payment later and runs the rest of the pipeline, once', async () => {
      const { user, org } = await seedTenant(t);
      const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
      const key = await seedApiKey(t, user);
      const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
      const sms = mpesaPaybillSms({ code: code(), amount: '100.00', account: 'typo-123', phone: '254722000333' });
      const r = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
      expect(r.status).toBe('unmatched');

      await t.http.post(`/payg/payments/${r.payment_id}/match`).set(staff.auth).send({ serial_number: s.item.serial_number }).expect(403);
      await t.http.post(`/payg/payments/${r.payment_id}/match`).set(user.auth).send({}).expect(400);
      await t.http.post('/payg/payments/abc/match').set(user.auth).send({ serial_number: s.item.serial_number }).expect(400);
      await t.http.post('/payg/payments/999999/match').set(user.auth).send({ serial_number: s.item.serial_number }).expect(404);
      await t.http.post(`/payg/payments/${r.payment_id}/match`).set(user.auth).send({ serial_number: 'NOPE' }).expect(404);

      const matched = ZPaymentOutcomeSchema.parse(
        (await t.http.post(`/payg/payments/${r.payment_id}/match`).set(user.auth).send({ serial_number: s.item.serial_number }).expect(200)).body,
      );
      expect(matched).toMatchObject({ status: 'processed', payment_id: r.payment_id, days: 5, serial_number: s.item.serial_number, message_id: r.message_id });
      // Matched: no longer held, so no reason.
      expect((await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: r.payment_id! } } })).hold_reason).toBeNull();
      expect(deviceOf(s).enterToken(matched.token!, NOW)).toMatchObject({ status: 'VALID', days: 5 });
      const message = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: r.message_id } } });
      expect(message).toMatchObject({ status: 'processed', delivery_status: 'queued', recipient_number: '254722000333', item_id: s.item.id });
      expect(message.forwarded_message).toBe(matched.reply_message);
      const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'payment.match' } });
      expect(audit.entity_id).toBe(String(r.payment_id));

      const again = await t.http.post(`/payg/payments/${r.payment_id}/match`).set(user.auth).send({ serial_number: s.item.serial_number }).expect(409);
      expect(again.body.detail).toMatch(/only a pending payment can be matched/);
      expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
    });
  });

  describe('POST /payg/payments/{id}/reject', () => {
    it('rejects a held payment with the reason: failed, off the pending list and the unmatched messages, audited, never applied', async () => {
      const { user, org } = await seedTenant(t);
      const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
      const key = await seedApiKey(t, user);
      const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
      const sms = mpesaPaybillSms({ code: code(), amount: '400.00', account: 'WRONG-BIZ', phone: '254722000444' });
      const r = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
      expect(r.status).toBe('unmatched');
      const pending = async () =>
        ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').query({ status: 'pending' }).set(user.auth).expect(200)).body).pagination.total;
      expect(await pending()).toBe(1);

      await t.http.post(`/payg/payments/${r.payment_id}/reject`).set(staff.auth).send({ reason: 'Refunded' }).expect(403);
      for (const body of [{}, { reason: '  ' }, { reason: 'no' }, { reason: 'x'.repeat(201) }]) {
        const bad = await t.http.post(`/payg/payments/${r.payment_id}/reject`).set(user.auth).send(body).expect(400);
        expect(bad.body.detail).toMatch(/^reason: /);
      }
      await t.http.post('/payg/payments/999999/reject').set(user.auth).send({ reason: 'Refunded' }).expect(404);
      expect(await pending()).toBe(1);

      const rejected = ZRejectPaymentReplySchema.parse(
        (await t.http.post(`/payg/payments/${r.payment_id}/reject`).set(user.auth).send({ reason: ' Sent to us by mistake, refunded ' }).expect(200)).body,
      );
      expect(rejected).toEqual({
        message: 'Payment rejected',
        payment_id: r.payment_id,
        status: 'failed',
        hold_reason: `Rejected by ${user.username}: Sent to us by mistake, refunded`,
      });
      expect(await pending()).toBe(0);
      const failed = ZPaymentListReplySchema.parse((await t.http.get('/payg/payments').query({ status: 'failed' }).set(user.auth).expect(200)).body);
      expect(failed.data.map((p) => [p.payment_id, p.hold_reason])).toEqual([[r.payment_id, rejected.hold_reason]]);
      const messages = ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').set(user.auth).expect(200)).body);
      expect(messages.data.find((m) => m.id === r.message_id)).toMatchObject({ status: 'rejected', note: rejected.hold_reason });
      const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'payment.reject' } });
      expect(audit).toMatchObject({ entity_id: String(r.payment_id), actor_username: user.username });

      // It can be neither rejected again nor matched, and no device was given anything.
      const again = await t.http.post(`/payg/payments/${r.payment_id}/reject`).set(user.auth).send({ reason: 'Again' }).expect(409);
      expect(again.body.detail).toMatch(/only a pending payment can be rejected/);
      await t.http.post(`/payg/payments/${r.payment_id}/match`).set(user.auth).send({ serial_number: s.item.serial_number }).expect(409);
      expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(0);
      // The gateway sending the same confirmation again changes nothing.
      const resent = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
      expect(resent.status).toBe('duplicate');
      expect(await pending()).toBe(0);
    });
  });

  describe('POST /payg/reports/upload-csv', () => {
    const HEADER = 'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.';
    const row = (receipt: string, paidIn: string, account: string, extra: Partial<{ status: string; withdrawn: string; details: string }> = {}) =>
      [receipt, '2024-06-05 10:15:32', '2024-06-05 10:15:30', extra.details ?? 'Pay Bill Online', extra.status ?? 'Completed', paidIn, extra.withdrawn ?? '', '45300.00', 'true', 'Pay Bill Online', '254712345678 - JOHN KAMAU', '', account].join(',');

    it('records every payment of a statement once, skips what is not money received, and reports unreadable rows', async () => {
      const { user, org } = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00' } });
      const c1 = code();
      const c2 = code();
      const csv = [
        HEADER,
        row(c1, '"1,000.00"', s.item.serial_number, { details: '"Pay Bill from 254712345678 - JOHN KAMAU, Acc. SN"' }),
        row(c2, '250.00', 'UNKNOWN-REF'),
        row(code(), '', '', { withdrawn: '-4000.00', details: 'Business Payment to 600000' }),
        row(code(), '50.00', s.item.serial_number, { status: 'Failed' }),
        row('', '80.00', s.item.serial_number),
        row(code(), 'abc', s.item.serial_number),
      ].join('\r\n');
      const upload = () => t.http.post('/payg/reports/upload-csv').set(user.auth).attach('file', Buffer.from(csv), { filename: 'statement.csv', contentType: 'text/csv' });
      const first = ZStatementImportReplySchema.parse((await upload().expect(200)).body);
      expect(first).toEqual({
        imported: 2,
        skipped: 2,
        errors: [
          { row: 6, field: 'Receipt No.', message: expect.stringMatching(/No receipt number/) },
          { row: 7, field: 'Paid In', message: expect.stringMatching(/No Paid In amount/) },
        ],
        // The breakdown staff reconcile with: what reached a device, what waits for a match and why, what was skipped.
        applied: 1,
        held: [{ row: 3, payment_id: expect.any(Number), transaction_code: c2, amount: '250.00', reason: 'No single device matches the account reference UNKNOWN-REF' }],
        duplicates: 0,
        not_received: 2,
      });
      const paid = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_transaction_code: { organization_id: org.id, transaction_code: c1 } } });
      expect(paid).toMatchObject({ status: 'completed', source: 'statement', days_bought: 20, item_id: s.item.id, payer_phone: '254712345678' });
      expect(paid.paid_at.toISOString()).toBe('2024-06-05T07:15:32.000Z');
      const pending = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_transaction_code: { organization_id: org.id, transaction_code: c2 } } });
      expect(pending.status).toBe('pending');
      expect(first.held[0]!.payment_id).toBe(pending.id);
      // The customer gets the token by SMS as with any other payment.
      expect(await t.db.db.message.count({ where: { organization_id: org.id, payment_id: paid.id, delivery_status: 'queued' } })).toBe(1);

      const second = ZStatementImportReplySchema.parse((await upload().expect(200)).body);
      expect(second).toMatchObject({ imported: 0, skipped: 4, applied: 0, held: [], duplicates: 2, not_received: 2 });
      expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(2);
      expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
      const job = await t.db.db.importJob.findFirstOrThrow({ where: { organization_id: org.id }, orderBy: { created_at: 'desc' } });
      expect(job).toMatchObject({ kind: 'mpesa_statement', status: 'finished', skipped: 4 });
      const audit = await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'payments.import' } });
      expect(audit).toBe(2);

      // Another organization importing the same statement records its own payments and never touches these.
      const other = await seedTenant(t);
      const theirs = ZStatementImportReplySchema.parse(
        (await t.http.post('/payg/reports/upload-csv').set(other.user.auth).attach('file', Buffer.from(csv), { filename: 'statement.csv', contentType: 'text/csv' }).expect(200)).body,
      );
      expect(theirs.imported).toBe(2);
      expect(await t.db.db.payment.count({ where: { organization_id: other.org.id, status: 'pending' } })).toBe(2);
      expect((await itemRow(org.id, s.item.id)).total_paid.toFixed(2)).toBe('1000.00');
    });

    it('refuses a missing, empty, non-CSV or too large file, and staff', async () => {
      const { user, org } = await seedTenant(t);
      const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
      const post = () => t.http.post('/payg/reports/upload-csv').set(user.auth);
      const none = await post().field('other', 'x').expect(400);
      expect(none.body.detail).toMatch(/^file: is required/);
      expect((await post().attach('file', Buffer.alloc(0), { filename: 'a.csv', contentType: 'text/csv' }).expect(400)).body.detail).toBe('file: is empty');
      expect((await post().attach('file', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]), { filename: 'a.png', contentType: 'image/png' }).expect(400)).body.detail).toBe('file: must be a CSV file');
      expect((await post().attach('file', Buffer.from('name,phone\nx,y\n'), { filename: 'customers.csv', contentType: 'text/csv' }).expect(400)).body.detail).toMatch(/^file: must be a CSV file with a header row naming the receipt column/);
      const big = Buffer.alloc(1024 * 1024 + 10, 'a');
      await post().attach('file', big, { filename: 'big.csv', contentType: 'text/csv' }).expect(413);
      await t.http.post('/payg/reports/upload-csv').set(staff.auth).attach('file', Buffer.from(`${HEADER}\n`), { filename: 's.csv', contentType: 'text/csv' }).expect(403);
      expect(await t.db.db.importJob.count({ where: { organization_id: org.id } })).toBe(0);
    });
  });
});
