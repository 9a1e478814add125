import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCustomerListReplySchema,
  ZCustomerMetricsSchema,
  ZItemMetricsSchema,
  ZMetricsSummarySchema,
  ZProductListReplySchema,
  ZProductsSummaryReplySchema,
  ZRevenueSeriesSchema,
  ZTokenLogListSchema,
  ZUsageMetricsSchema,
} from '@kidogo/contracts';
import { Prisma } from '../src/generated/prisma/client.js';
import { StatsService } from '../src/stats/stats.service.js';
import { ANCHORED_FROM, CACHED_COUNT_MIN_ROWS, MAX_ANCHORS } from '../src/common/list-counts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { expectPageOf } from './support/catalog.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedPayment, seedTenant, seedTokenLog, type SeededUser } from './support/factories.js';
import { Calendar, DEFAULT_TIME_ZONE, dayNumber } from '../src/common/calendar.js';
import { isoDayOf } from '../src/metrics/period.js';

/**
 * The totals kept by triggers (customer_stats, item_stats, payment_stats,
 * token_stats) must always equal counting the rows, before and after the
 * compaction folds them, whatever wrote the rows: the API, bulk SQL,
 * updates, deletes. Each check compares an API figure with a count made
 * here straight on the rows.
 */
describe('totals kept by triggers', () => {
  let t: TestApp;
  let a: SeededUser;
  let b: SeededUser;
  let stats: StatsService;
  const DAY = 86_400_000;

  beforeAll(async () => {
    t = await createTestApp();
    ({ user: a } = await seedTenant(t));
    ({ user: b } = await seedTenant(t));
    stats = t.app.get(StatsService);
  });
  afterAll(() => t.close());

  const get = async (user: SeededUser, path: string) => (await t.http.get(path).set(user.auth).expect(200)).body;
  const count = async (sql: Prisma.Sql) => (await t.db.query<{ n: number }>(sql))[0]!.n;

  /** Customers created over 40 days with bulk SQL (the statement trigger sums them in one go). */
  async function bulkCustomers(orgId: string, n: number, prefix: string) {
    await t.db.query(Prisma.sql`
      INSERT INTO customers (organization_id, customer_name, id_number, phone_contact, status, created_at, updated_at)
      SELECT ${orgId}, ${prefix} || ' ' || g, ${prefix} || g, '0700' || lpad(g::text, 6, '0'),
             CASE WHEN g % 7 = 0 THEN 'inactive' WHEN g % 11 = 0 THEN 'suspended' ELSE 'active' END,
             now() - (g % 40) * interval '1 day' - (g % 1000) * interval '1 second', now()
      FROM generate_series(1, ${n}::int) g`);
  }

  it('page through customers at any offset exactly as OFFSET on the rows would, also after changes and compaction', async () => {
    const org = a.organization_id;
    await bulkCustomers(org, 2500, 'Bulk');
    await seedCustomer(t, org, { customer_name: 'Newest One' });
    await bulkCustomers(b.organization_id, 50, 'Other');

    const expectPages = async () => {
      const total = await count(Prisma.sql`SELECT count(*)::int AS n FROM customers WHERE organization_id = ${org}`);
      for (const offset of [0, 1, 9, 10, 137, 1000, 1999, 2490, total - 10, total - 1, total, total + 5]) {
        const page = ZCustomerListReplySchema.parse(await get(a, `/payg/registered-customers?limit=10&offset=${offset}`));
        const expected = await t.db.query<{ customer_id: number }>(Prisma.sql`
          SELECT customer_id FROM customers WHERE organization_id = ${org}
          ORDER BY created_at DESC, customer_id DESC LIMIT 10 OFFSET ${offset}::int`);
        expect(page.data.map((c) => c.customer_id)).toEqual(expected.map((r) => r.customer_id));
        expect(page.pagination.total).toBe(total);
        expect(page.data.every((c) => c.organization_id === org)).toBe(true);
      }
    };
    await expectPages();

    // Updates that move customers between days and statuses, deletions, a registration through the API.
    await t.db.query(Prisma.sql`UPDATE customers SET created_at = created_at - interval '3 days' WHERE organization_id = ${org} AND id_number LIKE 'Bulk1%'`);
    await t.db.query(Prisma.sql`UPDATE customers SET status = 'suspended' WHERE organization_id = ${org} AND id_number LIKE 'Bulk2%'`);
    await t.db.query(Prisma.sql`DELETE FROM customers WHERE organization_id = ${org} AND id_number LIKE 'Bulk3%'`);
    await t.http
      .post('/payg/register-customer')
      .set(a.auth)
      .send({ customer_name: 'Via API', id_number: 'API-1', phone_contact: '0711000111' })
      .expect(201);
    await expectPages();
    expect(await stats.compact()).toBeGreaterThan(0);
    await expectPages();

    // Org B sees only its own 50.
    expect(ZCustomerListReplySchema.parse(await get(b, '/payg/registered-customers?offset=45')).data.map((c) => c.customer_name)).toHaveLength(5);
    expect(ZCustomerListReplySchema.parse(await get(b, '/payg/registered-customers')).pagination.total).toBe(50);

    const metrics = ZCustomerMetricsSchema.parse(await get(a, '/payg/metrics/customers'));
    const byStatus = (s: string) => count(Prisma.sql`SELECT count(*)::int AS n FROM customers WHERE organization_id = ${org} AND status = ${s}`);
    expect(metrics.active).toBe(await byStatus('active'));
    expect(metrics.inactive).toBe(await byStatus('inactive'));
    expect(metrics.suspended).toBe(await byStatus('suspended'));
    expect(metrics.new_this_week).toBe(
      await count(Prisma.sql`SELECT count(*)::int AS n FROM customers WHERE organization_id = ${org} AND created_at >= now() - interval '7 days'`),
    );
  });

  it('keep a search total of many rows for a few seconds, count small ones every time, and recount when it is old', async () => {
    const org = b.organization_id;
    await bulkCustomers(org, CACHED_COUNT_MIN_ROWS + 20, 'Zuri');
    const search = async () => ZCustomerListReplySchema.parse(await get(b, '/payg/registered-customers?search_term=Zuri')).pagination.total;
    expect(await search()).toBe(CACHED_COUNT_MIN_ROWS + 20);
    await seedCustomer(t, org, { customer_name: 'Zuri Latest' });
    // The kept total (the new customer is on the first page, live, but not yet in the total)...
    const page = ZCustomerListReplySchema.parse(await get(b, '/payg/registered-customers?search_term=Zuri'));
    expect(page.data[0]!.customer_name).toBe('Zuri Latest');
    expect(page.pagination.total).toBe(CACHED_COUNT_MIN_ROWS + 20);
    // ...until it is older than the time it is kept.
    await t.db.query(Prisma.sql`UPDATE list_counts SET counted_at = now() - interval '1 hour' WHERE organization_id = ${org}`);
    expect(await search()).toBe(CACHED_COUNT_MIN_ROWS + 21);
    // Small results are exact at once; and org A's kept counts are not org B's.
    await seedCustomer(t, org, { customer_name: 'Rare Name' });
    expect(ZCustomerListReplySchema.parse(await get(b, '/payg/registered-customers?search_term=Rare')).pagination.total).toBe(1);
    await seedCustomer(t, org, { customer_name: 'Rare Name Two' });
    expect(ZCustomerListReplySchema.parse(await get(b, '/payg/registered-customers?search_term=Rare')).pagination.total).toBe(2);
    expect(ZCustomerListReplySchema.parse(await get(a, '/payg/registered-customers?search_term=Zuri')).pagination.total).toBe(0);
  });

  it('find phone and ID numbers by any piece, and emails in any case, as ILIKE on the rows would, at every offset, counted or kept', async () => {
    const { user, org } = await seedTenant(t);
    // 2,500 numbers sharing "0700" (more matches than GRAM_PAGE_MAX_MATCHES: the planned page), and look-alikes.
    await bulkCustomers(org.id, 2500, 'Gram');
    // Addresses in mixed case, every third one without: emails are matched through lower() (LOWERED_FIELDS).
    await t.db.query(Prisma.sql`
      UPDATE customers SET email = CASE WHEN customer_id % 3 = 0 THEN NULL ELSE 'Gram.' || customer_id || '@Example.COM' END
      WHERE organization_id = ${org.id}`);
    const odd = [
      ['1234 2345', 'AB-12345-CD', 'Makena.Kimani@example.com'], // every 4-character piece of "12345", but not "12345"
      ['12_45', 'ab12_4x', 'MAKENA_KIMANI@x.org'], // a literal underscore
      ['0712%345', 'X1234', 'makena%kimani@y.co.ke'],
      ['0799', 'Z9', 'Élodie.Ñandú@ÉCOLE.example'],
    ];
    for (const [phone, id, email] of odd) await seedCustomer(t, org.id, { phone_contact: phone, id_number: id, email });
    const terms: [string, string][] = [
      ['phone_contact', '0700'],
      ['phone_contact', '00012'],
      ['phone_contact', '0700001'],
      ['phone_contact', '12345'],
      ['phone_contact', '1234'],
      ['phone_contact', '12_4'],
      ['phone_contact', '2%34'],
      ['phone_contact', '99999'],
      ['id_number', 'ram12'],
      ['id_number', 'GRAM2499'],
      ['id_number', 'b-12345-c'],
      ['id_number', '12_4X'],
      ['id_number', '1234'],
      ['email', 'gram.1'],
      ['email', 'example.com'],
      ['email', 'GRAM.2'],
      ['email', 'makena.kimani'],
      ['email', 'makena_kimani'],
      ['email', 'A%K'],
      ['email', 'élodie.ñ'],
      ['email', 'ÉCOLE'],
      ['email', 'ÑA'],
      ['email', '.c'],
      ['email', 'zzzz'],
    ];
    for (const [field, term] of terms) {
      const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const expected = (
        await t.db.query<{ customer_id: number }>(Prisma.sql`
          SELECT customer_id FROM customers WHERE organization_id = ${org.id} AND ${Prisma.raw(`"${field}"`)} ILIKE ${pattern}
          ORDER BY created_at DESC, customer_id DESC`)
      ).map((r) => r.customer_id);
      // Counted; then, for 100 matches or more, with the kept total (an email
      // search's page walked with a prepared statement, see walkPage); then
      // with a total kept without the list's size (as before 0017): planned.
      for (const round of [1, 2, 3]) {
        if (round === 3) await t.db.query(Prisma.sql`UPDATE list_counts SET list_size = NULL WHERE organization_id = ${org.id} RETURNING 1`);
        for (const offset of [0, 10, 95, 2000, expected.length]) {
          const qs = new URLSearchParams({ search_field: field, search_term: term, limit: '10', offset: String(offset) });
          const page = ZCustomerListReplySchema.parse(await get(user, `/payg/registered-customers?${qs}`));
          expectPageOf({ field, term, round, offset }, { keys: page.data.map((c) => c.customer_id), total: page.pagination.total }, expected, offset);
        }
      }
    }
  });

  it('start a deep search page from the kept place of the match before it, as ILIKE and OFFSET would, and count the places again when they are old', async () => {
    const { user, org } = await seedTenant(t);
    // 1,200 customers, created_at shared by pairs (ties broken by id); occupations and mixed-case emails in thirds.
    await bulkCustomers(org.id, 1200, 'Deep');
    await t.db.query(Prisma.sql`
      UPDATE customers SET occupation = CASE WHEN customer_id % 3 = 0 THEN 'Teacher' ELSE 'Farmer' END,
                           email = CASE WHEN customer_id % 3 = 1 THEN NULL ELSE replace(id_number, 'Deep', 'Deep.') || '@Mail.Example' END
      WHERE organization_id = ${org.id}`);
    const terms: [string, string][] = [
      ['customer_name', 'deep'], // every customer
      ['occupation', 'TEACHER'], // a third
      ['email', 'mail.example'], // two thirds, through lower(email) (walked)
      ['email', 'DEEP.1'], // a few hundred
      ['phone_contact', '0700'], // the grams index
    ];
    const offsets = [95, ANCHORED_FROM, ANCHORED_FROM + 7, 2 * ANCHORED_FROM - 1, 399, 400, 795, 1000, 1195, 1199, 1200];
    const expectPages = async (field: string, term: string, before?: () => Promise<unknown>) => {
      const expected = (
        await t.db.query<{ customer_id: number }>(Prisma.sql`
          SELECT customer_id FROM customers WHERE organization_id = ${org.id} AND ${Prisma.raw(`"${field}"`)} ILIKE ${`%${term}%`}
          ORDER BY created_at DESC, customer_id DESC`)
      ).map((r) => r.customer_id);
      expect(expected.length).toBeGreaterThanOrEqual(CACHED_COUNT_MIN_ROWS);
      for (const offset of offsets) {
        await before?.();
        const qs = new URLSearchParams({ search_field: field, search_term: term, limit: '10', offset: String(offset) });
        const page = ZCustomerListReplySchema.parse(await get(user, `/payg/registered-customers?${qs}`));
        expectPageOf({ field, term, offset }, { keys: page.data.map((c) => c.customer_id), total: page.pagination.total }, expected, offset);
      }
    };
    const age = (column: 'counted_at' | 'anchored_at') =>
      t.db.query(Prisma.sql`UPDATE list_counts SET ${Prisma.raw(column)} = now() - interval '1 hour' WHERE organization_id = ${org.id} RETURNING 1`);
    for (const [field, term] of terms) {
      await expectPages(field, term); // counted with the places by the first deep page, then from the kept places
      await expectPages(field, term, () => age('anchored_at')); // places too old: counted again
      await expectPages(field, term, () => age('counted_at')); // the total too old: counted again, with the places
    }
    const kept = await t.db.query<{ step: number; n: number; ids: number; total: number }>(Prisma.sql`
      SELECT anchor_step AS step, cardinality(anchor_times) AS n, cardinality(anchor_ids) AS ids, total FROM list_counts
      WHERE organization_id = ${org.id} AND key = ${JSON.stringify(['customer_name', 'deep'])}`);
    expect(kept).toEqual([{ step: 1, n: 1199, ids: 1199, total: 1200 }]); // every match's place but the first's (counted from 0): read by key

    // Requests at once while the places are old: one counts them, the others page from the older ones.
    await age('anchored_at');
    const together = await Promise.all(
      offsets.map((offset) =>
        get(user, `/payg/registered-customers?search_field=occupation&search_term=TEACHER&limit=10&offset=${offset}`).then(
          (r) => ZCustomerListReplySchema.parse(r).data.map((c) => c.customer_id),
        ),
      ),
    );
    const teachers = (
      await t.db.query<{ customer_id: number }>(Prisma.sql`
        SELECT customer_id FROM customers WHERE organization_id = ${org.id} AND occupation = 'Teacher' ORDER BY created_at DESC, customer_id DESC`)
    ).map((r) => r.customer_id);
    expect(together).toEqual(offsets.map((o) => teachers.slice(o, o + 10)));

    // New customers: once the places are counted again, deep pages stand where OFFSET on the rows would.
    for (let i = 0; i < 3; i++) await seedCustomer(t, org.id, { customer_name: `Deeper ${i}`, occupation: 'Teacher' });
    await age('counted_at');
    await expectPages('occupation', 'teacher');

    // Fewer than CACHED_COUNT_MIN_ROWS left: a deep page counts them and the kept count is forgotten.
    await t.db.query(Prisma.sql`DELETE FROM customers WHERE organization_id = ${org.id} AND occupation = 'Teacher' AND customer_name <> 'Deeper 0'`);
    await age('counted_at');
    const few = ZCustomerListReplySchema.parse(await get(user, `/payg/registered-customers?search_field=occupation&search_term=teacher&offset=${ANCHORED_FROM}`));
    expect({ rows: few.data.length, total: few.pagination.total }).toEqual({ rows: 0, total: 1 });
    const left = await t.db.query(Prisma.sql`SELECT 1 FROM list_counts WHERE organization_id = ${org.id} AND key = ${JSON.stringify(['occupation', 'teacher'])}`);
    expect(left).toEqual([]);
  });

  it('read a deep page of a search with every place kept by its keys: live rows that still match, no gap, new matches at the next count', async () => {
    const { user, org } = await seedTenant(t);
    await bulkCustomers(org.id, 900, 'Keyed');
    // Every third customer matches: 300 matches, every place kept (step 1).
    await t.db.query(Prisma.sql`
      UPDATE customers SET email = CASE WHEN customer_id % 3 = 0 THEN 'k' || customer_id || '@Rare.Example' ELSE 'k' || customer_id || '@other.example' END
      WHERE organization_id = ${org.id}`);
    const matches = async () =>
      (
        await t.db.query<{ customer_id: number }>(Prisma.sql`
          SELECT customer_id FROM customers WHERE organization_id = ${org.id} AND email ILIKE '%rare.example%'
          ORDER BY created_at DESC, customer_id DESC`)
      ).map((r) => r.customer_id);
    const page = async (offset: number) =>
      ZCustomerListReplySchema.parse(
        await get(user, `/payg/registered-customers?search_field=email&search_term=RARE.example&limit=10&offset=${offset}`),
      ).data.map((c) => c.customer_id);
    const offset = ANCHORED_FROM + 50;
    const before = await matches();
    expect(await page(offset)).toEqual(before.slice(offset, offset + 10)); // counts the places
    const [kept] = await t.db.query<{ step: number; places: number }>(Prisma.sql`
      SELECT anchor_step AS step, cardinality(anchor_ids) AS places FROM list_counts WHERE organization_id = ${org.id}`);
    expect(kept).toEqual({ step: 1, places: 299 });

    // Two of the page's matches go (one deleted, one no longer matching): the page closes up from the kept matches after it.
    await t.db.query(Prisma.sql`DELETE FROM customers WHERE organization_id = ${org.id} AND customer_id = ${before[offset + 2]}::int`);
    await t.db.query(Prisma.sql`UPDATE customers SET email = 'gone@other.example' WHERE organization_id = ${org.id} AND customer_id = ${before[offset + 5]}::int`);
    // A customer inside the page's span starts to match: not on the kept places yet.
    const span = await t.db.query<{ customer_id: number }>(Prisma.sql`
      SELECT customer_id FROM customers WHERE organization_id = ${org.id} AND email ILIKE '%other.example%' AND customer_id <> ${before[offset + 5]}::int
        AND (created_at, customer_id) < (SELECT created_at, customer_id FROM customers WHERE customer_id = ${before[offset + 3]}::int)
        AND (created_at, customer_id) > (SELECT created_at, customer_id FROM customers WHERE customer_id = ${before[offset + 4]}::int)
      LIMIT 1`);
    expect(span).toHaveLength(1);
    await t.db.query(Prisma.sql`UPDATE customers SET email = 'new@rare.example' WHERE organization_id = ${org.id} AND customer_id = ${span[0]!.customer_id}::int`);
    const after = await matches();
    expect(after).toContain(span[0]!.customer_id);
    const kept10 = before.slice(offset, offset + 12).filter((id) => id !== before[offset + 2] && id !== before[offset + 5]);
    expect(await page(offset)).toEqual(kept10);
    // Once the places are counted again (the total too old), the new match is in its place.
    await t.db.query(Prisma.sql`UPDATE list_counts SET counted_at = now() - interval '1 hour' WHERE organization_id = ${org.id}`);
    expect(await page(offset)).toEqual(after.slice(offset, offset + 10));
  });

  it('keep at most MAX_ANCHORS places of a search with many matches, every n-th, and page from them', async () => {
    const { user, org } = await seedTenant(t);
    const n = 10 * MAX_ANCHORS + 50; // every 11th place
    await bulkCustomers(org.id, n, 'Many');
    const expected = (
      await t.db.query<{ customer_id: number }>(Prisma.sql`
        SELECT customer_id FROM customers WHERE organization_id = ${org.id} ORDER BY created_at DESC, customer_id DESC`)
    ).map((r) => r.customer_id);
    expect(expected).toHaveLength(n);
    for (const offset of [ANCHORED_FROM, 1005, 10_010, 10_021, n - 10, n - 1]) {
      const page = ZCustomerListReplySchema.parse(await get(user, `/payg/registered-customers?search_term=many&limit=10&offset=${offset}`));
      expectPageOf({ offset }, { keys: page.data.map((c) => c.customer_id), total: page.pagination.total }, expected, offset);
    }
    const [kept] = await t.db.query<{ step: number; places: number }>(Prisma.sql`
      SELECT anchor_step AS step, cardinality(anchor_times) AS places FROM list_counts WHERE organization_id = ${org.id}`);
    expect(kept).toEqual({ step: 11, places: Math.floor((n - 1) / 11) });
  }, 60_000);

  it('count devices by assignment and status through assignments, status changes and deletions', async () => {
    const { user, org } = await seedTenant(t);
    for (let i = 0; i < 4; i++) await seedCustomerWithDevice(t, org.id);
    const spare = await seedItem(t, org.id, { serial_number: 'SPARE-1', product_name: 'Lamp' });
    await seedItem(t, org.id, { serial_number: 'SPARE-2', product_name: 'Lamp', status: 'maintenance' });
    const customer = await seedCustomer(t, org.id);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customer.id, item_serial_number: spare.serial_number }).expect(200);
    const one = await t.db.db.item.findFirstOrThrow({ where: { organization_id: org.id, is_assigned: true, NOT: { id: spare.id } } });
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: one.serial_number }).expect(200);
    await t.http.put(`/payg/items/${one.serial_number}`).set(user.auth).send({ status: 'retired' }).expect(200);

    const check = async () => {
      const n = (where: Prisma.Sql) => count(Prisma.sql`SELECT count(*)::int AS n FROM items WHERE organization_id = ${org.id} AND ${where}`);
      const summary = ZProductsSummaryReplySchema.parse(await get(user, '/payg/products/summary')).data;
      expect(summary).toEqual({ total_products: await n(Prisma.sql`true`), assigned_products: await n(Prisma.sql`is_assigned`), unassigned_products: await n(Prisma.sql`NOT is_assigned`) });
      for (const status of ['all', 'assigned', 'unassigned'] as const) {
        const list = ZProductListReplySchema.parse(await get(user, `/payg/products?status=${status}&limit=100`)).data;
        expect(list.pagination.total).toBe(list.items.length);
      }
      const items = ZItemMetricsSchema.parse(await get(user, '/payg/metrics/items'));
      expect(items).toMatchObject({
        total: await n(Prisma.sql`true`),
        assigned: await n(Prisma.sql`is_assigned`),
        retired: await n(Prisma.sql`status = 'retired'`),
        maintenance: await n(Prisma.sql`status = 'maintenance'`),
        available: await n(Prisma.sql`status = 'available'`),
      });
      expect(items.by_product.find((p) => p.product_name === 'Lamp')?.total).toBe(await n(Prisma.sql`product_name = 'Lamp'`));
    };
    await check();
    await stats.compact();
    await check();
  });

  it('sum payments and tokens over whole days from the totals and over part days from the rows', async () => {
    const { user, org } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id);
    const at = (daysAgo: number, hour: number) => {
      const d = new Date(Date.now() - daysAgo * DAY);
      d.setUTCHours(hour, 17, 0, 0);
      return d;
    };
    for (let d = 0; d < 12; d++) {
      for (const [hour, status] of [[1, 'completed'], [11, 'success'], [22, 'pending']] as const) {
        await seedPayment(t, org.id, { customer_id: customer.id, item_id: item.id, amount: `${100 + d * 10 + hour}.50`, status, paid_at: at(d, hour) });
        await seedTokenLog(t, org.id, item, { created_at: at(d, hour), days: d + 1, is_valid: hour !== 22 });
      }
    }
    await t.db.query(Prisma.sql`UPDATE payments SET status = 'failed' WHERE organization_id = ${org.id} AND amount < 130`);
    await t.db.query(Prisma.sql`DELETE FROM payments WHERE organization_id = ${org.id} AND amount > 210`);

    const periods: [string | null, string | null][] = [
      [null, null],
      [at(9, 5).toISOString(), at(2, 12).toISOString()],
      [isoDay(at(8, 0)), isoDay(at(3, 0))],
      [at(5, 0).toISOString(), null],
      [null, at(6, 23).toISOString()],
      [at(4, 2).toISOString(), at(4, 20).toISOString()],
    ];
    const check = async () => {
      for (const [from, to] of periods) {
        const qs = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
        // A bare date is a business day: from its midnight in Nairobi to the next one.
        const lo = from ? (/^\d{4}-\d{2}-\d{2}$/.test(from) ? nairobi.startOf(dayNumber(from)) : new Date(from)) : null;
        const hi = to ? (/^\d{4}-\d{2}-\d{2}$/.test(to) ? nairobi.startOf(dayNumber(to) + 1) : new Date(Date.parse(to) + 1)) : null;
        const range = (col: string) =>
          Prisma.sql`${lo ? Prisma.sql`AND ${Prisma.raw(col)} >= ${lo.toISOString()}::timestamptz` : Prisma.empty}
                     ${hi ? Prisma.sql`AND ${Prisma.raw(col)} < ${hi.toISOString()}::timestamptz` : Prisma.empty}`;
        const [want] = await t.db.query<{ total: number; ok: number; revenue: string; average: string }>(Prisma.sql`
          SELECT count(*)::int AS total, count(*) FILTER (WHERE status IN ('success', 'completed'))::int AS ok,
                 coalesce(sum(amount) FILTER (WHERE status IN ('success', 'completed')), 0)::numeric(20,2)::text AS revenue,
                 coalesce(round(avg(amount) FILTER (WHERE status IN ('success', 'completed')), 2), 0)::numeric(20,2)::text AS average
          FROM payments WHERE organization_id = ${org.id} ${range('paid_at')}`);
        const summary = ZMetricsSummarySchema.parse(await get(user, `/payg/metrics/summary?${qs}`));
        expect({ from, to, ...summary }).toMatchObject({ from, to, transaction_count: want!.total, total_revenue: want!.revenue, average_transaction: want!.average });
        const usage = ZUsageMetricsSchema.parse(await get(user, `/payg/metrics/usage?${qs}`));
        const [tokens] = await t.db.query<{ n: number; days: number }>(Prisma.sql`
          SELECT count(*)::int AS n, coalesce(sum(days_generated), 0)::float8 AS days FROM token_logs WHERE organization_id = ${org.id} ${range('created_at')}`);
        expect({ from, to, total: usage.tokens_total, days: usage.days_generated }).toEqual({ from, to, total: tokens!.n, days: tokens!.days });
      }
      const from = isoDay(at(11, 0));
      const series = ZRevenueSeriesSchema.parse(await get(user, `/payg/metrics/revenue?from=${from}&interval=day`));
      const byDay = await t.db.query<{ day: string; revenue: string }>(Prisma.sql`
        SELECT to_char((paid_at AT TIME ZONE 'Africa/Nairobi')::date, 'YYYY-MM-DD') AS day, sum(amount)::numeric(20,2)::text AS revenue
        FROM payments WHERE organization_id = ${org.id} AND status IN ('success', 'completed')
          AND paid_at >= (${from}::timestamp AT TIME ZONE 'Africa/Nairobi') GROUP BY 1`);
      for (const p of series.points) expect(p.revenue).toBe(byDay.find((d) => d.day === p.period)?.revenue ?? '0.00');
      const logs = ZTokenLogListSchema.parse(await get(user, '/payg/metrics/token-generation-logs'));
      expect(logs.data.total).toBe(await count(Prisma.sql`SELECT count(*)::int AS n FROM token_logs WHERE organization_id = ${org.id}`));
    };
    await check();
    await stats.compact();
    await check();
  });
});

/** The API's days are Nairobi's unless TIME_ZONE says otherwise (the payments at 22:17 UTC below are the next day's there). */
const nairobi = new Calendar(DEFAULT_TIME_ZONE);
const isoDay = (d: Date) => isoDayOf(nairobi.dayOf(d));
