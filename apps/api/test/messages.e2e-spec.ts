import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZMessageDebugReplySchema, ZMessageListReplySchema, ZMessageStatsSchema, ZOdysseyCustomersReplySchema, ZReceiveReplySchema } from '@kidogo/contracts';
import { Prisma } from '../src/generated/prisma/client.js';
import { ANCHORED_FROM, CACHED_COUNT_MIN_ROWS } from '../src/common/list-counts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedTenant, seedUser, mpesaCode } from './support/factories.js';

const code = () => mpesaCode('M');

describe('message history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** An organization that received: 3 processed payments, 1 duplicate, 1 unmatched, 1 unparsed. */
  async function busyOrg() {
    const tenant = await seedTenant(t);
    const key = await seedApiKey(t, tenant.user);
    const s = await seedCustomerWithDevice(t, tenant.org.id, { template: { daily_price: '10.00' } });
    const receive = async (body: Record<string, unknown>) =>
      ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send(body).expect(200)).body);
    const replies = [];
    for (const [amount, phone] of [['100.00', '254700000001'], ['200.00', '254700000002'], ['300.00', '254700000003']] as const) {
      replies.push(await receive({ message: mpesaPaybillSms({ code: code(), amount, account: s.item.serial_number, phone }), from: 'MPESA' }));
    }
    const dup = await receive({ message: mpesaPaybillSms({ code: replies[0]!.transaction_code!, amount: '100.00', account: s.item.serial_number, phone: '254700000001' }) });
    const unmatched = await receive({ message: mpesaPaybillSms({ code: code(), amount: '55.00', account: 'NOWHERE', phone: '254700000009' }) });
    const unparsed = await receive({ message: 'Your Safaricom airtime balance is Ksh 12.00' });
    return { ...tenant, ...s, key, replies, dup, unmatched, unparsed };
  }

  it('pages many messages, with and without a search, exactly as ORDER BY and OFFSET on the rows would, keeping a large total', async () => {
    const { user, org } = await seedTenant(t);
    const n = 2.5 * ANCHORED_FROM + 31;
    // Messages over 20 days, several a second (the id breaks ties); two in three from one payer.
    await t.db.query(Prisma.sql`
      INSERT INTO messages (organization_id, received_message, sender, status, created_at, received_at)
      SELECT ${org.id}, 'PAY' || g || ' Confirmed. Ksh' || g || '.00 received from ' || CASE WHEN g % 3 = 0 THEN 'AMANI OTIENO' ELSE 'ZURI WAMBUI' END,
             'MPESA', 'processed', now() - (g % 20) * interval '1 day' - (g / 4) * interval '1 second', now()
      FROM generate_series(1, ${n}::int) g`);
    const other = await seedTenant(t);
    await t.db.query(Prisma.sql`INSERT INTO messages (organization_id, received_message, status) VALUES (${other.org.id}, 'ZURI WAMBUI elsewhere', 'processed')`);

    const expectPages = async (search: string | null, matches: Prisma.Sql) => {
      const [{ total }] = (await t.db.query<{ total: number }>(
        Prisma.sql`SELECT count(*)::int AS total FROM messages WHERE organization_id = ${org.id} AND ${matches}`,
      )) as [{ total: number }];
      for (const [page, size] of [[1, 10], [2, 20], [10, 10], [11, 10], [6, 20], [Math.ceil(total / 10), 10], [Math.ceil(total / 10) + 1, 10]] as const) {
        const reply = ZMessageListReplySchema.parse(
          (await t.http.get('/payg/fetch_messages').query({ page, page_size: size, ...(search ? { search } : {}) }).set(user.auth).expect(200)).body,
        );
        const expected = await t.db.query<{ id: number }>(Prisma.sql`
          SELECT message_id AS id FROM messages WHERE organization_id = ${org.id} AND ${matches}
          ORDER BY created_at DESC, message_id DESC LIMIT ${size}::int OFFSET ${(page - 1) * size}::int`);
        expect({ page, size, ids: reply.data.map((m) => m.id), total: reply.total_items }).toEqual({ page, size, ids: expected.map((r) => r.id), total });
      }
      return total;
    };
    expect(await expectPages(null, Prisma.sql`true`)).toBe(n);
    expect(await expectPages('zuri wambui', Prisma.sql`received_message LIKE '%ZURI WAMBUI%'`)).toBeGreaterThanOrEqual(CACHED_COUNT_MIN_ROWS);
    expect(await expectPages('amani', Prisma.sql`received_message LIKE '%AMANI%'`)).toBeLessThan(CACHED_COUNT_MIN_ROWS);
    const kept = await t.db.query<{ key: string; total: number; places: number }>(Prisma.sql`
      SELECT key, total, coalesce(cardinality(anchor_ids), 0)::int AS places FROM list_counts WHERE organization_id = ${org.id} AND list = 'messages' ORDER BY total DESC`);
    expect(kept.map((k) => [JSON.parse(k.key)[0], k.total, k.places > 0])).toEqual([
      [null, n, true],
      ['zuri wambui', expect.any(Number), true],
    ]);
  });

  it('lists incoming texts with their replies newest first, in pages of 10, 20, 50 or 100', async () => {
    const o = await busyOrg();
    const list = async (q: Record<string, string | number> = {}) =>
      ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').query(q).set(o.user.auth).expect(200)).body);
    const all = await list();
    expect(all).toMatchObject({ total_items: 6, total_pages: 1, current_page: 1, page_size: 20, has_next: false, has_previous: false });
    expect(all.data.map((m) => m.status)).toEqual(['unparsed', 'unmatched', 'duplicate', 'processed', 'processed', 'processed']);
    const third = all.data[3]!;
    expect(third).toMatchObject({ id: o.replies[2]!.message_id, 'Phone No.': '254700000003', recipient_number: '254700000003', amount: '300.00', delivery_status: 'queued', payment_id: o.replies[2]!.payment_id });
    expect(third.Incoming).toContain('Ksh300.00 received from');
    expect(third.Outgoing).toBe(o.replies[2]!.reply_message);
    expect(all.data[1]).toMatchObject({ Outgoing: null, 'Phone No.': null, recipient_number: null, amount: '55.00', delivery_status: 'none' });
    // Why it waits: its held payment's reason; an unreadable text says why it could not be read.
    expect(all.data[1]!.note).toBe('No single device matches the account reference NOWHERE');
    expect(all.data[0]!.note).toEqual(expect.any(String));
    expect(all.data[3]!.note).toBeNull();
    // Who sent each incoming text, whether or not anyone was answered.
    expect(third.sender).toBe('MPESA');
    const senders = await t.db.query<{ message_id: number; sender: string | null }>(
      Prisma.sql`SELECT message_id, sender FROM messages WHERE organization_id = ${o.org.id}`,
    );
    expect(all.data.map((m) => m.sender)).toEqual(all.data.map((m) => senders.find((r) => r.message_id === m.id)!.sender));

    const p2 = await list({ page: 2, page_size: 10 });
    expect(p2).toMatchObject({ data: [], total_items: 6, total_pages: 1, current_page: 2, page_size: 10, has_next: false, has_previous: true });
    // Fill a second page of ten.
    for (let i = 0; i < 5; i++) {
      await t.http.post('/payg/external/receive-phoneteletalk').set(o.key).send({ message: `noise ${i}` }).expect(200);
    }
    const first10 = await list({ page_size: 10 });
    expect(first10).toMatchObject({ total_items: 11, total_pages: 2, has_next: true, has_previous: false });
    expect(first10.data).toHaveLength(10);
    expect((await list({ page: 2, page_size: '10' })).data).toHaveLength(1);

    for (const q of [{ page_size: 30 }, { page_size: 'x' }, { page: 0 }, { page: -1 }]) {
      const res = await t.http.get('/payg/fetch_messages').query(q).set(o.user.auth).expect(400);
      expect(res.body.detail).toMatch(Object.keys(q)[0] === 'page_size' ? /^page_size: must be one of 10, 20, 50, 100/ : /^page: /);
    }
  });

  it('searches the incoming text, the outgoing text and the phone numbers', async () => {
    const o = await busyOrg();
    const search = async (s: string) =>
      ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').query({ search: s }).set(o.user.auth).expect(200)).body);
    expect((await search('254700000002')).data.map((m) => m.id)).toEqual([o.replies[1]!.message_id]);
    expect((await search(o.replies[1]!.transaction_code!.toLowerCase())).data.map((m) => m.id)).toEqual([o.replies[1]!.message_id]);
    const grouped = o.replies[2]!.token!.replace(/(\d{3})(?=\d)/g, '$1 ');
    expect((await search(grouped)).data.map((m) => m.id)).toEqual([o.replies[2]!.message_id]);
    expect((await search('airtime')).data.map((m) => m.status)).toEqual(['unparsed']);
    expect((await search('%')).total_items).toBe(0);
    expect((await search('no such text')).total_items).toBe(0);
    // Another organization finds nothing of these.
    const other = await seedTenant(t);
    const theirs = ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').query({ search: '254700000002' }).set(other.user.auth).expect(200)).body);
    expect(theirs.total_items).toBe(0);
    expect(ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').set(other.user.auth).expect(200)).body).data).toEqual([]);
  });

  it('counts messages by outcome and the money received', async () => {
    const o = await busyOrg();
    const stats = (await t.http.get('/payg/messages/stats').set(o.user.auth).expect(200)).body;
    ZMessageStatsSchema.strict().parse(stats);
    expect(stats).toEqual({
      today: 6,
      this_week: 6,
      processed: 3,
      duplicate: 1,
      unmatched: 1,
      unparsed: 1,
      amount_received: '655.00',
      outbox: { queued: 3, sent: 0, failed: 0 },
    });
    // A manual payment's reply is an outgoing message, not an incoming one.
    await t.http.post('/payg/payments').set(o.user.auth).send({ serial_number: o.item.serial_number, amount: 10, payment_method: 'cash' }).expect(201);
    const after = ZMessageStatsSchema.parse((await t.http.get('/payg/messages/stats').set(o.user.auth).expect(200)).body);
    expect(after).toMatchObject({ today: 6, processed: 3, amount_received: '655.00', outbox: { queued: 4 } });
    const other = await seedTenant(t);
    const theirs = ZMessageStatsSchema.parse((await t.http.get('/payg/messages/stats').set(other.user.auth).expect(200)).body);
    expect(theirs).toMatchObject({ today: 0, processed: 0, amount_received: '0.00' });
  });

  it('shows owners and admins the last raw payloads with their parse results', async () => {
    const o = await busyOrg();
    const staff = await seedUser(t, { organization_id: o.org.id, role: 'staff' });
    await t.http.get('/payg/messages/debug').set(staff.auth).expect(403);
    const debug = ZMessageDebugReplySchema.parse((await t.http.get('/payg/messages/debug').set(o.user.auth).expect(200)).body);
    expect(debug.data).toHaveLength(6);
    expect(debug.data[0]).toMatchObject({ status: 'unparsed', parsed: null, raw_payload: { message: 'Your Safaricom airtime balance is Ksh 12.00' } });
    expect(debug.data[0]!.parse_error).toBeTruthy();
    expect(debug.data[5]).toMatchObject({ status: 'processed', sender: 'MPESA', parsed: { transaction_code: o.replies[0]!.transaction_code, amount: '100.00' }, result: { status: 'processed' } });
    const other = await seedTenant(t, { role: 'admin' });
    expect(ZMessageDebugReplySchema.parse((await t.http.get('/payg/messages/debug').set(other.user.auth).expect(200)).body).data).toEqual([]);
  });
});

describe('a suspended or disabled organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gets the 403 SERVICE_* body on every payment, message and settings call, and nothing changes', async () => {
    for (const status of ['suspended', 'disabled'] as const) {
      const { user, org } = await seedTenant(t);
      const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '10.00' } });
      await t.db.platform.organization.update({ where: { id: org.id }, data: { status, disabled_reason: 'unpaid', status_changed_at: new Date() } });
      const calls = [
        t.http.get('/payg/payments').set(user.auth),
        t.http.post('/payg/payments').set(user.auth).send({ serial_number: s.item.serial_number, amount: 10, payment_method: 'cash' }),
        t.http.post('/payg/payments/1/match').set(user.auth).send({ serial_number: s.item.serial_number }),
        t.http.post('/payg/reports/upload-csv').set(user.auth).attach('file', Buffer.from('Receipt No.,Paid In\nX1,10\n'), 'statement.csv'),
        t.http.get('/payg/fetch_messages').set(user.auth),
        t.http.get('/payg/messages/stats').set(user.auth),
        t.http.get('/payg/messages/debug').set(user.auth),
        t.http.get('/payg/settings/api-key').set(user.auth),
        t.http.post('/payg/settings/api-key/rotate').set(user.auth),
        t.http.get('/payg/settings/sms-provider').set(user.auth),
        t.http.put('/payg/settings/sms-provider').set(user.auth).send({ provider: 'none' }),
      ];
      for (const res of await Promise.all(calls)) {
        expect({ url: res.request.url, status: res.status }).toEqual({ url: res.request.url, status: 403 });
        expect(res.body.detail.error).toBe(status === 'suspended' ? 'SERVICE_SUSPENDED' : 'SERVICE_DISABLED');
      }
      expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(0);
      const row = await t.db.platform.organization.findUniqueOrThrow({ where: { id: org.id } });
      expect(row.api_key_hash).toBeNull();
    }
  });
});

describe('the Odyssey export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists customers with devices and payment totals, paged, by API key, for the key\'s organization only', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const a = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '10.00' }, item: { product_name: 'Lamp' } });
    const b = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '10.00' } });
    await t.http.post('/payg/payments').set(user.auth).send({ serial_number: a.item.serial_number, amount: 100, payment_method: 'cash', paid_at: '2026-01-01T10:00:00Z' }).expect(201);
    await t.http.post('/payg/payments').set(user.auth).send({ serial_number: a.item.serial_number, amount: 50.5, payment_method: 'cash', paid_at: '2026-01-02T10:00:00Z' }).expect(201);

    await t.http.get('/payg/external/odyssey/customers').expect(401);
    await t.http.get('/payg/external/odyssey/customers').set(user.auth).expect(401);
    const res = ZOdysseyCustomersReplySchema.parse((await t.http.get('/payg/external/odyssey/customers').set(key).expect(200)).body);
    expect(res.pagination).toEqual({ total: 2, total_pages: 1, limit: 100, offset: 0 });
    expect(res.data[0]).toEqual({
      customer_id: a.customer.id,
      customer_name: a.customer.customer_name,
      phone_contact: a.customer.phone_contact,
      county: 'Nairobi',
      devices: [{ serial_number: a.item.serial_number, product_name: 'Lamp', status: 'assigned', total_paid: '150.50', paid_off: false, activated_at: expect.any(String) }],
      total_paid: '150.50',
      last_payment_at: '2026-01-02T10:00:00.000Z',
    });
    expect(res.data[1]).toMatchObject({ customer_id: b.customer.id, total_paid: '0.00', last_payment_at: null, devices: [{ total_paid: '0.00', activated_at: null }] });
    const page = ZOdysseyCustomersReplySchema.parse((await t.http.get('/payg/external/odyssey/customers?limit=1&offset=1').set(key).expect(200)).body);
    expect(page.data.map((c) => c.customer_id)).toEqual([b.customer.id]);
    await t.http.get('/payg/external/odyssey/customers?limit=1001').set(key).expect(400);

    const other = await seedTenant(t);
    const otherKey = await seedApiKey(t, other.user);
    const theirs = ZOdysseyCustomersReplySchema.parse((await t.http.get('/payg/external/odyssey/customers').set(otherKey).expect(200)).body);
    expect(theirs).toEqual({ data: [], pagination: { total: 0, total_pages: 0, limit: 100, offset: 0 } });
  });
});
