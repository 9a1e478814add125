import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  ZMpesaExpressSettingsSchema,
  ZPaymentRequestReplySchema,
  ZPaymentRequestsReplySchema,
  ZPersonalDataExportSchema,
  ZReportSchema,
  type MpesaExpressInput,
} from '@kidogo/contracts';
import { APP_CONFIG } from '../src/config/config.js';
import { DatabaseService } from '../src/database/database.service.js';
import { PaymentRequestSweepService } from '../src/mpesa-express/payment-request-sweep.service.js';
import { PaymentRequestsService } from '../src/mpesa-express/payment-requests.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DARAJA_KEYS as KEYS, FakeDaraja, type Push } from './support/fake-daraja.js';
import { mpesaCode, seedApiKey, seedCustomer, seedCustomerWithDevice, seedItem, seedRoles, seedTenant, type SeededUser } from './support/factories.js';

// M-Pesa Express (README "Asking a customer to pay"): staff ask a device's customer to pay, Safaricom prompts
// their phone and posts the result to the installation; a paid request is recorded like any M-Pesa payment.
// Safaricom is played by a real HTTP server speaking Daraja's OAuth and STK push.

const PUBLIC_URL = 'https://payg.example.com';
describe('M-Pesa Express', () => {
  let t: TestApp;
  const daraja = new FakeDaraja();
  beforeAll(async () => {
    await daraja.start();
    t = await createTestApp({ env: { PUBLIC_URL: `${PUBLIC_URL}/` } });
  });
  afterAll(async () => {
    await t?.close();
    await daraja.stop();
  });
  beforeEach(() => {
    daraja.refuse = null;
    daraja.refuseQuery = null;
  });

  const setUp = (user: SeededUser, body: Partial<MpesaExpressInput>) =>
    t.http.put('/payg/settings/mpesa-express').set(user.auth).send({ environment: 'sandbox', short_code: '174379', ...body });
  const ask = (user: SeededUser, body: object) => t.http.post('/payg/payment-requests').set(user.auth).send(body);
  const request = async (user: SeededUser, id: number) =>
    ZPaymentRequestReplySchema.parse((await t.http.get(`/payg/payment-requests/${id}`).set(user.auth).expect(200)).body).data;
  /** Points the organization at the fake Safaricom the way a super admin would: base_url in the Payment Providers tab. */
  const pointAtFake = async (superAdmin: SeededUser, orgId: string) => {
    const list = await t.http.get('/payg/admin/payment-providers').query({ organization_id: orgId }).set(superAdmin.auth).expect(200);
    const row = (list.body.data as { id: number; provider: string; config: Record<string, unknown> }[]).find((p) => p.provider === 'mpesa_express')!;
    await t.http.put(`/payg/admin/payment-providers/${row.id}`).set(superAdmin.auth).send({ config: { ...row.config, base_url: daraja.url } }).expect(200);
  };
  /** Safaricom's result for the request whose push is `push`, posted where Kidogo told it to. */
  const result = (push: Push, code: number, meta: { amount?: number; receipt?: string; phone?: string } = {}) => {
    const path = new URL(String(push.body.CallBackURL)).pathname;
    const stkCallback: Record<string, unknown> = {
      MerchantRequestID: '29115-3462056-1',
      CheckoutRequestID: (push as Push & { checkout?: string }).checkout,
      ResultCode: code,
      ResultDesc: code === 0 ? 'The service request is processed successfully.' : code === 1032 ? 'Request cancelled by user' : 'DS timeout user cannot be reached',
    };
    if (code === 0) {
      stkCallback.CallbackMetadata = {
        Item: [
          { Name: 'Amount', Value: meta.amount ?? push.body.Amount },
          { Name: 'MpesaReceiptNumber', Value: meta.receipt ?? mpesaCode('TL') },
          { Name: 'Balance' },
          { Name: 'TransactionDate', Value: 20261205101532 },
          { Name: 'PhoneNumber', Value: Number(meta.phone ?? push.body.PhoneNumber) },
        ],
      };
    }
    return t.http.post(path).send({ Body: { stkCallback } });
  };
  /** The push Safaricom received last, with the CheckoutRequestID it answered. */
  const lastPush = (): Push & { checkout: string } => {
    const n = daraja.pushes.length;
    return { ...daraja.pushes[n - 1]!, checkout: FakeDaraja.checkoutId(n) };
  };

  it('is set up by owners and admins, with secrets kept masked and tried against Safaricom', async () => {
    const { org, owner, admin, staff, superAdmin } = await seedRoles(t);
    const first = ZMpesaExpressSettingsSchema.parse((await t.http.get('/payg/settings/mpesa-express').set(owner.auth).expect(200)).body);
    expect(first).toMatchObject({ configured: false, ready: false, callback_base: `${PUBLIC_URL}/payg/external/mpesa-express/` });
    expect(first.problem).toBe('M-Pesa Express is not set up: an owner or admin sets it up in Settings → M-Pesa Express');
    await t.http.get('/payg/settings/mpesa-express').set(staff.auth).expect(403);
    await setUp(staff, KEYS).expect(403);

    // Each field is checked and named; the first time the three secrets are all needed.
    expect((await setUp(owner, { ...KEYS, short_code: '17-43' }).expect(400)).body.message).toBe('short_code: must be the paybill or store number (5 to 7 digits)');
    expect((await setUp(owner, { ...KEYS, transaction_type: 'CustomerBuyGoodsOnline' }).expect(400)).body.message).toBe(
      'till_number: is required for a till (CustomerBuyGoodsOnline)',
    );
    expect((await setUp(owner, { consumer_key: KEYS.consumer_key }).expect(400)).body.message).toBe('consumer_secret: is required');
    expect((await setUp(owner, { ...KEYS, environment: 'live' as never }).expect(400)).body.message).toBe('environment: must be one of sandbox, production');
    expect(await t.db.db.paymentProvider.count({ where: { organization_id: org.id } })).toBe(0);

    const saved = ZMpesaExpressSettingsSchema.parse((await setUp(admin, KEYS).expect(200)).body);
    expect(saved).toMatchObject({ configured: true, is_active: true, ready: true, problem: null, short_code: '174379', transaction_type: 'CustomerPayBillOnline' });
    expect(saved.consumer_key).toBe('ck_l••••••••ghij');
    expect(JSON.stringify(saved)).not.toContain(KEYS.passkey);
    // Stored sealed, not in the clear.
    const row = await t.db.db.paymentProvider.findFirstOrThrow({ where: { organization_id: org.id, provider: 'mpesa_express' } });
    expect(row.config_enc).not.toContain(KEYS.consumer_secret);

    // Saved again with the masked values as read: the secrets stay (the keys still work below).
    await setUp(owner, { consumer_key: saved.consumer_key!, consumer_secret: saved.consumer_secret!, passkey: saved.passkey! }).expect(200);
    await pointAtFake(superAdmin, org.id);
    const tried = await t.http.post('/payg/settings/mpesa-express/test').set(owner.auth).expect(200);
    expect(tried.body).toEqual({ ok: true, message: 'Safaricom accepted the consumer key and secret (sandbox)' });
    await setUp(owner, { consumer_secret: 'not-the-secret' }).expect(200);
    const wrong = await t.http.post('/payg/settings/mpesa-express/test').set(owner.auth).expect(200);
    expect(wrong.body).toEqual({ ok: false, message: 'Safaricom did not accept the keys (sandbox): the consumer key or secret is wrong' });

    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: 'mpesa_express.update' }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.description)).toEqual([
      `M-Pesa Express set to sandbox, paybill 174379; new consumer key, consumer secret, passkey by ${admin.username}`,
      `M-Pesa Express set to sandbox, paybill 174379 by ${owner.username}`,
      `M-Pesa Express set to sandbox, paybill 174379; new consumer secret by ${owner.username}`,
    ]);
    expect(JSON.stringify(audit)).not.toContain(KEYS.consumer_secret);
  });

  /** An organization set up against the fake Safaricom, with a customer's device on a daily plan. */
  const readyOrg = async () => {
    const { org, owner, staff, superAdmin } = await seedRoles(t);
    await setUp(owner, KEYS).expect(200);
    await pointAtFake(superAdmin, org.id);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, {
      customer: { phone_contact: '0712 345 678', customer_name: 'Amina Otieno' },
      template: { daily_price: '50.00' },
    });
    return { org, owner, staff, superAdmin, customer, item };
  };

  it('prompts the customer and records their payment once, with the days and code it bought', async () => {
    const { org, owner, staff, customer, item } = await readyOrg();
    const before = Date.now();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number.toLowerCase(), amount: '500' }).expect(201)).body);
    expect(sent.message).toBe('Payment request sent to 254712345678: the customer confirms with their M-Pesa PIN');
    expect(sent.data).toMatchObject({
      item_id: item.id,
      serial_number: item.serial_number,
      customer_id: customer.id,
      customer_name: 'Amina Otieno',
      phone_number: '254712345678',
      amount: '500.00',
      status: 'pending',
      status_text: 'Waiting for the customer to enter their M-Pesa PIN',
      payment_id: null,
      requested_by: staff.username,
    });

    // What Safaricom was sent: the password is the short code, passkey and timestamp (Kenyan time) together.
    const push = lastPush();
    const ts = String(push.body.Timestamp);
    expect(ts).toMatch(/^\d{14}$/);
    const kenya = new Date(before + 3 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 12);
    expect(ts.slice(0, 12) >= kenya).toBe(true);
    expect(push.body).toMatchObject({
      BusinessShortCode: '174379',
      Password: Buffer.from(`174379${KEYS.passkey}${ts}`).toString('base64'),
      TransactionType: 'CustomerPayBillOnline',
      Amount: 500,
      PartyA: '254712345678',
      PartyB: '174379',
      PhoneNumber: '254712345678',
      AccountReference: item.serial_number.slice(0, 12),
    });
    expect(String(push.body.CallBackURL)).toMatch(new RegExp(`^${PUBLIC_URL}/payg/external/mpesa-express/[A-Za-z0-9_-]{32}$`));

    // One request per device waits at a time.
    const again = await ask(owner, { serial_number: item.serial_number, amount: 100 }).expect(409);
    expect(again.body.message).toMatch(new RegExp(`^A payment request for ${item.serial_number} sent at \\d\\d:\\d\\d is still waiting for the customer: wait for their answer, or until \\d\\d:\\d\\d$`));

    // The customer pays: the payment goes the whole way, as any M-Pesa payment does.
    const receipt = mpesaCode('TL');
    expect((await result(push, 0, { receipt, amount: 500 }).expect(200)).body).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    const paid = await request(staff, sent.data.request_id);
    expect(paid).toMatchObject({ status: 'paid', result_code: 0, mpesa_receipt: receipt, payment_outcome: 'processed', days: 10 });
    expect(paid.status_text).toBe(`Paid, M-Pesa receipt ${receipt}: 10 days of credit`);
    expect(paid.token).toMatch(/^\d{9,}$/);
    const payments = await t.db.db.payment.findMany({ where: { organization_id: org.id, transaction_code: receipt } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ id: paid.payment_id, item_id: item.id, amount: expect.anything() });
    expect(String(payments[0]!.amount)).toBe('500');
    const reply = await t.db.db.message.findFirst({ where: { organization_id: org.id, payment_id: paid.payment_id } });
    expect(reply?.received_message).toContain(`Daraja M-Pesa Express ${receipt}: KES 500 from 254712345678`);
    expect(reply?.forwarded_message).toContain(paid.token!.slice(0, 3));

    // Safaricom sends its result again, and the paybill's C2B confirmation arrives too: still one payment.
    await result(push, 0, { receipt, amount: 500 }).expect(200);
    const key = await seedApiKey(t, owner);
    const c2b = await t.http
      .post('/payg/external/receive-phoneteletalk')
      .set(key)
      .send({ TransactionType: 'Pay Bill', TransID: receipt, TransTime: '20261205101532', TransAmount: '500.00', BusinessShortCode: '174379', BillRefNumber: item.serial_number.slice(0, 12), MSISDN: '254712345678', FirstName: 'AMINA' })
      .expect(200);
    expect(c2b.body).toMatchObject({ status: 'duplicate', payment_id: paid.payment_id });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, transaction_code: receipt } })).toBe(1);
    expect((await request(staff, sent.data.request_id)).status).toBe('paid');

    // The staff member who asked is told, once, in their bell.
    const told = (await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string; serial_number: string; actor: string | null }[];
    expect(told.filter((n) => n.kind === 'payment_request_answered')).toEqual([
      expect.objectContaining({
        message: `The customer paid KES 500 for ${item.serial_number} by M-Pesa Express (receipt ${receipt}): 10 days of credit`,
        serial_number: item.serial_number,
        actor: null,
      }),
    ]);

    // Once answered, the device can be asked again.
    await ask(staff, { serial_number: item.serial_number, amount: 50, phone_number: '+254 110 123 456' }).expect(201);
    expect(lastPush().body.PhoneNumber).toBe('254110123456');

    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: 'payment_request.sent' }, orderBy: { id: 'asc' } });
    expect(audit[0]!.description).toBe(`${staff.username} asked Amina Otieno (254712345678) to pay KES 500 for ${item.serial_number} by M-Pesa Express`);
  });

  it('says what the payment bought when it bought no code yet', async () => {
    const { org, owner, superAdmin } = await seedRoles(t);
    await setUp(owner, KEYS).expect(200);
    await pointAtFake(superAdmin, org.id);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00', activation_price: '500.00' } });
    const sent = ZPaymentRequestReplySchema.parse((await ask(owner, { serial_number: item.serial_number, amount: 150 }).expect(201)).body).data;
    const receipt = mpesaCode('TL');
    await result(lastPush(), 0, { receipt }).expect(200);
    const paid = await request(owner, sent.request_id);
    expect(paid).toMatchObject({ status: 'paid', payment_outcome: 'processed', payment_reason: 'below_activation', days: null, token: null });
    expect(paid.status_text).toBe(
      `Paid, M-Pesa receipt ${receipt}: not enough yet to activate the device, kept as credit until the deposit and activation price are paid`,
    );
  });

  it('keeps what M-Pesa answered when the customer does not pay, and what it refused', async () => {
    const { owner, staff, item } = await readyOrg();
    const cancelled = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 200 }).expect(201)).body).data;
    await result(lastPush(), 1032).expect(200);
    expect(await request(staff, cancelled.request_id)).toMatchObject({
      status: 'cancelled',
      result_code: 1032,
      result_desc: 'Request cancelled by user',
      status_text: 'The customer cancelled the prompt',
      payment_id: null,
    });
    // A late success for an answered request changes nothing.
    await result(lastPush(), 0).expect(200);
    expect((await request(staff, cancelled.request_id)).status).toBe('cancelled');

    const unreachable = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 200 }).expect(201)).body).data;
    await result(lastPush(), 1037).expect(200);
    expect(await request(staff, unreachable.request_id)).toMatchObject({
      status: 'failed',
      status_text: "The customer's phone could not be reached (off or out of network), or they did not answer in time",
    });

    // Safaricom refuses the request itself: 502 with its words, the request kept as failed.
    daraja.refuse = { status: 400, body: { requestId: '1234-5678', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid PhoneNumber' } };
    const refused = await ask(owner, { serial_number: item.serial_number, amount: 200 }).expect(502);
    expect(refused.body.message).toBe('M-Pesa refused the request: Bad Request - Invalid PhoneNumber');
    const list = ZPaymentRequestsReplySchema.parse((await t.http.get('/payg/payment-requests').query({ serial_number: item.serial_number }).set(staff.auth).expect(200)).body).data;
    expect(list.items.map((r) => [r.status, r.status_text])).toEqual([
      ['failed', 'M-Pesa refused the request: Bad Request - Invalid PhoneNumber'],
      ['failed', "The customer's phone could not be reached (off or out of network), or they did not answer in time"],
      ['cancelled', 'The customer cancelled the prompt'],
    ]);
    expect(list.pagination).toEqual({ total: 3, total_pages: 1, page: 1, limit: 10 });

    // No answer at all: shown as expired once the prompt has long timed out, and the device can be asked again.
    daraja.refuse = null;
    const silent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 200 }).expect(201)).body).data;
    await t.db.pool.query(`UPDATE payment_requests SET created_at = created_at - interval '4 minutes' WHERE request_id = $1`, [silent.request_id]);
    expect(await request(staff, silent.request_id)).toMatchObject({ status: 'expired', status_text: 'No answer from M-Pesa within 3 minutes: the customer did not pay' });
    await ask(staff, { serial_number: item.serial_number, amount: 200 }).expect(201);
  });

  it('asks M-Pesa what became of a request whose result never came, and keeps its answer', async () => {
    const { org, owner, staff, item } = await readyOrg();
    const check = (user: SeededUser, id: number | string) => t.http.post(`/payg/payment-requests/${id}/check`).set(user.auth);
    const checked = async (id: number) => ZPaymentRequestReplySchema.parse((await check(staff, id).expect(200)).body);
    const expire = (id: number) => t.db.pool.query(`UPDATE payment_requests SET created_at = created_at - interval '4 minutes' WHERE request_id = $1`, [id]);

    // Still on the customer's phone: M-Pesa says so, and nothing changes.
    const first = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 200 }).expect(201)).body).data;
    const firstPush = lastPush();
    const waiting = await checked(first.request_id);
    expect(waiting.message).toBe('M-Pesa is still waiting for the customer to answer the prompt');
    expect(waiting.data).toMatchObject({ status: 'pending', answered_by: null });
    const asked = daraja.queries.at(-1)!;
    expect(asked).toMatchObject({ BusinessShortCode: '174379', CheckoutRequestID: firstPush.checkout });
    expect(asked.Password).toBe(Buffer.from(`174379${KEYS.passkey}${String(asked.Timestamp)}`).toString('base64'));

    // The customer cancelled, and the result was lost: the check keeps M-Pesa's answer.
    daraja.queryAnswers.set(firstPush.checkout, FakeDaraja.answerOf(1032));
    const cancelled = await checked(first.request_id);
    expect(cancelled.message).toBe('The customer cancelled the prompt');
    expect(cancelled.data).toMatchObject({ status: 'cancelled', result_code: 1032, result_desc: 'Request cancelled by user', answered_by: 'check' });
    // Answered: not asked about again.
    const queries = daraja.queries.length;
    expect((await check(staff, first.request_id).expect(409)).body.message).toBe('M-Pesa has already answered this request: The customer cancelled the prompt');
    expect(daraja.queries.length).toBe(queries);

    // Paid, the result lost past the 3 minutes: paid without a receipt, and no payment made up for it.
    const second = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 500 }).expect(201)).body).data;
    const secondPush = lastPush();
    await expire(second.request_id);
    daraja.queryAnswers.set(secondPush.checkout, FakeDaraja.answerOf(0));
    const paid = await checked(second.request_id);
    expect(paid.data).toMatchObject({ status: 'paid', answered_by: 'check', mpesa_receipt: null, payment_id: null, days: null });
    expect(paid.data.status_text).toBe(
      "Paid: M-Pesa says the customer paid, but its receipt has not reached Kidogo yet. The payment is applied when M-Pesa's result, the paybill confirmation, " +
        "the forwarded SMS or your M-Pesa statement brings it; or record it with the receipt from the customer's SMS",
    );
    expect(paid.message).toBe(paid.data.status_text);
    const before = await t.db.db.payment.count({ where: { organization_id: org.id } });
    // Checked again: the payment is looked for again, and M-Pesa is not asked again.
    expect((await checked(second.request_id)).message).toBe('M-Pesa says the customer paid; no payment with its receipt has reached Kidogo yet');
    expect(daraja.queries.length).toBe(queries + 1);
    // The result comes after all: it brings the receipt and the payment, once.
    const receipt = mpesaCode('TL');
    await result(secondPush, 0, { receipt, amount: 500 }).expect(200);
    await result(secondPush, 0, { receipt, amount: 500 }).expect(200);
    const late = await request(staff, second.request_id);
    expect(late).toMatchObject({ status: 'paid', answered_by: 'callback', mpesa_receipt: receipt, payment_outcome: 'processed', days: 10 });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(before + 1);

    // Paid by M-Pesa Express, and the paybill's confirmation arrived instead of the result: the check finds that payment.
    const key = await seedApiKey(t, owner);
    const c2b = (code: string, amount: string) =>
      t.http
        .post('/payg/external/receive-phoneteletalk')
        .set(key)
        .send({ TransactionType: 'Pay Bill', TransID: code, TransTime: '20261205101532', TransAmount: amount, BusinessShortCode: '174379', BillRefNumber: item.serial_number, MSISDN: '254712345678', FirstName: 'AMINA' })
        .expect(200);
    const third = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 300 }).expect(201)).body).data;
    daraja.queryAnswers.set(lastPush().checkout, FakeDaraja.answerOf(0));
    const confirmed = mpesaCode('TM');
    await c2b(mpesaCode('TN'), '120.00'); // another payment to the device, of another amount: not this one
    const applied = (await c2b(confirmed, '300.00')).body as { payment_id: number };
    const linked = await checked(third.request_id);
    expect(linked.data).toMatchObject({ status: 'paid', answered_by: 'check', mpesa_receipt: confirmed, payment_id: applied.payment_id, payment_outcome: 'duplicate', days: 6 });
    expect(linked.data.token).toMatch(/^\d{9,}$/);
    expect(linked.message).toBe(`Paid, M-Pesa receipt ${confirmed}: 6 days of credit`);

    // M-Pesa paid, and the confirmation comes only after the check: checking again finds it.
    const fourth = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 250 }).expect(201)).body).data;
    daraja.queryAnswers.set(lastPush().checkout, FakeDaraja.answerOf(0));
    expect((await checked(fourth.request_id)).data.mpesa_receipt).toBeNull();
    const later = mpesaCode('TP');
    await c2b(later, '250.00');
    expect((await checked(fourth.request_id)).data).toMatchObject({ mpesa_receipt: later, payment_outcome: 'duplicate', days: 5 });

    // M-Pesa cannot answer the check: a 502 with its words, and nothing changes.
    const fifth = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 20 }).expect(201)).body).data;
    daraja.refuseQuery = { status: 503, body: { requestId: '3-3', errorCode: '503.001.01', errorMessage: 'Service is currently unavailable' } };
    expect((await check(staff, fifth.request_id).expect(502)).body.message).toBe('M-Pesa could not say what became of the request: Service is currently unavailable');
    expect((await request(staff, fifth.request_id)).status).toBe('pending');
    // Checked by the owner: the staff member who asked is told; of what they checked themselves, they were not.
    daraja.refuseQuery = null;
    daraja.queryAnswers.set(lastPush().checkout, FakeDaraja.answerOf(1));
    await check(owner, fifth.request_id).expect(200);
    const told = (await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string; actor: string | null }[];
    expect(told.filter((n) => n.kind === 'payment_request_answered').map((n) => [n.message, n.actor])).toEqual([
      [`The customer did not pay KES 20 for ${item.serial_number} by M-Pesa Express: The customer's M-Pesa balance was too low`, owner.username],
      [`The customer paid KES 500 for ${item.serial_number} by M-Pesa Express (receipt ${receipt}): 10 days of credit`, null],
    ]);

    // Another organization's request is not there; a bad id is named.
    const other = await readyOrg();
    expect((await check(other.staff, fifth.request_id).expect(404)).body.message).toBe('Payment request not found');
    expect((await check(staff, 'abc').expect(400)).body.message).toMatch(/^request_id: /);
  });

  it('asks M-Pesa by itself, once, about a request whose result has not come 3 minutes on, and tells whoever sent it', async () => {
    const { staff, item } = await readyOrg();
    const sweeps = t.app.get(PaymentRequestSweepService);
    const send = async (amount: number) => {
      const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount }).expect(201)).body).data;
      return { id: sent.request_id, checkout: lastPush().checkout };
    };
    const asked = (checkout: string) => daraja.queries.filter((q) => q.CheckoutRequestID === checkout).length;
    const expire = (id: number) => t.db.pool.query(`UPDATE payment_requests SET created_at = created_at - interval '4 minutes' WHERE request_id = $1`, [id]);

    // Within its 3 minutes, a request is the customer's to answer: not asked about.
    const fresh = await send(60);
    await sweeps.sweep();
    expect(asked(fresh.checkout)).toBe(0);

    // Past them, with no result: asked about once; M-Pesa's answer is kept, and the sender told.
    await expire(fresh.id);
    daraja.queryAnswers.set(fresh.checkout, FakeDaraja.answerOf(1037));
    const swept = await sweeps.sweep();
    expect(swept.checked).toBeGreaterThanOrEqual(1);
    expect(asked(fresh.checkout)).toBe(1);
    expect(await request(staff, fresh.id)).toMatchObject({
      status: 'failed',
      answered_by: 'check',
      status_text: "The customer's phone could not be reached (off or out of network), or they did not answer in time",
    });
    const told = (await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string; actor: string | null }[];
    expect(told.filter((n) => n.kind === 'payment_request_answered')).toEqual([
      expect.objectContaining({
        message: `The customer did not pay KES 60 for ${item.serial_number} by M-Pesa Express: The customer's phone could not be reached (off or out of network), or they did not answer in time`,
        actor: null,
      }),
    ]);

    // Still waiting when asked (M-Pesa slow to give up): left to staff, not asked again by the sweep.
    const slow = await send(70);
    await expire(slow.id);
    await sweeps.sweep();
    await sweeps.sweep();
    expect(asked(slow.checkout)).toBe(1);
    expect((await request(staff, slow.id)).status).toBe('expired');
    // Its sender is told, once, that no answer came.
    const noAnswer = ((await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string }[]).filter(
      (n) => n.kind === 'payment_request_answered' && n.message.includes('KES 70 '),
    );
    expect(noAnswer.map((n) => n.message)).toEqual([
      `The customer did not pay KES 70 for ${item.serial_number} by M-Pesa Express: No answer from M-Pesa within 3 minutes: the customer did not pay`,
    ]);

    // Two processes sweeping at once ask about each request once.
    const other = t.app.get(PaymentRequestsService);
    const twice = await send(80);
    await expire(twice.id);
    daraja.queryAnswers.set(twice.checkout, FakeDaraja.answerOf(1032));
    const a = new PaymentRequestSweepService(t.app.get(DatabaseService), other, t.app.get(APP_CONFIG));
    const b = new PaymentRequestSweepService(t.app.get(DatabaseService), other, t.app.get(APP_CONFIG));
    await Promise.all([a.sweep(), b.sweep()]);
    expect(asked(twice.checkout)).toBe(1);
    expect((await request(staff, twice.id)).status).toBe('cancelled');
  });

  it("applies a paybill confirmation whose account is a long serial number M-Pesa cut to 12 characters, when a request asked for it", async () => {
    const { org, owner, superAdmin } = await seedRoles(t);
    await setUp(owner, KEYS).expect(200);
    await pointAtFake(superAdmin, org.id);
    const tag = mpesaCode('').slice(-6);
    const { item } = await seedCustomerWithDevice(t, org.id, { item: { serial_number: `SHS-2026-${tag}-0042` }, template: { daily_price: '50.00' } });
    // A device whose serial starts the same, not asked for: an account of 12 characters alone does not say which.
    await seedCustomerWithDevice(t, org.id, { item: { serial_number: `SHS-2026-${tag}-0043` } });
    const key = await seedApiKey(t, owner);
    const c2b = (code: string, account: string, amount: string) =>
      t.http
        .post('/payg/external/receive-phoneteletalk')
        .set(key)
        .send({ TransactionType: 'Pay Bill', TransID: code, TransTime: '20261205101532', TransAmount: amount, BusinessShortCode: '174379', BillRefNumber: account, MSISDN: '254712345678', FirstName: 'AMINA' })
        .expect(200);
    const cut = `SHS-2026-${tag}`.slice(0, 12);

    // Before any request: held for staff, as any account matching no single device.
    expect((await c2b(mpesaCode('TQ'), cut, '300.00')).body.status).toBe('unmatched');

    const sent = ZPaymentRequestReplySchema.parse((await ask(owner, { serial_number: item.serial_number, amount: 300 }).expect(201)).body).data;
    const push = lastPush();
    expect(push.body.AccountReference).toBe(cut);
    // Another amount is not what was asked for: held.
    expect((await c2b(mpesaCode('TR'), cut, '250.00')).body.status).toBe('unmatched');
    // The amount asked for: the asked device's, though its result never comes.
    const receipt = mpesaCode('TS');
    const applied = await c2b(receipt, cut.toLowerCase(), '300.00');
    expect(applied.body).toMatchObject({ status: 'processed' });
    const payment = await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id, transaction_code: receipt } });
    expect(payment.item_id).toBe(item.id);
    // The check finds it as the request's payment.
    daraja.queryAnswers.set(push.checkout, FakeDaraja.answerOf(0));
    const checked = ZPaymentRequestReplySchema.parse((await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(owner.auth).expect(200)).body);
    expect(checked.data).toMatchObject({ status: 'paid', mpesa_receipt: receipt, payment_id: payment.id, days: 6 });
    // Given its payment, the request no longer claims another confirmation of that amount.
    expect((await c2b(mpesaCode('TU'), cut, '300.00')).body.status).toBe('unmatched');
  });

  it('reports the requests of a period by who sent them: paid, cancelled, failed, no answer yet', async () => {
    const { org, owner, staff, item } = await readyOrg();
    const send = async (user: SeededUser, amount: number) => {
      const sent = ZPaymentRequestReplySchema.parse((await ask(user, { serial_number: item.serial_number, amount }).expect(201)).body).data;
      return { id: sent.request_id, push: lastPush() };
    };
    const paid = await send(staff, 500);
    await result(paid.push, 0, { amount: 500 }).expect(200);
    await result((await send(staff, 200)).push, 1032).expect(200);
    await result((await send(owner, 300)).push, 1037).expect(200);
    const old = await send(owner, 900);
    await result(old.push, 0, { amount: 900 }).expect(200);
    await t.db.pool.query(`UPDATE payment_requests SET created_at = now() - interval '40 days' WHERE request_id = $1`, [old.id]);
    await send(staff, 150); // still waiting

    const from = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(owner.auth).send({ report: 'payment_requests', from }).expect(200)).body);
    expect(report.columns.map((c) => c.label)).toEqual(['Sent By', 'Paid With', 'Currency', 'Requests', 'Paid', 'Amount Paid', 'Cancelled', 'Failed', 'No Answer Yet', 'Paid %']);
    const mpesa = { paid_with: 'M-Pesa Express', currency: 'KES' };
    expect(report.rows).toEqual([
      { sent_by: staff.username, ...mpesa, requests: 3, paid: 1, paid_amount: '500.00', cancelled: 1, failed: 0, no_answer: 1, paid_share: 33.3 },
      { sent_by: owner.username, ...mpesa, requests: 1, paid: 0, paid_amount: '0.00', cancelled: 0, failed: 1, no_answer: 0, paid_share: 0 },
    ]);
    expect(report.totals).toEqual({ rows: 2, requests: 4, paid: 1, paid_amount: '500.00', cancelled: 1, failed: 1, no_answer: 1, paid_share: 25 });
    // All time: the old request too.
    const all = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(staff.auth).send({ report: 'payment_requests' }).expect(200)).body);
    expect(all.totals).toMatchObject({ requests: 5, paid: 2, paid_amount: '1400.00', paid_share: 40 });
    expect(all.rows[0]).toMatchObject({ sent_by: owner.username, paid_amount: '900.00' });
    // As a download.
    const csv = await t.http.post('/payg/reports/page').set(owner.auth).send({ report: 'payment_requests', from, format: 'csv' }).expect(200);
    expect(csv.headers['content-disposition']).toMatch(/payment_requests-report-\d{4}-\d{2}-\d{2}\.csv/);
    expect(csv.text.split('\n')[0]).toContain('Sent By');
    expect(csv.text).toContain(staff.username);
    // Another organization's report has none of these.
    const other = await seedTenant(t);
    const theirs = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(other.user.auth).send({ report: 'payment_requests' }).expect(200)).body);
    expect(theirs.rows).toEqual([]);
    expect(theirs.totals).toMatchObject({ requests: 0, paid_share: null });
    expect(org.id).not.toBe(other.org.id);
  });

  it('refuses bad input, devices without a customer and an organization not set up, storing nothing', async () => {
    const { org, staff, item } = await readyOrg();
    const cases: [object, number, string][] = [
      [{ serial_number: item.serial_number, amount: 10.5 }, 400, 'amount: must be whole shillings (M-Pesa Express takes no cents)'],
      [{ serial_number: item.serial_number, amount: 0 }, 400, 'amount: must be at least 1'],
      [{ serial_number: item.serial_number, amount: 300000 }, 400, 'amount: must be at most 250000 (the most M-Pesa takes at once)'],
      [{ serial_number: item.serial_number, amount: 'ten' }, 400, 'amount: must be a number'],
      [{ serial_number: item.serial_number, amount: 10, phone_number: '+255 712 345 678' }, 400, 'phone_number: must be a Kenyan M-Pesa number (07…, 01… or +254…)'],
      [{ amount: 10 }, 400, 'serial_number: is required'],
      [{ serial_number: 'NO-SUCH-DEVICE', amount: 10 }, 404, 'Device not found'],
    ];
    for (const [body, status, message] of cases) expect((await ask(staff, body).expect(status)).body.message).toBe(message);

    const spare = await seedItem(t, org.id);
    expect((await ask(staff, { serial_number: spare.serial_number, amount: 10 }).expect(409)).body.message).toBe(
      `Device ${spare.serial_number} has no customer: only a device's customer can be asked to pay for it`,
    );
    const abroad = await seedCustomer(t, org.id, { phone_contact: '+256 772 123456', customer_name: 'Okello' });
    const theirs = await seedItem(t, org.id, { customer_id: abroad.id });
    expect((await ask(staff, { serial_number: theirs.serial_number, amount: 10 }).expect(400)).body.message).toBe(
      "phone_number: is required: Okello's phone +256 772 123456 is not a Kenyan M-Pesa number",
    );
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: org.id } })).toBe(0);
    expect(daraja.pushes.some((p) => p.body.AccountReference === spare.serial_number.slice(0, 12))).toBe(false);

    // Not set up, or switched off: a 409 that says what to do.
    const other = await seedTenant(t);
    const { item: device } = await seedCustomerWithDevice(t, other.org.id);
    expect((await ask(other.user, { serial_number: device.serial_number, amount: 10 }).expect(409)).body.message).toBe(
      'M-Pesa Express is not set up: an owner or admin sets it up in Settings → M-Pesa Express',
    );
    await setUp(other.user, { ...KEYS, is_active: false }).expect(200);
    expect((await ask(other.user, { serial_number: device.serial_number, amount: 10 }).expect(409)).body.message).toBe(
      'M-Pesa Express is switched off: an owner or admin switches it on in Settings → M-Pesa Express',
    );

    // Safaricom's results: an address nobody was given, or a body that is not a result.
    await t.http.post('/payg/external/mpesa-express/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').send({ Body: { stkCallback: { CheckoutRequestID: 'x', ResultCode: 0 } } }).expect(404);
    expect((await t.http.post('/payg/external/mpesa-express/short').send({ Body: { stkCallback: { CheckoutRequestID: 'x', ResultCode: 0 } } }).expect(400)).body.message).toMatch(/^token: /);
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 10 }).expect(201)).body).data;
    const path = new URL(String(lastPush().body.CallBackURL)).pathname;
    expect((await t.http.post(path).send({ Body: {} }).expect(400)).body.message).toMatch(/^Body\.stkCallback/);
    expect((await t.http.post(path).send({ Body: { stkCallback: { CheckoutRequestID: 'ws_CO_other', ResultCode: 0 } } }).expect(400)).body.message).toBe(
      'Body.stkCallback.CheckoutRequestID: is not the one of this request',
    );
    expect((await request(staff, sent.request_id)).status).toBe('pending');
  });

  it('keeps each organization to its own requests', async () => {
    const a = await readyOrg();
    const b = await readyOrg();
    const mine = ZPaymentRequestReplySchema.parse((await ask(a.staff, { serial_number: a.item.serial_number, amount: 20 }).expect(201)).body).data;
    await t.http.get(`/payg/payment-requests/${mine.request_id}`).set(b.owner.auth).expect(404);
    await ask(b.staff, { serial_number: a.item.serial_number, amount: 20 }).expect(404);
    const theirs = ZPaymentRequestsReplySchema.parse((await t.http.get('/payg/payment-requests').set(b.owner.auth).expect(200)).body).data;
    expect(theirs.items).toEqual([]);
    const byCustomer = ZPaymentRequestsReplySchema.parse(
      (await t.http.get('/payg/payment-requests').query({ customer_id: a.customer.id }).set(b.owner.auth).expect(200)).body,
    ).data;
    expect(byCustomer.pagination.total).toBe(0);
    const own = ZPaymentRequestsReplySchema.parse((await t.http.get('/payg/payment-requests').query({ customer_id: a.customer.id }).set(a.owner.auth).expect(200)).body).data;
    expect(own.items.map((r) => r.request_id)).toEqual([mine.request_id]);
    // b's settings are b's: a's keys are not shown to b.
    const bSettings = (await t.http.get('/payg/settings/mpesa-express').set(b.owner.auth).expect(200)).body;
    expect(bSettings.configured).toBe(true);
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: b.org.id } })).toBe(0);
  });

  it("goes with the customer's personal data: in their copy, and out when it is erased", async () => {
    const { owner, staff, customer, item } = await readyOrg();
    await ask(staff, { serial_number: item.serial_number, amount: 40 }).expect(201);
    const copy = ZPersonalDataExportSchema.parse((await t.http.get(`/payg/customers/${customer.id}/personal-data`).set(owner.auth).expect(200)).body);
    expect(copy.payment_requests).toEqual([
      expect.objectContaining({ serial_number: item.serial_number, phone_number: '254712345678', amount: '40.00', status: 'pending', requested_by: staff.username }),
    ]);
    // Erasure is refused while the customer holds a device not paid off: it is given back first.
    await t.http.post('/payg/items/unassign').set(owner.auth).send({ item_serial_number: item.serial_number }).expect(200);
    const erased = await t.http.post(`/payg/customers/${customer.id}/erase`).set(owner.auth).send({ reason: 'The customer asked for it by letter' }).expect(200);
    expect(erased.body.erased.payment_requests).toBe(1);
    const { rows } = await t.db.pool.query(`SELECT phone_number FROM payment_requests WHERE customer_id = $1`, [customer.id]);
    expect(rows).toEqual([{ phone_number: '' }]);
  });
});

describe('M-Pesa Express without PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: '' } });
  });
  afterAll(() => t?.close());

  it('says why requests cannot be sent', async () => {
    const { org, user } = await seedTenant(t);
    const { item } = await seedCustomerWithDevice(t, org.id);
    await t.http.put('/payg/settings/mpesa-express').set(user.auth).send({ environment: 'production', short_code: '4012345', ...KEYS }).expect(200);
    const settings = ZMpesaExpressSettingsSchema.parse((await t.http.get('/payg/settings/mpesa-express').set(user.auth).expect(200)).body);
    const problem =
      'PUBLIC_URL is not set: M-Pesa could not tell this installation that a customer paid. Its administrator sets PUBLIC_URL to the https address the internet reaches it at.';
    expect(settings).toMatchObject({ ready: false, callback_base: null, problem, environment: 'production' });
    expect((await t.http.post('/payg/payment-requests').set(user.auth).send({ serial_number: item.serial_number, amount: 10 }).expect(409)).body.message).toBe(problem);
  });
});
