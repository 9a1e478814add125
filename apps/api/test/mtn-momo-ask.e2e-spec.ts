import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  ZMtnMomoSettingsSchema,
  ZPaymentRequestProvidersReplySchema,
  ZPaymentRequestReplySchema,
  ZPaymentRequestsReplySchema,
  type MtnMomoInput,
} from '@kidogo/contracts';
import { PaymentRequestSweepService } from '../src/mpesa-express/payment-request-sweep.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeMomo, MOMO_KEYS as KEYS, type MomoRequest } from './support/fake-momo.js';
import { seedApiKey, seedCustomerWithDevice, seedRoles, seedTenant, type SeededUser } from './support/factories.js';

// MTN MoMo's Request to Pay (README "Asking a customer to pay"): staff ask a device's customer to pay, MTN prompts
// their phone and puts the result to the installation; a paid request is recorded like any MTN payment, once by its
// financial transaction id. MTN is played by a real HTTP server speaking the MoMo API's token, Request to Pay and status.

const PUBLIC_URL = 'https://payg.example.com';
describe('MTN MoMo Ask to Pay', () => {
  let t: TestApp;
  const momo = new FakeMomo();
  beforeAll(async () => {
    await momo.start();
    t = await createTestApp({ env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await momo.stop();
  });
  beforeEach(() => {
    momo.refuse = null;
  });

  const setUp = (user: SeededUser, body: Partial<MtnMomoInput>) =>
    t.http.put('/payg/settings/mtn-momo').set(user.auth).send({ target_environment: 'mtnuganda', api_user: KEYS.api_user, ...body });
  const ask = (user: SeededUser, body: object) => t.http.post('/payg/payment-requests').set(user.auth).send({ provider: 'mtn_momo', ...body });
  const request = async (user: SeededUser, id: number) =>
    ZPaymentRequestReplySchema.parse((await t.http.get(`/payg/payment-requests/${id}`).set(user.auth).expect(200)).body).data;
  /** Points the organization at the fake MTN the way a super admin would: base_url in the Payment Providers tab. */
  const pointAtFake = async (superAdmin: SeededUser, orgId: string) => {
    const list = await t.http.get('/payg/admin/payment-providers').query({ organization_id: orgId }).set(superAdmin.auth).expect(200);
    const row = (list.body.data as { id: number; provider: string; config: Record<string, unknown> }[]).find((p) => p.provider === 'mtn_momo')!;
    await t.http.put(`/payg/admin/payment-providers/${row.id}`).set(superAdmin.auth).send({ config: { ...row.config, base_url: momo.url } }).expect(200);
  };
  /** MTN's result for a request, put where Kidogo told it to. */
  const result = (r: MomoRequest, answer: Record<string, unknown>) => t.http.put(new URL(r.callbackUrl).pathname).send(answer);
  const last = () => momo.requests[momo.requests.length - 1]!;

  /** A Ugandan organization (phones read as +256) with MTN MoMo set up, and a customer on a UGX plan. */
  const readyOrg = async () => {
    const { org, owner, staff, superAdmin } = await seedRoles(t);
    await t.db.pool.query(`UPDATE organizations SET phone_country_code = '256' WHERE organization_id = $1`, [org.id]);
    await setUp(owner, KEYS).expect(200);
    await pointAtFake(superAdmin, org.id);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, {
      customer: { phone_contact: '0772 123 456', customer_name: 'Nakato Sarah' },
      template: { daily_price: '1500.00', currency: 'UGX' },
    });
    return { org, owner, staff, superAdmin, customer, item };
  };

  it('is set up by owners and admins, with secrets kept masked and tried against MTN', async () => {
    const { org, owner, admin, staff, superAdmin } = await seedRoles(t);
    const first = ZMtnMomoSettingsSchema.parse((await t.http.get('/payg/settings/mtn-momo').set(owner.auth).expect(200)).body);
    expect(first).toMatchObject({
      configured: false,
      ready: false,
      target_environment: 'sandbox',
      currency: 'EUR',
      callback_base: `${PUBLIC_URL}/payg/external/mtn-momo/`,
      callback_host: 'payg.example.com',
    });
    expect(first.problem).toBe('MTN MoMo is not set up: an owner or admin sets it up in Settings → MTN MoMo');
    await t.http.get('/payg/settings/mtn-momo').set(staff.auth).expect(403);
    await setUp(staff, KEYS).expect(403);

    // Each field is checked and named; the first time both secrets are needed.
    expect((await setUp(owner, { ...KEYS, api_user: 'not-a-uuid' }).expect(400)).body.message).toBe(
      'api_user: must be the API user MTN gave (a UUID: 8-4-4-4-12 hexadecimal digits)',
    );
    expect((await setUp(owner, { ...KEYS, target_environment: 'mtnkenya' as never }).expect(400)).body.message).toBe(
      'target_environment: must be one of mtnuganda, mtnrwanda, mtnzambia, mtnghana, sandbox',
    );
    expect((await setUp(owner, { api_key: KEYS.api_key }).expect(400)).body.message).toBe('subscription_key: is required');
    expect(await t.db.db.paymentProvider.count({ where: { organization_id: org.id } })).toBe(0);

    const saved = ZMtnMomoSettingsSchema.parse((await setUp(admin, KEYS).expect(200)).body);
    expect(saved).toMatchObject({ configured: true, is_active: true, ready: true, problem: null, target_environment: 'mtnuganda', currency: 'UGX', api_user: KEYS.api_user });
    expect(saved.api_key).toBe('f1a2••••••••b5c6');
    expect(JSON.stringify(saved)).not.toContain(KEYS.subscription_key);
    const row = await t.db.db.paymentProvider.findFirstOrThrow({ where: { organization_id: org.id, provider: 'mtn_momo' } });
    expect(row.config_enc).not.toContain(KEYS.api_key);

    // Saved again with the masked values as read: the secrets stay (the keys still work below).
    await setUp(owner, { api_key: saved.api_key!, subscription_key: saved.subscription_key! }).expect(200);
    await pointAtFake(superAdmin, org.id);
    expect((await t.http.post('/payg/settings/mtn-momo/test').set(owner.auth).expect(200)).body).toEqual({
      ok: true,
      message: 'MTN accepted the API user and keys (mtnuganda)',
    });
    await setUp(owner, { api_key: 'not-the-key-at-all-0000' }).expect(200);
    expect((await t.http.post('/payg/settings/mtn-momo/test').set(owner.auth).expect(200)).body).toEqual({
      ok: false,
      message: 'MTN did not accept the keys (mtnuganda): the API user or API key is wrong',
    });
    await setUp(owner, { api_key: KEYS.api_key, subscription_key: 'wrong-subscription-key-000' }).expect(200);
    expect((await t.http.post('/payg/settings/mtn-momo/test').set(owner.auth).expect(200)).body).toEqual({
      ok: false,
      message: 'MTN did not accept the keys (mtnuganda): the subscription key is wrong',
    });

    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: 'mtn_momo.update' }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.description)).toEqual([
      `MTN MoMo set to Uganda (mtnuganda), API user ${KEYS.api_user}; new API key, subscription key by ${admin.username}`,
      `MTN MoMo set to Uganda (mtnuganda), API user ${KEYS.api_user} by ${owner.username}`,
      `MTN MoMo set to Uganda (mtnuganda), API user ${KEYS.api_user}; new API key by ${owner.username}`,
      `MTN MoMo set to Uganda (mtnuganda), API user ${KEYS.api_user}; new API key, subscription key by ${owner.username}`,
    ]);
    expect(JSON.stringify(audit)).not.toContain(KEYS.api_key);
  });

  it('tells any user which ways to ask are ready, and in what money', async () => {
    const { owner, staff } = await seedRoles(t);
    const before = ZPaymentRequestProvidersReplySchema.parse((await t.http.get('/payg/payment-requests/providers').set(staff.auth).expect(200)).body);
    expect(before.data.map((p) => [p.provider, p.ready])).toEqual([
      ['mpesa_express', false],
      ['mtn_momo', false],
      ['airtel_money', false],
    ]);
    await setUp(owner, { ...KEYS, target_environment: 'mtnghana' }).expect(200);
    const after = ZPaymentRequestProvidersReplySchema.parse((await t.http.get('/payg/payment-requests/providers').set(staff.auth).expect(200)).body);
    expect(after.data[1]).toEqual({ provider: 'mtn_momo', label: 'MTN MoMo', ready: true, problem: null, currency: 'GHS', max_amount: 10_000_000, decimals: true });
    expect(after.data[0]).toMatchObject({ provider: 'mpesa_express', ready: false, currency: 'KES', decimals: false });
    await setUp(owner, { ...KEYS, target_environment: 'mtnrwanda', is_active: false }).expect(200);
    const off = ZPaymentRequestProvidersReplySchema.parse((await t.http.get('/payg/payment-requests/providers').set(staff.auth).expect(200)).body);
    expect(off.data[1]).toMatchObject({ ready: false, currency: 'RWF', decimals: false, problem: 'MTN MoMo is switched off: an owner or admin switches it on in Settings → MTN MoMo' });
  });

  it('prompts the customer and records their payment once, by MTN\'s transaction id, with the days and code it bought', async () => {
    const { org, owner, staff, customer, item } = await readyOrg();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number.toLowerCase(), amount: '15000' }).expect(201)).body);
    expect(sent.message).toBe('Payment request sent to 256772123456: the customer confirms with their MoMo PIN');
    expect(sent.data).toMatchObject({
      provider: 'mtn_momo',
      customer_id: customer.id,
      phone_number: '256772123456',
      amount: '15000.00',
      currency: 'UGX',
      status: 'pending',
      status_text: 'Waiting for the customer to approve with their MoMo PIN',
      receipt: null,
      mpesa_receipt: null,
    });

    // What MTN was sent.
    const r = last();
    expect(r.referenceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.target).toBe('mtnuganda');
    expect(r.callbackUrl).toMatch(new RegExp(`^${PUBLIC_URL}/payg/external/mtn-momo/[A-Za-z0-9_-]{32}$`));
    expect(r.body).toMatchObject({
      amount: '15000',
      currency: 'UGX',
      externalId: item.serial_number,
      payer: { partyIdType: 'MSISDN', partyId: '256772123456' },
      payerMessage: `Pay ${item.serial_number}`,
    });

    // One request per device waits at a time, whoever it is with.
    expect((await ask(owner, { serial_number: item.serial_number, amount: 100 }).expect(409)).body.message).toMatch(/is still waiting for the customer/);

    // The customer approves: the payment goes the whole way, as any MTN payment does.
    const answer = momo.answerOf(r);
    const id = String(answer.financialTransactionId);
    expect((await result(r, answer).expect(200)).body).toEqual({ received: true });
    const paid = await request(staff, sent.data.request_id);
    expect(paid).toMatchObject({ status: 'paid', result_code: null, result_desc: 'SUCCESSFUL', receipt: id, mpesa_receipt: null, payment_outcome: 'processed', days: 10 });
    expect(paid.status_text).toBe(`Paid, MTN MoMo transaction ${id}: 10 days of credit`);
    expect(paid.token).toMatch(/^\d{9,}$/);
    const payments = await t.db.db.payment.findMany({ where: { organization_id: org.id, transaction_code: id } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ id: paid.payment_id, item_id: item.id, currency: 'UGX', source: 'mtn_momo', payer_phone: '256772123456' });
    const reply = await t.db.db.message.findFirst({ where: { organization_id: org.id, payment_id: paid.payment_id } });
    expect(reply?.received_message).toBe(`MTN MoMo Request to Pay ${id}: UGX 15000 from 256772123456, account ${item.serial_number}`);
    expect(reply?.recipient_number).toBe('256772123456');

    // MTN puts its result again, and the confirmation SMS is forwarded too: still one payment.
    await result(r, answer).expect(200);
    const key = await seedApiKey(t, owner);
    const sms =
      `You have received 15,000 UGX from NAKATO SARAH (256772123456) on your mobile money account at 2026-12-05 10:15:32. ` +
      `Message from sender: ${item.serial_number}. Your new balance: 1,015,000 UGX. Financial Transaction Id: ${id}.`;
    const forwarded = await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms, from: 'MobileMoney' }).expect(200);
    expect(forwarded.body).toMatchObject({ status: 'duplicate', payment_id: paid.payment_id });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, transaction_code: id } })).toBe(1);

    // The staff member who asked is told, once.
    const told = (await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string }[];
    expect(told.filter((n) => n.kind === 'payment_request_answered').map((n) => n.message)).toEqual([
      `The customer paid UGX 15,000 for ${item.serial_number} by MTN MoMo (receipt ${id}): 10 days of credit`,
    ]);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'payment_request.sent' } });
    expect(audit.description).toBe(`${staff.username} asked Nakato Sarah (256772123456) to pay UGX 15000 for ${item.serial_number} by MTN MoMo`);

    // The device's list shows it with the M-Pesa requests.
    const list = ZPaymentRequestsReplySchema.parse((await t.http.get('/payg/payment-requests').query({ serial_number: item.serial_number }).set(staff.auth).expect(200)).body);
    expect(list.data.items.map((i) => [i.provider, i.status])).toEqual([['mtn_momo', 'paid']]);
  });

  it('keeps what MTN answered when the customer does not pay, and what it refused', async () => {
    const { org, staff, item } = await readyOrg();
    const send = async (amount: number) => ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount }).expect(201)).body).data;

    const declined = await send(1000);
    await result(last(), momo.answerOf(last(), 'APPROVAL_REJECTED')).expect(200);
    expect(await request(staff, declined.request_id)).toMatchObject({ status: 'cancelled', result_desc: 'APPROVAL_REJECTED', status_text: 'The customer declined the payment' });

    const poor = await send(2000);
    // MTN may give the reason as {code, message}.
    await result(last(), { ...momo.answerOf(last(), 'x'), reason: { code: 'NOT_ENOUGH_FUNDS', message: 'Payer has insufficient funds' } }).expect(200);
    expect(await request(staff, poor.request_id)).toMatchObject({ status: 'failed', status_text: "The customer's MoMo balance was too low" });
    // An answer after the first is acknowledged and changes nothing.
    await result(last(), momo.answerOf(last())).expect(200);
    expect((await request(staff, poor.request_id)).status).toBe('failed');

    const odd = await send(3000);
    await result(last(), momo.answerOf(last(), 'SOMETHING_NEW')).expect(200);
    expect(await request(staff, odd.request_id)).toMatchObject({ status: 'failed', status_text: 'SOMETHING_NEW' });

    // MTN refuses the request itself: kept as failed, answered 502 with MTN's words.
    momo.refuse = { status: 400, body: { code: 'PAYER_NOT_FOUND', message: 'Payer does not exist' } };
    const refused = await ask(staff, { serial_number: item.serial_number, amount: 500 }).expect(502);
    expect(refused.body.message).toBe('MTN refused the request: PAYER_NOT_FOUND: Payer does not exist');
    const rows = await t.db.db.paymentRequest.findMany({ where: { organization_id: org.id }, orderBy: { id: 'desc' }, take: 1 });
    expect(rows[0]).toMatchObject({ status: 'failed', result_desc: 'MTN refused the request: PAYER_NOT_FOUND: Payer does not exist' });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('asks MTN what became of a request whose result never came, and records a paid one from its answer', async () => {
    const { org, staff, item } = await readyOrg();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 4500 }).expect(201)).body).data;
    const r = last();
    const waiting = await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(staff.auth).expect(200);
    expect(waiting.body.message).toBe('MTN MoMo is still waiting for the customer to approve the payment');
    expect(waiting.body.data.status).toBe('pending');

    const answer = momo.answerOf(r);
    momo.answers.set(r.referenceId, answer);
    const checked = ZPaymentRequestReplySchema.parse((await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(staff.auth).expect(200)).body);
    expect(checked.data).toMatchObject({ status: 'paid', answered_by: 'check', receipt: String(answer.financialTransactionId), payment_outcome: 'processed', days: 3 });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, transaction_code: String(answer.financialTransactionId) } })).toBe(1);
    // The result that comes late changes nothing, and a second check is refused.
    await result(r, answer).expect(200);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
    expect((await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(staff.auth).expect(409)).body.message).toBe(
      `MTN MoMo has already answered this request: Paid, MTN MoMo transaction ${String(answer.financialTransactionId)}: 3 days of credit`,
    );
  });

  it('asks MTN by itself about a request whose result has not come 3 minutes on, and records it paid', async () => {
    const { org, staff, item } = await readyOrg();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 3000 }).expect(201)).body).data;
    const r = last();
    const answer = momo.answerOf(r);
    momo.answers.set(r.referenceId, answer);
    const sweeps = t.app.get(PaymentRequestSweepService);
    // Within its 3 minutes, the request is the customer's to answer.
    await sweeps.sweep();
    expect((await request(staff, sent.request_id)).status).toBe('pending');
    await t.db.pool.query(`UPDATE payment_requests SET created_at = created_at - interval '4 minutes' WHERE request_id = $1`, [sent.request_id]);
    await sweeps.sweep();
    expect(await request(staff, sent.request_id)).toMatchObject({ status: 'paid', answered_by: 'check', receipt: String(answer.financialTransactionId), days: 2 });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, transaction_code: String(answer.financialTransactionId) } })).toBe(1);
    const told = (await t.http.get('/payg/me/notifications').set(staff.auth).expect(200)).body.data.items as { kind: string; message: string; actor: string | null }[];
    expect(told.filter((n) => n.kind === 'payment_request_answered')).toEqual([
      expect.objectContaining({ message: `The customer paid UGX 3,000 for ${item.serial_number} by MTN MoMo (receipt ${String(answer.financialTransactionId)}): 2 days of credit`, actor: null }),
    ]);
  });

  it('refuses bad input and an organization not set up, storing nothing', async () => {
    const { org, staff, item } = await readyOrg();
    const refused = async (body: object, field: string, message: string) => {
      const res = await ask(staff, { serial_number: item.serial_number, amount: 1000, ...body }).expect(400);
      expect(res.body.message).toBe(`${field}: ${message}`);
    };
    await refused({ amount: 1000.5 }, 'amount', 'must be whole UGX (it has no cents)');
    await refused({ amount: 1000.555 }, 'amount', 'must have at most 2 decimals');
    await refused({ phone_number: '+254 712 345 678' }, 'phone_number', 'is not a number in Uganda (+256), where your MTN MoMo is set up');
    await refused({ phone_number: '12' }, 'phone_number', 'is not a phone number');
    await refused({ provider: 'airtel' }, 'provider', 'must be one of mpesa_express, mtn_momo, airtel_money');
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: org.id } })).toBe(0);
    expect(momo.requests.filter((r) => r.body.externalId === item.serial_number)).toHaveLength(0);

    // A number given in full, another Ugandan line: taken.
    await ask(staff, { serial_number: item.serial_number, amount: 1000, phone_number: '+256 701 234 567' }).expect(201);
    expect(last().body.payer).toEqual({ partyIdType: 'MSISDN', partyId: '256701234567' });

    // Not set up: said so.
    const other = await seedTenant(t);
    const { item: theirs } = await seedCustomerWithDevice(t, other.org.id, { customer: { phone_contact: '0772 000 111' } });
    expect((await ask(other.user, { serial_number: theirs.serial_number, amount: 1000 }).expect(409)).body.message).toBe(
      'MTN MoMo is not set up: an owner or admin sets it up in Settings → MTN MoMo',
    );
  });

  it('takes results only at a request\'s own address, and keeps each organization to its own requests', async () => {
    const { staff, item } = await readyOrg();
    const sent = ZPaymentRequestReplySchema.parse((await ask(staff, { serial_number: item.serial_number, amount: 1000 }).expect(201)).body).data;
    const r = last();
    await t.http.put('/payg/external/mtn-momo/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').send(momo.answerOf(r)).expect(404);
    expect((await result(r, { status: 'WHATEVER' }).expect(400)).body.message).toBe('status: must be SUCCESSFUL, FAILED or PENDING');
    expect((await result(r, { status: 'SUCCESSFUL', amount: '1000', currency: 'UGX' }).expect(400)).body.message).toBe(
      'financialTransactionId: is required for a SUCCESSFUL payment',
    );
    await result(r, { status: 'PENDING' }).expect(200);
    // MTN's M-Pesa-shaped twin cannot answer it either: each provider's results come to its own path.
    await t.http.post(`/payg/external/mpesa-express/${new URL(r.callbackUrl).pathname.split('/').pop()}`).send({ Body: { stkCallback: { CheckoutRequestID: 'x', ResultCode: 1032 } } }).expect(404);
    expect((await request(staff, sent.request_id)).status).toBe('pending');

    // POST is taken like PUT.
    await t.http.post(new URL(r.callbackUrl).pathname).send(momo.answerOf(r, 'EXPIRED')).expect(200);
    expect(await request(staff, sent.request_id)).toMatchObject({ status: 'failed', status_text: 'The prompt expired before the customer answered' });

    const other = await seedTenant(t);
    await t.http.get(`/payg/payment-requests/${sent.request_id}`).set(other.user.auth).expect(404);
    await t.http.post(`/payg/payment-requests/${sent.request_id}/check`).set(other.user.auth).expect(404);
    const theirs = (await t.http.get('/payg/settings/mtn-momo').set(other.user.auth).expect(200)).body;
    expect(theirs).toMatchObject({ configured: false });
  });
});
