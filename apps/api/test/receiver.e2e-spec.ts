import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Prisma } from '../src/generated/prisma/client.js';
import { Device } from '@kidogo/openpaygo';
import { ZApiKeyReplySchema, ZReceiveReplySchema, ZServiceBlockedSchema } from '@kidogo/contracts';
import { REPO_ROOT } from '../src/config/config.js';
import { ReceiverService } from '../src/receiver/receiver.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  mpesaPaybillSms,
  seedApiKey,
  seedCustomer,
  seedCustomerWithDevice,
  seedItem,
  seedTenant,
  seedUser,
  mpesaCode,
} from './support/factories.js';

const FIXTURES = resolve(REPO_ROOT, 'packages/mobile-money/test/fixtures');
const expected = JSON.parse(readFileSync(resolve(FIXTURES, 'sms-expected.json'), 'utf8')) as {
  payments: { file: string; expected: Record<string, string | null> }[];
  rejected: { file: string; error_contains: string }[];
};
const fixture = (file: string) => readFileSync(resolve(FIXTURES, 'sms', file), 'utf8');

/** A fresh M-Pesa-like transaction code. */
const code = () => mpesaCode('T');
const NOW = new Date();
/** A plan where every 50 shillings buys a day and the first payment activates. */
const SIMPLE_PLAN = { daily_price: '50.00', deposit_made: '0', activation_price: '0', grace_period_days: 0 };

describe('the mobile-money receiver', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const receive = (key: Record<string, string>, body: Record<string, unknown>) => t.http.post('/payg/external/receive-phoneteletalk').set(key).send(body);

  it('parses every fixture text to the right fields and stores it, never dropping an unreadable one', async () => {
    for (const f of expected.payments) {
      const { user, org } = await seedTenant(t);
      const key = await seedApiKey(t, user);
      const text = fixture(f.file);
      const res = await receive(key, { message: text, from: 'MPESA', timestamp: '1717571700000' }).expect(200);
      const reply = ZReceiveReplySchema.parse(res.body);
      // No device in this organization: recorded, waiting for a match.
      expect({ file: f.file, status: reply.status }).toEqual({ file: f.file, status: 'unmatched' });
      const payment = await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id } });
      const e = f.expected;
      expect({
        file: f.file,
        transaction_code: payment.transaction_code,
        amount: payment.amount.toFixed(2),
        currency: payment.currency,
        payer_phone: payment.payer_phone,
        payer_name: payment.payer_name,
        account_reference: payment.account_reference,
        status: payment.status,
      }).toEqual({
        file: f.file,
        transaction_code: e.transaction_code,
        amount: e.amount,
        currency: e.currency,
        payer_phone: e.sender_phone ?? null,
        payer_name: e.sender_name ?? null,
        account_reference: e.account_reference ?? null,
        status: 'pending',
      });
      if (e.transacted_at && e.transacted_at.length > 10) expect(payment.paid_at.toISOString()).toBe(new Date(e.transacted_at).toISOString());
      const message = await t.db.db.message.findFirstOrThrow({ where: { organization_id: org.id } });
      expect(message).toMatchObject({ id: reply.message_id, status: 'unmatched', received_message: text.trim(), sender: 'MPESA', transaction_code: e.transaction_code, payment_id: payment.id });
      expect((message.result as { parsed: Record<string, unknown> }).parsed).toMatchObject(e);
      expect(message.raw_payload).toEqual({ message: text, from: 'MPESA', timestamp: '1717571700000' });
      expect(message.received_at.toISOString()).toBe('2024-06-05T07:15:00.000Z');
    }
    for (const f of expected.rejected) {
      const { user, org } = await seedTenant(t);
      const key = await seedApiKey(t, user);
      const res = await receive(key, { text: fixture(f.file), sender: 'MPESA' }).expect(200);
      const reply = ZReceiveReplySchema.parse(res.body);
      expect({ file: f.file, status: reply.status }).toEqual({ file: f.file, status: 'unparsed' });
      expect(reply.error).toContain(f.error_contains);
      const message = await t.db.db.message.findFirstOrThrow({ where: { organization_id: org.id } });
      expect(message.status).toBe('unparsed');
      expect(message.parse_error).toContain(f.error_contains);
      expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
    }
  });

  it('turns a paybill payment into a token the device accepts for the days bought, and queues the reply on the same message', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item, customer } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const txCode = code();
    const sms = mpesaPaybillSms({ code: txCode, amount: '500.00', account: item.serial_number.toLowerCase(), phone: '254711000111' });
    const reply = ZReceiveReplySchema.parse((await receive(key, { message: sms, from: 'MPESA' }).expect(200)).body);
    expect(reply).toMatchObject({ status: 'processed', days: 10, reason: 'activated', serial_number: item.serial_number, transaction_code: txCode, amount: '500.00', credit: '0.00' });
    const device = new Device({ secretKey: item.secret.secretKey, startingCode: item.secret.startingCode }, 0);
    expect(device.enterToken(reply.token!, NOW)).toMatchObject({ status: 'VALID', days: 10 });

    const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.payment_id! } } });
    expect(payment).toMatchObject({ status: 'completed', item_id: item.id, customer_id: customer.id, days_bought: 10, source: 'sms', message_id: reply.message_id });
    const message = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.message_id } } });
    expect(message).toMatchObject({ status: 'processed', delivery_status: 'queued', recipient_number: '254711000111', payment_id: payment.id, item_id: item.id });
    expect(message.amount!.toFixed(2)).toBe('500.00');
    const grouped = reply.token!.replace(/(\d{3})(?=\d)/g, '$1 ');
    expect(message.forwarded_message).toContain(`Code: ${grouped} (10 days)`);
    expect(message.forwarded_message).toContain(`Hi Customer, payment of KES 500.00 received for device ${item.serial_number}. Your device is activated.`);
    expect(reply.reply_message).toBe(message.forwarded_message);
    const log = await t.db.db.tokenLog.findFirstOrThrow({ where: { organization_id: org.id, payment_id: payment.id } });
    expect(log).toMatchObject({ token_type: 'activation', generated_by: 'system', token_value: reply.token });
  });

  it('accepts form-encoded forwarder bodies and Daraja C2B confirmations', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const form = await t.http
      .post('/payg/external/receive-phoneteletalk')
      .set(key)
      .type('form')
      .send({ text: mpesaPaybillSms({ code: code(), amount: '100.00', account: item.serial_number }), from: 'MPESA', sentStamp: '1717571700' })
      .expect(200);
    expect(ZReceiveReplySchema.parse(form.body)).toMatchObject({ status: 'processed', days: 2 });

    const transId = code();
    const daraja = {
      TransactionType: 'Pay Bill',
      TransID: transId,
      TransTime: '20240605101500',
      TransAmount: '150.00',
      BusinessShortCode: '600638',
      BillRefNumber: ` ${item.serial_number} `,
      InvoiceNumber: '',
      OrgAccountBalance: '49197.00',
      ThirdPartyTransID: '',
      MSISDN: '254708374149',
      FirstName: 'JANE',
      MiddleName: '',
      LastName: 'DOE',
    };
    const reply = ZReceiveReplySchema.parse((await receive(key, daraja).expect(200)).body);
    expect(reply).toMatchObject({ status: 'processed', days: 3, transaction_code: transId });
    const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.payment_id! } } });
    expect(payment).toMatchObject({ source: 'daraja', payer_phone: '254708374149', payer_name: 'JANE DOE', account_reference: item.serial_number });
    expect(payment.paid_at.toISOString()).toBe('2024-06-05T07:15:00.000Z');
    const message = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.message_id } } });
    expect(message.received_message).toContain(transId);
    expect(message.recipient_number).toBe('254708374149');
  });

  it('records 20 concurrent deliveries of one payment once: one payment, one token, one outgoing message; the others answer duplicate', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const sms = mpesaPaybillSms({ code: code(), amount: '250.00', account: item.serial_number });
    const replies = await Promise.all(Array.from({ length: 20 }, () => receive(key, { message: sms, from: 'MPESA' })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = replies.map((r) => ZReceiveReplySchema.parse(r.body));
    expect(bodies.filter((b) => b.status === 'processed')).toHaveLength(1);
    expect(bodies.filter((b) => b.status === 'duplicate')).toHaveLength(19);
    const original = bodies.find((b) => b.status === 'processed')!;
    for (const b of bodies) expect({ payment_id: b.payment_id, token: b.token, days: b.days }).toEqual({ payment_id: original.payment_id, token: original.token, days: 5 });
    expect(new Set(bodies.map((b) => b.message_id)).size).toBe(20);

    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
    expect(await t.db.db.message.count({ where: { organization_id: org.id, forwarded_message: { not: null } } })).toBe(1);
    expect(await t.db.db.message.count({ where: { organization_id: org.id, delivery_status: 'queued' } })).toBe(1);
    expect(await t.db.db.message.count({ where: { organization_id: org.id, status: 'duplicate' } })).toBe(19);
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect(device.total_paid.toFixed(2)).toBe('250.00');

    // A later delivery still answers duplicate with the original result.
    const later = ZReceiveReplySchema.parse((await receive(key, { message: sms }).expect(200)).body);
    expect(later).toMatchObject({ status: 'duplicate', payment_id: original.payment_id, token: original.token, days: 5, reply_message: original.reply_message });
  });

  it('matches by serial, by a customer\'s ID number or phone in the account, and by the payer\'s phone when there is no account', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const byId = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const r1 = ZReceiveReplySchema.parse((await receive(key, { message: mpesaPaybillSms({ code: code(), amount: '50.00', account: byId.customer.id_number }) })).body);
    expect(r1).toMatchObject({ status: 'processed', serial_number: byId.item.serial_number });

    const byPhone = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const local = byPhone.customer.phone_contact; // 07XXXXXXXX
    const r2 = ZReceiveReplySchema.parse((await receive(key, { message: mpesaPaybillSms({ code: code(), amount: '50.00', account: local }) })).body);
    expect(r2).toMatchObject({ status: 'processed', serial_number: byPhone.item.serial_number });

    // A till payment (no account): the payer's phone, in any of its forms.
    const payer = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const intl = payer.customer.phone_normalized!;
    const till = `${code()} Confirmed.on 21/2/22 at 11:05 AMKsh100.00 received from ${intl} faith chebet. New Account balance is Ksh3,420.00. Transaction cost, Ksh0.00.`;
    const r3 = ZReceiveReplySchema.parse((await receive(key, { message: till })).body);
    expect(r3).toMatchObject({ status: 'processed', serial_number: payer.item.serial_number, days: 2 });

    // A customer with two devices cannot be matched by ID number: kept as unmatched.
    const two = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    await seedItem(t, org.id, { customer_id: two.customer.id });
    const r4 = ZReceiveReplySchema.parse((await receive(key, { message: mpesaPaybillSms({ code: code(), amount: '50.00', account: two.customer.id_number }) })).body);
    expect(r4.status).toBe('unmatched');
    // An unknown reference too; the payment waits as pending.
    const r5 = ZReceiveReplySchema.parse((await receive(key, { message: mpesaPaybillSms({ code: code(), amount: '70.00', account: 'NOBODY-1' }) })).body);
    expect(r5).toMatchObject({ status: 'unmatched', amount: '70.00' });
    const pending = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: r5.payment_id! } } });
    expect(pending).toMatchObject({ status: 'pending', item_id: null });
    const m = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: r5.message_id } } });
    expect(m).toMatchObject({ status: 'unmatched', delivery_status: 'none', forwarded_message: null });
    // Retired devices take no payments.
    const retired = await seedItem(t, org.id, { status: 'retired' });
    const r6 = ZReceiveReplySchema.parse((await receive(key, { message: mpesaPaybillSms({ code: code(), amount: '50.00', account: retired.serial_number }) })).body);
    expect(r6.status).toBe('unmatched');
  });

  it('stores unreadable bodies as unparsed with the reason, and refuses a body that is not an object', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const r1 = ZReceiveReplySchema.parse((await receive(key, { message: 'Hello, please call me back' }).expect(200)).body);
    expect(r1).toMatchObject({ status: 'unparsed' });
    const r2 = ZReceiveReplySchema.parse((await receive(key, { foo: 'bar' }).expect(200)).body);
    expect(r2.status).toBe('unparsed');
    expect(r2.error).toMatch(/No message text found/);
    const rows = await t.db.db.message.findMany({ where: { organization_id: org.id }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.status, Boolean(r.parse_error)])).toEqual([
      ['unparsed', true],
      ['unparsed', true],
    ]);
    expect(rows[1]!.raw_payload).toEqual({ foo: 'bar' });
    await t.http.post('/payg/external/receive-phoneteletalk').set(key).set('Content-Type', 'application/json').send('[1,2]').expect(400);
  });

  it('never reads a balance as the payment: a confirmation with no amount, or a negative one, issues nothing', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const balanceOnly = `SNOAMT34EF Confirmed. Payment received from AUDIT TWO 254722118698 on 24/11/26 at 10:15 AM. Account Number ${item.serial_number}. New Utility balance is Ksh45,300.00.`;
    const noAmount = ZReceiveReplySchema.parse((await receive(key, { message: balanceOnly }).expect(200)).body);
    expect(noAmount).toMatchObject({ status: 'unparsed' });
    expect(noAmount.error).toMatch(/No amount found next to 'received'/);
    const negative = ZReceiveReplySchema.parse(
      (await receive(key, { message: `SNEG1234AB Confirmed. Ksh-400.00 received from AUDIT TWO 254722118698 on 24/11/26 at 10:16 AM. Account Number ${item.serial_number}. New Utility balance is Ksh45,300.00.` }).expect(200)).body,
    );
    expect(negative).toMatchObject({ status: 'unparsed', error: 'Amount is negative' });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(0);
    const device = await t.db.db.item.findFirstOrThrow({ where: { organization_id: org.id, serial_number: item.serial_number } });
    expect(device.paid_off_at).toBeNull();
  });

  it('holds a confirmation texted from a phone number for staff instead of unlocking the device it names', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const forged = mpesaPaybillSms({ code: code(), amount: '9000.00', account: item.serial_number });
    const held = ZReceiveReplySchema.parse((await receive(key, { from: '+254 799 123456', message: forged }).expect(200)).body);
    expect(held).toMatchObject({ status: 'unmatched', hold_reason: 'Sent from the phone number +254 799 123456, not by a mobile-money service: held until staff match it' });
    expect(held.token).toBeUndefined();
    const payment = await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id } });
    expect([payment.status, payment.item_id]).toEqual(['pending', null]);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(0);
    const message = await t.db.db.message.findFirstOrThrow({ where: { organization_id: org.id, id: held.message_id } });
    expect([message.status, message.forwarded_message]).toEqual(['unmatched', null]);
    // The Messages page says why, as it does for a text it could not read.
    await receive(key, { from: 'MPESA', message: 'Hello, please call me back' }).expect(200);
    const listed = (await t.http.get('/payg/fetch_messages').set(user.auth).expect(200)).body.data as { id: number; status: string; note: string | null }[];
    expect(listed.map((m) => [m.status, m.note])).toEqual([
      ['unparsed', 'No transaction code found'],
      ['unmatched', held.hold_reason],
    ]);
    // Staff who find it on the statement apply it like any pending payment.
    const matched = (await t.http.post(`/payg/payments/${held.payment_id}/match`).set(user.auth).send({ serial_number: item.serial_number }).expect(200)).body;
    expect(matched.status).toBe('processed');
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBeGreaterThan(0);
    // The service's own sender IDs, and a forwarder that names no sender, are taken as before.
    for (const from of ['MPESA', 'M-PESA', 'AirtelMoney', undefined]) {
      const sms = mpesaPaybillSms({ code: code(), amount: '50.00', account: item.serial_number });
      const reply = ZReceiveReplySchema.parse((await receive(key, { ...(from ? { from } : {}), message: sms }).expect(200)).body);
      expect({ from, status: reply.status, hold: reply.hold_reason }).toEqual({ from, status: 'processed', hold: undefined });
    }
  });

  it('holds money sent for a device nobody has, and refuses to apply any payment to one until it is assigned', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const free = await seedItem(t, org.id);
    const sms = mpesaPaybillSms({ code: code(), amount: '500.00', account: free.serial_number });
    const held = ZReceiveReplySchema.parse((await receive(key, { from: 'MPESA', message: sms }).expect(200)).body);
    expect(held).toMatchObject({ status: 'unmatched', hold_reason: `Device ${free.serial_number} is not assigned to a customer: held until staff match it` });
    const refused = `Device ${free.serial_number} is not assigned to a customer: assign it before applying a payment to it`;
    expect((await t.http.post(`/payg/payments/${held.payment_id}/match`).set(user.auth).send({ serial_number: free.serial_number }).expect(409)).body.message).toBe(refused);
    expect((await t.http.post('/payg/payments').set(user.auth).send({ serial_number: free.serial_number, amount: 500, payment_method: 'cash' }).expect(409)).body.message).toBe(refused);
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: free.id } } });
    expect(device.total_paid.toFixed(2)).toBe('0.00');
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, status: 'pending' } })).toBe(1);
  });

  it('holds money in another currency than the plan instead of reading it at face value', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: customer.id } },
      data: { phone_contact: '+256743706731', phone_normalized: '256743706731' },
    });
    // 27,200 Ugandan shillings (about 950 Kenyan): read as KES 27,200 it would have paid the device off.
    const text = 'RECEIVED. TID 149730678579. UGX 27,200 from 743706731, JANE AKELLO. Bal UGX 332,358.';
    const held = ZReceiveReplySchema.parse((await receive(key, { from: 'AirtelMoney', message: text }).expect(200)).body);
    const reason = `Paid in UGX, but the plan of device ${item.serial_number} is in KES`;
    expect(held).toMatchObject({ status: 'unmatched', hold_reason: `${reason}: held until staff match it` });
    expect(held.token).toBeUndefined();
    const payment = await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id } });
    expect([payment.status, payment.currency, payment.amount.toFixed(2), payment.item_id]).toEqual(['pending', 'UGX', '27200.00', null]);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(0);
    const refused = await t.http.post(`/payg/payments/${held.payment_id}/match`).set(user.auth).send({ serial_number: item.serial_number }).expect(409);
    expect(refused.body.message).toBe(`${reason}: it cannot be applied to it; record what it is worth in KES as a staff payment`);
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect([device.total_paid.toFixed(2), device.credit.toFixed(2)]).toEqual(['0.00', '0.00']);
    // Shillings of the plan's own currency are applied as before.
    const kes = ZReceiveReplySchema.parse((await receive(key, { from: 'MPESA', message: mpesaPaybillSms({ code: code(), amount: '100.00', account: item.serial_number }) }).expect(200)).body);
    expect([kes.status, kes.days]).toEqual(['processed', 2]);
  });

  it('answers 401 to a missing or wrong key and stores nothing; a rotated key stops working at once', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const before = await t.db.platform.message.count();
    const sms = mpesaPaybillSms({ code: code(), amount: '50.00', account: 'X' });
    const none = await t.http.post('/payg/external/receive-phoneteletalk').send({ message: sms }).expect(401);
    expect(none.body.detail).toMatch(/Missing API key/);
    await t.http.post('/payg/external/receive-phoneteletalk').set('X-API-Key', 'kdg_wrong').send({ message: sms }).expect(401);
    await t.http.post('/payg/external/receive-phoneteletalk').set('X-API-Key', key['X-API-Key'] + 'x').send({ message: sms }).expect(401);
    // A user's bearer token is not a gateway key.
    await t.http.post('/payg/external/receive-phoneteletalk').set(user.auth).send({ message: sms }).expect(401);
    expect(await t.db.platform.message.count()).toBe(before);

    const rotated = ZApiKeyReplySchema.parse((await t.http.post('/payg/settings/api-key/rotate').set(user.auth).expect(200)).body);
    expect(rotated.api_key).not.toBe(key['X-API-Key']);
    await receive(key, { message: sms }).expect(401);
    expect(await t.db.platform.message.count()).toBe(before);
    await receive({ 'X-API-Key': rotated.api_key }, { message: sms }).expect(200);
    expect(await t.db.db.message.count({ where: { organization_id: org.id } })).toBe(1);
    // Reading it again shows the new key.
    expect((await t.http.get('/payg/settings/api-key').set(user.auth).expect(200)).body.api_key).toBe(rotated.api_key);
  });

  it('gives the key to owners and admins only, creates it once, and blocks a suspended organization\'s key with the 403 body', async () => {
    const { user, org } = await seedTenant(t);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.get('/payg/settings/api-key').set(staff.auth).expect(403);
    await t.http.post('/payg/settings/api-key/rotate').set(staff.auth).expect(403);
    const [a, b] = await Promise.all([
      t.http.get('/payg/settings/api-key').set(user.auth).expect(200),
      t.http.get('/payg/settings/api-key').set(admin.auth).expect(200),
    ]);
    expect(a.body.api_key).toBe(b.body.api_key);
    expect(a.body.api_key).toMatch(/^kdg_[A-Za-z0-9_-]{43}$/);
    const row = await t.db.platform.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.api_key_enc).not.toContain(a.body.api_key);

    await t.db.platform.organization.update({ where: { id: org.id }, data: { status: 'suspended', disabled_reason: 'unpaid invoice', status_changed_at: new Date() } });
    const blocked = await receive({ 'X-API-Key': a.body.api_key }, { message: 'anything' }).expect(403);
    expect(ZServiceBlockedSchema.parse(blocked.body).detail).toMatchObject({ error: 'SERVICE_SUSPENDED', reason: 'unpaid invoice' });
    await t.http.get('/payg/external/odyssey/customers').set({ 'X-API-Key': a.body.api_key }).expect(403);
    await t.http.get('/payg/settings/api-key').set(user.auth).expect(403);
    expect(await t.db.db.message.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('keeps organizations apart: a key only ever records into its own organization', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const keyA = await seedApiKey(t, a.user);
    const keyB = await seedApiKey(t, b.user);
    const { item } = await seedCustomerWithDevice(t, a.org.id, { template: SIMPLE_PLAN });
    const sms = mpesaPaybillSms({ code: code(), amount: '100.00', account: item.serial_number });
    // B's gateway forwards a payment naming A's device: B keeps it unmatched, A's device is untouched.
    const inB = ZReceiveReplySchema.parse((await receive(keyB, { message: sms }).expect(200)).body);
    expect(inB.status).toBe('unmatched');
    const untouched = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: a.org.id, id: item.id } } });
    expect(untouched.total_paid.toFixed(2)).toBe('0.00');
    expect(untouched.token_count).toBe(0);
    // The same transaction code in A is A's own first delivery, not a duplicate of B's.
    const inA = ZReceiveReplySchema.parse((await receive(keyA, { message: sms }).expect(200)).body);
    expect(inA.status).toBe('processed');
    expect(inA.payment_id).not.toBe(inB.payment_id);
    // B cannot match its pending payment to A's device.
    await t.http.post(`/payg/payments/${inB.payment_id}/match`).set(b.user.auth).send({ serial_number: item.serial_number }).expect(404);
    // Nor can A reach B's pending payment by id.
    await t.http.post(`/payg/payments/${inB.payment_id}/match`).set(a.user.auth).send({ serial_number: item.serial_number }).expect(404);
    expect(await t.db.db.payment.count({ where: { organization_id: a.org.id } })).toBe(1);
    expect(await t.db.db.payment.count({ where: { organization_id: b.org.id, status: 'pending' } })).toBe(1);

    // Each organization has its own key; B rotating its key leaves A's working.
    expect(keyA['X-API-Key']).not.toBe(keyB['X-API-Key']);
    expect((await t.http.get('/payg/settings/api-key').set(b.user.auth).expect(200)).body.api_key).toBe(keyB['X-API-Key']);
    await t.http.post('/payg/settings/api-key/rotate').set(b.user.auth).expect(200);
    await receive(keyB, { message: 'x' }).expect(401);
    const stillA = ZReceiveReplySchema.parse((await receive(keyA, { message: sms }).expect(200)).body);
    expect(stillA).toMatchObject({ status: 'duplicate', payment_id: inA.payment_id });
  });

  it('stores a request raw, in its own commit, before processing it, and leaves nothing raw behind once answered', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const body = { message: mpesaPaybillSms({ code: code(), amount: '200.00', account: item.serial_number }), from: 'MPESA' };
    // Hold the device: processing waits for it, the raw request must already be committed.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.db.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM items WHERE organization_id = ${org.id} AND item_id = ${item.id}::int FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 30_000 },
    );
    await isLocked;
    const pending = receive(key, body).then((r) => r);
    let raw: { message_id: number; raw_payload: unknown }[] = [];
    for (let i = 0; i < 100 && raw.length === 0; i++) {
      raw = await t.db.db.$queryRaw`SELECT message_id, raw_payload FROM inbound_requests WHERE organization_id = ${org.id}`;
      if (!raw.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(raw).toHaveLength(1);
    expect(raw[0]!.raw_payload).toEqual(body);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
    release();
    await holder;
    const reply = ZReceiveReplySchema.parse((await pending).body);
    expect(reply).toMatchObject({ status: 'processed', message_id: raw[0]!.message_id });
    expect(await t.db.db.$queryRaw`SELECT 1 FROM inbound_requests WHERE organization_id = ${org.id}`).toEqual([]);
    const message = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.message_id } } });
    expect(message).toMatchObject({ status: 'processed', raw_payload: body, received_message: body.message, delivery_status: 'queued' });
    // That commit skipped the wait for the disk for itself alone: no pooled connection keeps synchronous_commit off.
    const settings = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.db.query<{ setting: string }>(Prisma.sql`SELECT current_setting('synchronous_commit') AS setting FROM pg_sleep(0.02)`),
      ),
    );
    expect(new Set(settings.map(([row]) => row!.setting))).toEqual(new Set(['on']));
  });

  it('turns a raw request a crash left behind into a message and records it once', async () => {
    const { user, org } = await seedTenant(t);
    await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const body = { message: mpesaPaybillSms({ code: code(), amount: '200.00', account: item.serial_number }), from: 'MPESA' };
    const leave = (age: number) =>
      t.db.db.$queryRaw<{ message_id: number }[]>`
        INSERT INTO inbound_requests (message_id, organization_id, raw_payload, received_message, sender, created_at)
        VALUES (nextval(pg_get_serial_sequence('messages', 'message_id'))::int, ${org.id}, ${JSON.stringify(body)}::jsonb, ${body.message},
                'MPESA', ${new Date(Date.now() - age)})
        RETURNING message_id`;
    const [left] = await leave(5 * 60_000);
    const [fresh] = await leave(0);
    expect(await t.app.get(ReceiverService).recover()).toBeGreaterThanOrEqual(1);
    const row = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: left!.message_id } } });
    expect(row).toMatchObject({ status: 'processed', delivery_status: 'queued', raw_payload: body });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, message_id: left!.message_id } })).toBe(1);
    // A request that may still be in flight in another process is left alone.
    const rawLeft = await t.db.db.$queryRaw<{ message_id: number }[]>`SELECT message_id FROM inbound_requests WHERE organization_id = ${org.id}`;
    expect(rawLeft.map((r) => r.message_id)).toEqual([fresh!.message_id]);
  });

  it('reprocesses a message a crash left in status received', async () => {
    const { user, org } = await seedTenant(t);
    await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const body = { message: mpesaPaybillSms({ code: code(), amount: '200.00', account: item.serial_number }), from: 'MPESA' };
    const left = await t.db.db.message.create({
      data: { organization_id: org.id, raw_payload: body, received_message: body.message, status: 'received', created_at: new Date(Date.now() - 5 * 60_000) },
    });
    const fresh = await t.db.db.message.create({ data: { organization_id: org.id, raw_payload: body, status: 'received' } });
    const recovered = await t.app.get(ReceiverService).recover();
    expect(recovered).toBeGreaterThanOrEqual(1);
    const row = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: left.id } } });
    expect(row).toMatchObject({ status: 'processed', delivery_status: 'queued' });
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
    // A message that may still be in flight in another request is left alone.
    const still = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: fresh.id } } });
    expect(still.status).toBe('received');
  });

  it('keeps a message whose processing failed, answers the error, and records it once the sweep can', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    // A device whose sealed factory data cannot be opened: making its token fails mid-transaction.
    const sealed = { secret_key_enc: item.secret_key_enc, starting_code_enc: item.starting_code_enc };
    const where = { organization_id_id: { organization_id: org.id, id: item.id } };
    await t.db.db.item.update({ where, data: { secret_key_enc: 'not-a-sealed-value' } });
    const body = { message: mpesaPaybillSms({ code: code(), amount: '100.00', account: item.serial_number }), from: 'MPESA' };
    const res = await receive(key, body);
    expect(res.status).toBeGreaterThanOrEqual(500);
    // Nothing of the payment was written, but the message is kept, waiting.
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
    const kept = await t.db.db.message.findMany({ where: { organization_id: org.id } });
    expect(kept.map((m) => m.status)).toEqual(['received']);
    expect(kept[0]!.raw_payload).toEqual(body);
    // Once the device is repaired, the sweep (here by hand, the message made older than a minute) records it once.
    await t.db.db.item.update({ where, data: sealed });
    await t.db.db.message.update({ where: { organization_id_id: { organization_id: org.id, id: kept[0]!.id } }, data: { created_at: new Date(Date.now() - 5 * 60_000) } });
    expect(await t.app.get(ReceiverService).recover()).toBeGreaterThanOrEqual(1);
    expect(await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: kept[0]!.id } } })).toMatchObject({
      status: 'processed',
      delivery_status: 'queued',
    });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id, status: 'completed', message_id: kept[0]!.id } })).toBe(1);
    // The gateway sending it again meanwhile gets the first result, not a second payment.
    const again = ZReceiveReplySchema.parse((await receive(key, body).expect(200)).body);
    expect(again.status).toBe('duplicate');
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
  });

  it('documents the accepted bodies and the key in the OpenAPI document', async () => {
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { description?: string; security?: unknown[]; requestBody?: { content: Record<string, unknown> } }>>;
    };
    const op = doc.paths['/payg/external/receive-phoneteletalk']!.post!;
    expect(op.description).toMatch(/X-API-Key/);
    expect(op.description).toMatch(/TransID, TransTime/);
    expect(op.description).toMatch(/sentStamp/);
    expect(Object.keys(op.requestBody!.content)).toEqual(expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded']));
    expect(op.security).toEqual([{ 'api-key': [] }]);
    for (const path of ['/payg/generate-token-by-days', '/payg/payments', '/payg/fetch_messages', '/payg/settings/api-key', '/payg/external/odyssey/customers', '/payg/reports/upload-csv']) {
      expect(doc.paths[path]).toBeDefined();
    }
  });

  it('finds a customer whose phone is stored in any form', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const customer = await seedCustomer(t, org.id, { phone_contact: '+254 733 444 555' });
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: customer.id } }, data: { phone_normalized: '254733444555' } });
    const item = await seedItem(t, org.id, { customer_id: customer.id });
    const reply = ZReceiveReplySchema.parse((await receive(key, { message: mpesaPaybillSms({ code: code(), amount: '10.00', account: '0733-444-555' }) })).body);
    // Matched, though without a payment plan the money is held as credit.
    expect(reply).toMatchObject({ status: 'processed', serial_number: item.serial_number, reason: 'no_template', credit: '10.00' });
    expect(reply.tokens).toEqual([]);
  });
});

describe('the time of a forwarded SMS, outside East Africa', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TIME_ZONE: 'Africa/Lusaka' } });
  });
  afterAll(() => t.close());

  it("reads an SMS's clock in TIME_ZONE (Lusaka, UTC+2), and Daraja's TransTime as East Africa Time", async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const paidAt = async (body: Record<string, unknown>) => {
      const reply = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send(body).expect(200)).body);
      const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.payment_id! } } });
      return payment.paid_at.toISOString();
    };
    // "on 5/6/24 at 10:15 AM" on a Zambian phone is 08:15 UTC, not Nairobi's 07:15.
    expect(await paidAt({ message: mpesaPaybillSms({ code: code(), amount: '100.00', account: item.serial_number }), from: 'MPESA' })).toBe(
      '2024-06-05T08:15:00.000Z',
    );
    expect(
      await paidAt({
        TransactionType: 'Pay Bill',
        TransID: code(),
        TransTime: '20240605101500',
        TransAmount: '100.00',
        BusinessShortCode: '600638',
        BillRefNumber: item.serial_number,
        MSISDN: '254708374149',
        FirstName: 'JANE',
      }),
    ).toBe('2024-06-05T07:15:00.000Z');
  });
});
