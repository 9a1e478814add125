import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  ZAirtelMoneySettingsSchema,
  ZPaymentRequestProvidersReplySchema,
  ZPaymentRequestReplySchema,
  type AirtelMoneyInput,
} from '@kidogo/contracts';
import { PaymentRequestSweepService } from '../src/mpesa-express/payment-request-sweep.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { AIRTEL_KEYS as KEYS, FakeAirtel } from './support/fake-airtel.js';
import { seedApiKey, seedCustomerWithDevice, seedRoles, seedTenant, type SeededUser } from './support/factories.js';

// Airtel Money's USSD push (README "Asking a customer to pay"): staff ask a device's customer to pay, Airtel prompts
// their phone and posts the end of the transaction to the Airtel app's one callback URL. Kidogo asks Airtel how it
// ended before acting, and records a paid request like any Airtel payment, once by Airtel Money's transaction id.
// Airtel is played by a real HTTP server speaking the Open API's token, USSD push and Transaction Enquiry.

const PUBLIC_URL = 'https://payg.example.com';
const CALLBACK = '/payg/external/airtel-money/callback';

describe('Airtel Money Ask to Pay', () => {
  let t: TestApp;
  const airtel = new FakeAirtel();
  beforeAll(async () => {
    await airtel.start();
    t = await createTestApp({ env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await airtel.stop();
  });
  beforeEach(() => {
    airtel.refuse = null;
  });

  const setUp = (user: SeededUser, body: Partial<AirtelMoneyInput>) =>
    t.http.put('/payg/settings/airtel-money').set(user.auth).send({ country: 'UG', environment: 'staging', client_id: KEYS.client_id, ...body });
  const ask = (user: SeededUser, body: object) => t.http.post('/payg/payment-requests').set(user.auth).send({ provider: 'airtel_money', ...body });
  const request = async (user: SeededUser, id: number) =>
    ZPaymentRequestReplySchema.parse((await t.http.get(`/payg/payment-requests/${id}`).set(user.auth).expect(200)).body).data;
  /** Points the organization at the fake Airtel the way a super admin would: base_url in the Payment Providers tab. */
  const pointAtFake = async (superAdmin: SeededUser, orgId: string, url = airtel.url) => {
    const list = await t.http.get('/payg/admin/payment-providers').query({ organization_id: orgId }).set(superAdmin.auth).expect(200);
    const row = (list.body.data as { id: number; provider: string; config: Record<string, unknown> }[]).find((p) => p.provider === 'airtel_money')!;
    await t.http.put(`/payg/admin/payment-providers/${row.id}`).set(superAdmin.auth).send({ config: { ...row.config, base_url: url } }).expect(200);
  };
  const last = () => airtel.pushes[airtel.pushes.length - 1]!;
  /** The push ends as `answer` at Airtel, and Airtel posts it to the callback URL. */
  const end = (id: string, answer = airtel.answerOf()) => {
    airtel.answers.set(id, answer);
    return { answer, posted: t.http.post(CALLBACK).send(airtel.callbackOf(id, answer)) };
  };

  /** A Ugandan organization (phones read as +256) with Airtel Money set up, and a customer on a UGX plan. */
  const readyOrg = async () => {
    const { org, owner, staff, superAdmin } = await seedRoles(t);
    await t.db.pool.query(`UPDATE organizations SET phone_country_code = '256' WHERE organization_id = $1`, [org.id]);
    await setUp(owner, KEYS).expect(200);
    await pointAtFake(superAdmin, org.id);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, {
      customer: { phone_contact: '0752 123 456', customer_name: 'Okello James' },
      template: { daily_price: '1500.00', currency: 'UGX' },
    });
    return { org, owner, staff, superAdmin, customer, item };
  };

  it('is set up by owners and admins, with the secret kept masked and tried against Airtel', async () => {
    const { org, owner, admin, staff, superAdmin } = await seedRoles(t);
    const first = ZAirtelMoneySettingsSchema.parse((await t.http.get('/payg/settings/airtel-money').set(owner.auth).expect(200)).body);
    expect(first).toMatchObject({ configured: false, ready: false, country: 'KE', currency: 'KES', environment: 'staging', callback_url: `${PUBLIC_URL}${CALLBACK}` });
    expect(first.problem).toBe('Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money');
    await t.http.get('/payg/settings/airtel-money').set(staff.auth).expect(403);
    await setUp(staff, KEYS).expect(403);

    // Each field is checked and named; the first time the secret is needed.
    expect((await setUp(owner, { ...KEYS, country: 'GH' as never }).expect(400)).body.message).toBe(
      'country: must be one of KE, UG, TZ, RW, ZM, MW, CD, CG, GA, TD, NE, MG, SC, NG',
    );
    expect((await setUp(owner, { ...KEYS, environment: 'live' as never }).expect(400)).body.message).toBe('environment: must be one of staging, production');
    expect((await setUp(owner, { ...KEYS, client_id: 'has spaces in it' }).expect(400)).body.message).toBe(
      'client_id: must be the client id Airtel gave (letters, digits, dots, dashes and underscores)',
    );
    expect((await setUp(owner, { client_id: KEYS.client_id }).expect(400)).body.message).toBe('client_secret: is required');
    expect(await t.db.db.paymentProvider.count({ where: { organization_id: org.id } })).toBe(0);

    const saved = ZAirtelMoneySettingsSchema.parse((await setUp(admin, KEYS).expect(200)).body);
    expect(saved).toMatchObject({ configured: true, is_active: true, ready: true, problem: null, country: 'UG', currency: 'UGX', client_id: KEYS.client_id });
    expect(saved.client_secret).toBe('c2Vj••••••••zdHM');
    expect(JSON.stringify(saved)).not.toContain(KEYS.client_secret);
    const row = await t.db.db.paymentProvider.findFirstOrThrow({ where: { organization_id: org.id, provider: 'airtel_money' } });
    expect(row.config_enc).not.toContain(KEYS.client_secret);

    // Saved again with the masked value as read: the secret stays (it still works below).
    await setUp(owner, { client_secret: saved.client_secret! }).expect(200);
    await pointAtFake(superAdmin, org.id);
    expect((await t.http.post('/payg/settings/airtel-money/test').set(owner.auth).expect(200)).body).toEqual({
      ok: true,
      message: 'Airtel accepted the client id and secret (staging)',
    });
    await setUp(owner, { client_secret: 'not-the-secret-at-all' }).expect(200);
    expect((await t.http.post('/payg/settings/airtel-money/test').set(owner.auth).expect(200)).body).toEqual({
      ok: false,
      message: 'Airtel did not accept the client id and secret (staging): the client id or client secret is wrong',
    });

    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: 'airtel_money.update' }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.description)).toEqual([
      `Airtel Money set to Uganda (UGX, staging), client id ${KEYS.client_id}; new client secret by ${admin.username}`,
      `Airtel Money set to Uganda (UGX, staging), client id ${KEYS.client_id} by ${owner.username}`,
      `Airtel Money set to Uganda (UGX, staging), client id ${KEYS.client_id}; new client secret by ${owner.username}`,
    ]);
    expect(JSON.stringify(audit)).not.toContain(KEYS.client_secret);
  });

  it('is offered in Ask to Pay once ready, in the money of its market', async () => {
    const { owner, staff } = await seedRoles(t);
    const before = ZPaymentRequestProvidersReplySchema.parse((await t.http.get('/payg/payment-requests/providers').set(staff.auth).expect(200)).body);
    expect(before.data.map((p) => [p.provider, p.ready])).toEqual([
      ['mpesa_express', false],
      ['mtn_momo', false],
      ['airtel_money', false],
    ]);
    await setUp(owner, { ...KEYS, country: 'TZ' }).expect(200);
    const after = ZPaymentRequestProvidersReplySchema.parse((await t.http.get('/payg/payment-requests/providers').set(staff.auth).expect(200)).body);
    expect(after.data[2]).toEqual({ provider: 'airtel_money', label: 'Airtel Money', ready: true, problem: null, currency: 'TZS', max_amount: 10_000_000, decimals: true });
    await setUp(owner, { ...KEYS, country: 'GA', is_active: false }).expect(200);
    const off = ZPaymentRequestProvidersReplySchema.parse((await t.http.get('/payg/payment-requests/providers').set(staff.auth).expect(200)).body);
    expect(off.data[2]).toMatchObject({
      ready: false,
      currency: 'XAF',
      decimals: false,
      problem: 'Airtel Money is switched off: an owner or admin switches it on in Settings → Airtel Money',
    });
  });

  it("prompts the customer, confirms Airtel's callback with Airtel, and records the payment once by Airtel Money's id", async () => {
    const { org, owner, staff, customer, item } = await readyOrg();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number.toLowerCase(), amount: '15000' }).expect(201)).body);
    expect(sent.message).toBe('Payment request sent to 256752123456: the customer confirms with their Airtel Money PIN');
    expect(sent.data).toMatchObject({
      provider: 'airtel_money',
      customer_id: customer.id,
      phone_number: '256752123456',
      amount: '15000.00',
      currency: 'UGX',
      status: 'pending',
      status_text: 'Waiting for the customer to approve with their Airtel Money PIN',
      receipt: null,
      mpesa_receipt: null,
    });

    // What Airtel was sent: the market's headers, the number without its country code, the serial as reference.
    const p = last();
    expect(p.id).toMatch(/^KDG[A-Z2-9]{17}$/);
    expect([p.country, p.currency]).toEqual(['UG', 'UGX']);
    expect(p.body).toEqual({
      reference: item.serial_number,
      subscriber: { country: 'UG', currency: 'UGX', msisdn: '752123456' },
      transaction: { amount: 15000, country: 'UG', currency: 'UGX', id: p.id },
    });
    expect((await ask(owner, { serial_number: item.serial_number, amount: 100 }).expect(409)).body.message).toMatch(/is still waiting for the customer/);

    // A callback that says paid while Airtel says the customer has not answered yet changes nothing.
    expect((await t.http.post(CALLBACK).send(airtel.callbackOf(p.id, airtel.answerOf())).expect(200)).body).toEqual({ received: true });
    expect((await request(staff, sent.data.request_id)).status).toBe('pending');
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);

    // The customer approves: Airtel posts, Kidogo asks, and the payment goes the whole way.
    const { answer, posted } = end(p.id);
    expect((await posted.expect(200)).body).toEqual({ received: true });
    const id = answer.airtel_money_id!;
    const paid = await request(staff, sent.data.request_id);
    expect(paid).toMatchObject({ status: 'paid', answered_by: 'callback', result_code: null, result_desc: 'TS', receipt: id, mpesa_receipt: null, payment_outcome: 'processed', days: 10 });
    expect(paid.status_text).toBe(`Paid, Airtel Money transaction ${id}: 10 days of credit`);
    expect(paid.token).toMatch(/^\d{9,}$/);
    const payments = await t.db.db.payment.findMany({ where: { organization_id: org.id, transaction_code: id } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ id: paid.payment_id, item_id: item.id, currency: 'UGX', source: 'airtel_money', payer_phone: '256752123456' });
    const reply = await t.db.db.message.findFirst({ where: { organization_id: org.id, payment_id: paid.payment_id } });
    expect(reply?.received_message).toBe(`Airtel Money USSD push ${id}: UGX 15000.00 from 256752123456, account ${item.serial_number}`);

    // Airtel posts again, and a forwarded body of the same payment comes too: still one payment.
    await t.http.post(CALLBACK).send(airtel.callbackOf(p.id, answer)).expect(200);
    const key = await seedApiKey(t, owner);
    const again = await t.http
      .post('/payg/external/receive-phoneteletalk')
      .set(key)
      .send({ airtel_money_id: id, reference: item.serial_number, amount: '15000', currency: 'UGX', msisdn: '256752123456', status_code: 'TS' })
      .expect(200);
    expect(again.body).toMatchObject({ status: 'duplicate', payment_id: paid.payment_id });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, transaction_code: id } })).toBe(1);

    const told = (await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string }[];
    expect(told.filter((n) => n.kind === 'payment_request_answered').map((n) => n.message)).toEqual([
      `The customer paid UGX 15,000 for ${item.serial_number} by Airtel Money (receipt ${id}): 10 days of credit`,
    ]);
  });

  it('keeps why the customer did not pay, and what Airtel refused', async () => {
    const { org, staff, item } = await readyOrg();
    const send = async (amount: number) => ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount }).expect(201)).body).data;

    const refused = await send(1000);
    await end(last().id, airtel.answerOf('DP00800001008')).posted.expect(200);
    expect(await request(staff, refused.request_id)).toMatchObject({ status: 'cancelled', result_desc: 'DP00800001008', status_text: 'The customer declined the payment' });

    const poor = await send(2000);
    await end(last().id, airtel.answerOf('DP00800001007')).posted.expect(200);
    expect(await request(staff, poor.request_id)).toMatchObject({ status: 'failed', status_text: "The customer's Airtel Money balance was too low" });

    // Failed, with neither a code Airtel names nor a message: said in Kidogo's words; with a message of Airtel's own: that.
    const plain = await send(2200);
    await end(last().id, { status: 'TF', airtel_money_id: null, message: '', response_code: 'DP00800001001' }).posted.expect(200);
    expect(await request(staff, plain.request_id)).toMatchObject({ status: 'failed', result_desc: 'TF', status_text: 'Airtel Money did not take the payment' });
    const said = await send(2300);
    await end(last().id, { status: 'TF', airtel_money_id: null, message: 'Subscriber is barred', response_code: 'DP00800001001' }).posted.expect(200);
    expect(await request(staff, said.request_id)).toMatchObject({ status: 'failed', status_text: 'Subscriber is barred' });

    const late = await send(2500);
    await end(last().id, airtel.answerOf('DP00800001029')).posted.expect(200);
    expect(await request(staff, late.request_id)).toMatchObject({ status: 'failed', status_text: 'The prompt expired before the customer answered' });

    // Airtel refuses the push itself (HTTP 200 with success false): kept as failed, answered 502 with Airtel's words.
    airtel.refuse = { status: 200, body: { data: {}, status: { code: '400', message: 'Invalid MSISDN', response_code: 'DP00800001000', success: false } } };
    expect((await ask(staff, { serial_number: item.serial_number, amount: 500 }).expect(502)).body.message).toBe(
      'Airtel refused the request: DP00800001000: Invalid MSISDN',
    );
    const rows = await t.db.db.paymentRequest.findMany({ where: { organization_id: org.id }, orderBy: { id: 'desc' }, take: 1 });
    expect(rows[0]).toMatchObject({ status: 'failed', result_desc: 'Airtel refused the request: DP00800001000: Invalid MSISDN' });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('asks Airtel about a request whose callback never came, by staff and by itself 3 minutes on', async () => {
    const { org, staff, item } = await readyOrg();
    const first = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 4500 }).expect(201)).body).data;
    const p1 = last();
    const waiting = await t.http.post(`/payg/payment-requests/${first.request_id}/check`).set(staff.auth).expect(200);
    expect(waiting.body.message).toBe('Airtel Money is still waiting for the customer to approve the payment');
    const a1 = airtel.answerOf();
    airtel.answers.set(p1.id, a1);
    const checked = ZPaymentRequestReplySchema.parse((await t.http.post(`/payg/payment-requests/${first.request_id}/check`).set(staff.auth).expect(200)).body);
    expect(checked.data).toMatchObject({ status: 'paid', answered_by: 'check', receipt: a1.airtel_money_id, payment_outcome: 'processed', days: 3 });
    expect((await t.http.post(`/payg/payment-requests/${first.request_id}/check`).set(staff.auth).expect(409)).body.message).toBe(
      `Airtel Money has already answered this request: Paid, Airtel Money transaction ${a1.airtel_money_id}: 3 days of credit`,
    );
    // The callback that comes late is acknowledged and changes nothing.
    await t.http.post(CALLBACK).send(airtel.callbackOf(p1.id, a1)).expect(200);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);

    const second = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 3000 }).expect(201)).body).data;
    const a2 = airtel.answerOf();
    airtel.answers.set(last().id, a2);
    const sweeps = t.app.get(PaymentRequestSweepService);
    await sweeps.sweep();
    expect((await request(staff, second.request_id)).status).toBe('pending');
    await t.db.pool.query(`UPDATE payment_requests SET created_at = created_at - interval '4 minutes' WHERE request_id = $1`, [second.request_id]);
    await sweeps.sweep();
    expect(await request(staff, second.request_id)).toMatchObject({ status: 'paid', answered_by: 'check', receipt: a2.airtel_money_id, days: 2 });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(2);
  });

  it('refuses bad input, a number of another market and an organization not set up, storing nothing', async () => {
    const { org, staff, item } = await readyOrg();
    const refused = async (body: object, field: string, message: string) => {
      const res = await ask(staff, { serial_number: item.serial_number, amount: 1000, ...body }).expect(400);
      expect(res.body.message).toBe(`${field}: ${message}`);
    };
    await refused({ amount: 1000.5 }, 'amount', 'must be whole UGX (it has no cents)');
    await refused({ phone_number: '+254 733 123 456' }, 'phone_number', 'is not a number in Uganda (+256), where your Airtel Money is set up');
    await refused({ phone_number: '12' }, 'phone_number', 'is not a phone number');
    await refused({ provider: 'airtel' }, 'provider', 'must be one of mpesa_express, mtn_momo, airtel_money');
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: org.id } })).toBe(0);
    expect(airtel.pushes.filter((p) => p.body.reference === item.serial_number)).toHaveLength(0);

    await ask(staff, { serial_number: item.serial_number, amount: 1000, phone_number: '+256 701 234 567' }).expect(201);
    expect(last().body.subscriber.msisdn).toBe('701234567');

    const other = await seedTenant(t);
    const { item: theirs } = await seedCustomerWithDevice(t, other.org.id, { customer: { phone_contact: '0752 000 111' } });
    expect((await ask(other.user, { serial_number: theirs.serial_number, amount: 1000 }).expect(409)).body.message).toBe(
      'Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money',
    );
  });

  it("takes callbacks only for its own transactions, and keeps each organization to its own requests", async () => {
    const { org, staff, superAdmin, item } = await readyOrg();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 1000 }).expect(201)).body).data;
    const p = last();
    await t.http.post(CALLBACK).send(airtel.callbackOf('KDGNOTATRANSACTION00', airtel.answerOf())).expect(404);
    expect((await t.http.post(CALLBACK).send({ status_code: 'TS' }).expect(400)).body.message).toMatch(/^transaction: /);
    // Airtel not answering the enquiry (a closed port here): acknowledged, and the request still waits (the sweep asks again).
    const answer = airtel.answerOf();
    airtel.answers.set(p.id, answer);
    await pointAtFake(superAdmin, org.id, 'http://127.0.0.1:9');
    expect((await t.http.post(CALLBACK).send(airtel.callbackOf(p.id, answer)).expect(200)).body).toEqual({ received: true });
    expect((await request(staff, sent.request_id)).status).toBe('pending');
    expect((await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(staff.auth).expect(502)).body.message).toBe(
      'Airtel Money could not say what became of the request: could not reach 127.0.0.1:9',
    );
    await pointAtFake(superAdmin, org.id);
    await t.http.post(CALLBACK).send(airtel.callbackOf(p.id, answer)).expect(200);
    expect((await request(staff, sent.request_id)).status).toBe('paid');

    const other = await seedTenant(t);
    await t.http.get(`/payg/payment-requests/${sent.request_id}`).set(other.user.auth).expect(404);
    await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(other.user.auth).expect(404);
    expect((await t.http.get('/payg/settings/airtel-money').set(other.user.auth).expect(200)).body).toMatchObject({ configured: false });
  });
});
