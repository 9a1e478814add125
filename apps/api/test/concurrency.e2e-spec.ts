import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import { ZReceiveReplySchema, ZTokenReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  DEFAULT_PASSWORD,
  mpesaPaybillSms,
  seedApiKey,
  seedCustomer,
  seedCustomerWithDevice,
  seedItem,
  seedTemplate,
  seedTenant,
  seedUser,
} from './support/factories.js';
import { receipt } from './support/world.js';

/**
 * What must hold when many requests arrive at once: every guarantee that
 * depends on a row lock, a unique key or a single-statement update, in one
 * place. Each burst is sent truly in parallel over separate connections.
 */
const SIMPLE_PLAN = { daily_price: '50.00', deposit_made: '0', activation_price: '0', grace_period_days: 0 };
const NOW = new Date('2026-01-01T00:00:00Z');
const burst = <T>(n: number, f: (i: number) => PromiseLike<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

describe('concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_POOL_SIZE: '10' } });
  });
  afterAll(() => t.close());

  const tokens = (org: string, item: number) => t.db.db.tokenLog.findMany({ where: { organization_id: org, item_id: item }, orderBy: { token_count: 'asc' } });
  const device = (org: string, id: number) => t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org, id } } });

  it('50 parallel token generations for one device: 50 distinct counts, no gap, 50 log rows, all accepted by the device', async () => {
    const { user, org } = await seedTenant(t);
    const item = await seedItem(t, org.id);
    const replies = await burst(50, () =>
      t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 1 }),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
    const counts = replies.map((r) => ZTokenReplySchema.parse(r.body).token_count).sort((a, b) => a - b);
    // add_time tokens use even counts: 2, 4, ..., 100, each once.
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => 2 * (i + 1)));
    const logs = await tokens(org.id, item.id);
    expect(logs.map((l) => l.token_count)).toEqual(counts);
    expect((await device(org.id, item.id)).token_count).toBe(100);
    const sim = new Device({ secretKey: item.secret.secretKey, startingCode: item.secret.startingCode, restrictedDigitSet: false, extendedToken: false, valueDivider: 1 }, 0);
    for (const log of logs) expect(sim.enterToken(log.token_value, NOW).status).toBe('VALID');
  });

  it('20 parallel deliveries of one payment: one payment, one token, one outgoing message', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const sms = mpesaPaybillSms({ code: receipt(), amount: '250.00', account: item.serial_number });
    const replies = await burst(20, () => t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from: 'MPESA', message: sms }));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = replies.map((r) => ZReceiveReplySchema.parse(r.body));
    expect(bodies.filter((b) => b.status === 'processed')).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.payment_id))).toEqual(new Set([bodies[0]!.payment_id]));
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
    expect(await t.db.db.message.count({ where: { organization_id: org.id, forwarded_message: { not: null } } })).toBe(1);
    expect((await device(org.id, item.id)).total_paid.toFixed(2)).toBe('250.00');
  });

  it('one payment arriving at once as SMS, as a Daraja callback, as a staff entry and in a statement: recorded once', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    const code = receipt();
    const daraja = {
      TransactionType: 'Pay Bill',
      TransID: code,
      TransTime: '20240605101500',
      TransAmount: '150.00',
      BusinessShortCode: '600638',
      BillRefNumber: item.serial_number,
      MSISDN: '254708374149',
      FirstName: 'JANE',
    };
    const statement = [
      'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.',
      [code, '2024-06-05 10:15:00', '2024-06-05 10:15:00', 'Pay Bill Online', 'Completed', '150.00', '', '1000.00', 'true', 'Pay Bill Online', '254708374149 - JANE', '', item.serial_number].join(','),
    ].join('\n');
    const receiver = (body: object) => t.http.post('/payg/external/receive-phoneteletalk').set(key).send(body);
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => receiver({ from: 'MPESA', message: mpesaPaybillSms({ code, amount: '150.00', account: item.serial_number }) })),
      ...Array.from({ length: 5 }, () => receiver(daraja)),
      ...Array.from({ length: 3 }, () => t.http.post('/payg/reports/upload-csv').set(user.auth).attach('file', Buffer.from(statement), 'statement.csv')),
      ...Array.from({ length: 3 }, () =>
        t.http.post('/payg/payments').set(user.auth).send({ serial_number: item.serial_number, amount: 150, payment_method: 'mobile_money', reference: code }),
      ),
    ]);
    expect(replies.map((r) => r.status).every((s) => s === 200 || s === 201)).toBe(true);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
    expect((await device(org.id, item.id)).total_paid.toFixed(2)).toBe('150.00');
  });

  it('20 different payments on one device at once: no update lost, credit and counts consistent', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: SIMPLE_PLAN });
    // 75 each: 1 day and 25 carried; the carried credit must add up across the racing payments.
    const replies = await burst(20, () =>
      t.http
        .post('/payg/external/receive-phoneteletalk')
        .set(key)
        .send({ from: 'MPESA', message: mpesaPaybillSms({ code: receipt(), amount: '75.00', account: item.serial_number }) }),
    );
    expect(replies.map((r) => ZReceiveReplySchema.parse(r.body).status)).toEqual(Array(20).fill('processed'));
    const row = await device(org.id, item.id);
    expect(row.total_paid.toFixed(2)).toBe('1500.00');
    const logs = await tokens(org.id, item.id);
    const days = logs.reduce((s, l) => s + l.value, 0);
    // 1500 buys 30 days in all: days issued plus credit carried equal the money.
    expect(days * 50 + Number(row.credit)).toBe(1500);
    expect(new Set(logs.map((l) => l.token_count)).size).toBe(logs.length);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(20);
  });

  it('parallel assignment of one device to several customers: one wins, the others get 409', async () => {
    const { user, org } = await seedTenant(t);
    const customers = await burst(6, () => seedCustomer(t, org.id));
    const item = await seedItem(t, org.id);
    const replies = await Promise.all(
      customers.map((c, i) =>
        i % 2
          ? t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: c.id, item_serial_number: item.serial_number })
          : t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: c.id, item_serial_number: item.serial_number }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = customers[replies.findIndex((r) => r.status === 200)]!;
    expect((await device(org.id, item.id)).customer_id).toBe(winner.id);
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: org.id, item_id: item.id } })).toBe(1);
  });

  it('parallel template assignments for one customer: exactly one active assignment', async () => {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id);
    const templates = await burst(8, () => seedTemplate(t, org.id));
    const replies = await Promise.all(
      templates.map((tpl) => t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: customer.id, template_id: tpl.id })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id, customer_id: customer.id, is_active: true } })).toBe(1);
    expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id, customer_id: customer.id } })).toBe(8);
  });

  it('parallel registrations of one ID number: one 201, the others 409', async () => {
    const { user, org } = await seedTenant(t);
    const replies = await burst(10, (i) =>
      t.http.post(i % 2 ? '/payg/register-customer' : '/payg/add-customer').set(user.auth).send({ customer_name: `Race ${i}`, id_number: 'RACE-ID-1', phone_contact: '0711111112' }),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await t.db.db.customer.count({ where: { organization_id: org.id } })).toBe(1);
  });

  it('parallel uses of one refresh token: exactly one new session', async () => {
    const { org } = await seedTenant(t);
    const u = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const login = await t.http.post('/payg/authenticate').send({ username: u.username, password: DEFAULT_PASSWORD }).expect(200);
    const replies = await burst(10, () => t.http.post('/payg/refresh').send({ refresh_token: login.body.refresh_token }));
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(401)]);
  });

  it('parallel failed sign-ins all count: the username is locked after them', async () => {
    const { org } = await seedTenant(t);
    const u = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const replies = await burst(8, () => t.http.post('/payg/authenticate').set('X-Forwarded-For', '10.9.8.7').send({ username: u.username, password: 'wrong-password' }));
    expect(replies.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    // Even the right password is refused now, with a Retry-After.
    const locked = await t.http.post('/payg/authenticate').send({ username: u.username, password: DEFAULT_PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('parallel first reads of the API key: one key, and every reply shows it', async () => {
    const { user, org } = await seedTenant(t);
    const replies = await burst(10, () => t.http.get('/payg/settings/api-key').set(user.auth));
    expect(new Set(replies.map((r) => r.body.api_key)).size).toBe(1);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'api_key.create' } })).toBe(1);
  });
});
