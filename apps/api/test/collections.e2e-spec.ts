import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCollectionsReplySchema,
  ZCollectionsSummaryReplySchema,
  ZContactListReplySchema,
  ZContactReplySchema,
  ZPromisesReplySchema,
  ZPromisesSummaryReplySchema,
} from '@kidogo/contracts';
import { Prisma } from '../src/generated/prisma/client.js';
import { StatsService } from '../src/stats/stats.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedPayment, seedTenant, type SeededUser } from './support/factories.js';

// Collections: the devices out of credit (assigned, not paid off, their days
// run out), kept in open_accounts by triggers on items (0029_open_accounts).

const DAY = 86_400_000;
const ago = (days: number, hours = 0) => new Date(Date.now() - days * DAY - hours * 3_600_000);

describe('collections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = async (user: SeededUser, query: Record<string, string | number> = {}) =>
    ZCollectionsReplySchema.parse((await t.http.get('/payg/collections').query(query).set(user.auth).expect(200)).body).data;
  const summary = async (user: SeededUser) =>
    ZCollectionsSummaryReplySchema.parse((await t.http.get('/payg/collections/summary').set(user.auth).expect(200)).body).data;
  const setItem = (orgId: string, id: number, data: { credit_until?: Date | null; assigned_at?: Date; paid_off_at?: Date | null }) =>
    t.db.db.item.update({ where: { organization_id_id: { organization_id: orgId, id } }, data });

  /**
   * One organization: devices out of credit 2 days 5 hours, 12 days, 45 days
   * and 200 days; one assigned 40 days ago and never paid; and the devices
   * that are not out of credit: credit left, paid off, unassigned.
   */
  async function portfolio() {
    const { org, user } = await seedTenant(t, { role: 'staff' });
    const plan = { daily_price: '40.00', free_code_price: '10000.00', template_name: 'Lamp Daily 40' };
    const mk = async (name: string, until: Date | null, extra: { assigned_at?: Date; paid_off_at?: Date } = {}) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: plan, item: { price: '12000.00' } });
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { customer_name: name } });
      await setItem(org.id, d.item.id, { credit_until: until, ...extra });
      return d;
    };
    const recent = await mk('Recent Rehema', ago(2, 5));
    const twelve = await mk('Twelve Tumaini', ago(12));
    const fortyFive = await mk('Forty Faraji', ago(45));
    const old = await mk('Old Omondi', ago(200));
    const never = await mk('Never Njeri', null, { assigned_at: ago(40) });
    const current = await mk('Current Chebet', new Date(Date.now() + 5 * DAY));
    const paidOff = await mk('Paid Pendo', ago(30), { paid_off_at: ago(31) });
    const free = await seedItem(t, org.id, {});
    await setItem(org.id, free.id, { credit_until: ago(3) });
    // Payments on the 12-day device: the last successful one is the newest success, not the failed one after it.
    await seedPayment(t, org.id, { customer_id: twelve.customer.id, item_id: twelve.item.id, amount: '400.00', paid_at: ago(22) });
    await seedPayment(t, org.id, { customer_id: twelve.customer.id, item_id: twelve.item.id, amount: '200.00', paid_at: ago(17) });
    await seedPayment(t, org.id, { customer_id: twelve.customer.id, item_id: twelve.item.id, amount: '999.00', status: 'failed', paid_at: ago(13) });
    return { org, user, recent, twelve, fortyFive, old, never, current, paidOff, free };
  }

  it('lists the devices out of credit, most recently run out first, with whom to call and what they paid', async () => {
    const p = await portfolio();
    const page = await list(p.user);
    expect(page.items.map((a) => [a.customer_name, a.days_without_credit, a.bucket])).toEqual([
      ['Recent Rehema', 2, '0-7'],
      ['Twelve Tumaini', 12, '8-30'],
      ['Never Njeri', 40, '31-90'],
      ['Forty Faraji', 45, '31-90'],
      ['Old Omondi', 200, 'over-90'],
    ]);
    expect(page.pagination).toEqual({ total: 5, total_pages: 1, page: 1, limit: 20 });
    const twelve = page.items[1]!;
    const customer = await t.db.db.customer.findUniqueOrThrow({ where: { organization_id_id: { organization_id: p.org.id, id: p.twelve.customer.id } } });
    expect(twelve).toMatchObject({
      item_id: p.twelve.item.id,
      serial_number: p.twelve.item.serial_number,
      product_name: 'Solar Home System 50W',
      customer_id: p.twelve.customer.id,
      phone_number: customer.phone_contact,
      last_payment_amount: '200.00',
      total_paid: '600.00',
      template_name: 'Lamp Daily 40',
      daily_price: '40.00',
      currency: 'KES',
      // The plan's payoff price, as the customer's status has it.
      remaining: '9400.00',
    });
    expect(Math.abs(Date.parse(twelve.last_payment_at!) - ago(17).getTime())).toBeLessThan(60_000);
    expect(twelve.credit_until).toBe(twelve.out_of_credit_since);
    const status = (await t.http.get(`/payg/customers/${p.twelve.customer.id}/status`).set(p.user.auth).expect(200)).body;
    expect(status.devices[0].remaining).toBe(twelve.remaining);
    // Never paid: out of credit since it was assigned.
    const never = page.items[2]!;
    expect(never).toMatchObject({ credit_until: null, last_payment_at: null, last_payment_amount: null, total_paid: '0.00' });
    const assigned = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: p.org.id, id: p.never.item.id } } });
    expect(never.out_of_credit_since).toBe(assigned.assigned_at!.toISOString());
  });

  it("marks a device whose service ticket is not resolved yet, so its customer is not chased while it is repaired", async () => {
    const p = await portfolio();
    const open = (serial: string, category: string) =>
      t.http.post('/payg/tickets').set(p.user.auth).send({ serial_number: serial, category, description: 'Does not charge' }).expect(201);
    const first = (await open(p.twelve.item.serial_number, 'installation')).body.data.ticket_id as number;
    const newest = (await open(p.twelve.item.serial_number, 'device_fault')).body.data.ticket_id as number;
    const done = (await open(p.old.item.serial_number, 'billing')).body.data.ticket_id as number;
    await t.http.patch(`/payg/tickets/${newest}`).set(p.user.auth).send({ status: 'in_progress' }).expect(200);
    await t.http.patch(`/payg/tickets/${done}`).set(p.user.auth).send({ status: 'resolved', resolution: 'Explained the bill' }).expect(200);
    const rows = new Map((await list(p.user)).items.map((a) => [a.item_id, a.open_ticket]));
    expect(rows.get(p.twelve.item.id)).toEqual({ ticket_id: newest, category: 'device_fault', status: 'in_progress', opened_at: expect.any(String) });
    expect(rows.get(p.old.item.id)).toBeNull();
    expect(rows.get(p.recent.item.id)).toBeNull();
    // Resolving the newest shows the one still open; resolving that one too clears the mark.
    await t.http.patch(`/payg/tickets/${newest}`).set(p.user.auth).send({ status: 'resolved', resolution: 'New cable' }).expect(200);
    expect((await list(p.user)).items.find((a) => a.item_id === p.twelve.item.id)!.open_ticket).toMatchObject({ ticket_id: first, status: 'open' });
    await t.http.patch(`/payg/tickets/${first}`).set(p.user.auth).send({ status: 'resolved', resolution: 'Mounted' }).expect(200);
    expect((await list(p.user)).items.find((a) => a.item_id === p.twelve.item.id)!.open_ticket).toBeNull();
  });

  it('filters by days without credit, and counts each band', async () => {
    const p = await portfolio();
    const names = async (bucket: string) => (await list(p.user, { bucket })).items.map((a) => a.customer_name);
    expect(await names('0-7')).toEqual(['Recent Rehema']);
    expect(await names('8-30')).toEqual(['Twelve Tumaini']);
    expect(await names('31-90')).toEqual(['Never Njeri', 'Forty Faraji']);
    expect(await names('over-90')).toEqual(['Old Omondi']);
    expect(await names('all')).toHaveLength(5);
    const s = await summary(p.user);
    expect(s).toMatchObject({
      // Every assigned device not paid off, the one with credit left included.
      open_accounts: 6,
      out_of_credit: 5,
      buckets: [
        { bucket: '0-7', label: '0–7 days', devices: 1, outstanding: '10000.00' },
        // 600 paid on the 12-day device (the failed payment pays nothing).
        { bucket: '8-30', label: '8–30 days', devices: 1, outstanding: '9400.00' },
        { bucket: '31-90', label: '31–90 days', devices: 2, outstanding: '20000.00' },
        { bucket: 'over-90', label: 'Over 90 days', devices: 1, outstanding: '10000.00' },
      ],
      // The device with credit left owes its 10,000 too; the paid-off one nothing.
      outstanding: '59400.00',
      // Over 30 days without credit: 31–90 and over 90, 30,000 of 59,400.
      portfolio_at_risk_30: 0.5051,
    });
    expect(Date.now() - Date.parse(s.as_of)).toBeLessThan(60_000);
    // The business day (TIME_ZONE, Africa/Nairobi in the tests): the first day a promise may name.
    expect(s.today).toBe(new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' }));
  });

  it('follows the device: a payment that buys days takes it off, unassigning takes it off, running out puts it back', async () => {
    const { org, user } = await seedTenant(t);
    const d = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00' }, item: { token_count: 1 } });
    await setItem(org.id, d.item.id, { credit_until: ago(3) });
    expect((await list(user)).items.map((a) => a.serial_number)).toEqual([d.item.serial_number]);

    const paid = await t.http.post('/payg/payments').set(user.auth).send({ serial_number: d.item.serial_number, amount: '500', payment_method: 'cash' });
    expect(paid.status).toBe(201);
    expect((await list(user)).items).toEqual([]);
    expect((await summary(user)).open_accounts).toBe(1);

    await setItem(org.id, d.item.id, { credit_until: ago(1) });
    expect((await list(user)).items.map((a) => [a.serial_number, a.last_payment_amount])).toEqual([[d.item.serial_number, '500.00']]);

    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: d.item.serial_number }).expect(200);
    expect((await list(user)).items).toEqual([]);
    expect(await summary(user)).toMatchObject({ open_accounts: 0, out_of_credit: 0, outstanding: '0.00', portfolio_at_risk_30: 0 });
    expect(await t.db.db.openAccount.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('pages deep from the kept places, in the same order as the database', async () => {
    const { org, user } = await seedTenant(t);
    const c = await seedCustomer(t, org.id, { customer_name: 'Bulk Buyer' });
    // 150 devices out of credit for 1 to 150 hours: inserted in one statement (the statement-level trigger).
    await t.db.db.$executeRaw`
      INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, is_assigned, customer_id, assigned_at,
                         status, secret_key_enc, starting_code_enc, credit_until)
      SELECT ${org.id}, 'BULK-' || g, 'BULK' || g, 'Lamp', true, ${c.id}::int, now() - interval '200 days', 'assigned', 'x', 'x',
             now() - g * interval '1 hour'
      FROM generate_series(1, 150) g`;
    const all: string[] = [];
    for (let page = 1; page <= 8; page++) all.push(...(await list(user, { page, limit: 20 })).items.map((a) => a.serial_number));
    expect(all).toEqual(Array.from({ length: 150 }, (_, i) => `BULK-${i + 1}`));
    const deep = await list(user, { page: 7, limit: 20 });
    expect(deep.pagination).toEqual({ total: 150, total_pages: 8, page: 7, limit: 20 });
    expect(deep.items.map((a) => a.serial_number)).toEqual(all.slice(120, 140));
    expect((await list(user, { page: 9, limit: 20 })).items).toEqual([]);
  });

  it('exports a band as CSV, every row', async () => {
    const p = await portfolio();
    const res = await t.http.get('/payg/collections/export').query({ bucket: '31-90' }).set(p.user.auth).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="collections.csv"');
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe(
      'customer_id,customer_name,phone_number,serial_number,product_name,days_without_credit,out_of_credit_since,credit_until,' +
        'last_payment_at,last_payment_amount,total_paid,template_name,daily_price,currency,remaining,' +
        'last_contact_at,last_contact_outcome,promised_on,last_contact_note',
    );
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['Never Njeri', 'Forty Faraji']);
    expect(lines[2]).toContain(`,${p.fortyFive.item.serial_number},Solar Home System 50W,45,`);
    const everything = await t.http.get('/payg/collections/export').set(p.user.auth).expect(200);
    expect(everything.text.trim().split('\r\n')).toHaveLength(6);
  });

  it('refuses a bad bucket, page or limit with a 400 naming the field', async () => {
    const { user } = await seedTenant(t);
    for (const [query, field] of [
      [{ bucket: 'overdue' }, 'bucket'],
      [{ page: 0 }, 'page'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
    ] as const) {
      const res = await t.http.get('/payg/collections').query(query).set(user.auth);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const bad = await t.http.get('/payg/collections/export').query({ bucket: '5' }).set(user.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('bucket');
  });

  it("shows one organization none of another's accounts", async () => {
    const a = await portfolio();
    const b = await seedTenant(t);
    expect((await list(a.user)).items).toHaveLength(5);
    expect(await list(b.user)).toEqual({ items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 20 } });
    expect(await summary(b.user)).toMatchObject({ open_accounts: 0, out_of_credit: 0 });
    const csv = await t.http.get('/payg/collections/export').set(b.user.auth).expect(200);
    expect(csv.text.trim().split('\r\n')).toHaveLength(1);
    expect(csv.text).not.toContain('Rehema');
  });

  it('needs a signed-in user', async () => {
    await t.http.get('/payg/collections').expect(401);
    await t.http.get('/payg/collections/summary').expect(401);
    await t.http.get('/payg/collections/export').expect(401);
  });

  describe('contacts', () => {
    const day = (offset: number) => new Date(Date.now() + offset * DAY).toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' });
    const post = (user: SeededUser, itemId: number, body: object) => t.http.post(`/payg/collections/${itemId}/contacts`).set(user.auth).send(body);

    it('logs a promise to pay, shown on the row, in the history and in the export', async () => {
      const p = await portfolio();
      await post(p.user, p.twelve.item.id, { outcome: 'no_answer' }).expect(201);
      const res = await post(p.user, p.twelve.item.id, { outcome: 'promised_to_pay', promised_on: day(3), note: '  Will pay after market day  ' }).expect(201);
      const contact = ZContactReplySchema.parse(res.body).data;
      expect(contact).toMatchObject({
        item_id: p.twelve.item.id,
        customer_id: p.twelve.customer.id,
        outcome: 'promised_to_pay',
        promised_on: day(3),
        note: 'Will pay after market day',
        contacted_by: p.user.username,
        paid_at: null,
        promise_status: 'upcoming',
      });
      const row = (await list(p.user, { bucket: '8-30' })).items[0]!;
      expect(row.last_contact).toEqual(contact);
      expect((await list(p.user, { bucket: '0-7' })).items[0]!.last_contact).toBeNull();
      const history = ZContactListReplySchema.parse((await t.http.get(`/payg/collections/${p.twelve.item.id}/contacts`).set(p.user.auth).expect(200)).body).data;
      expect(history.map((c) => [c.outcome, c.promise_status])).toEqual([
        ['promised_to_pay', 'upcoming'],
        ['no_answer', null],
      ]);
      const csv = (await t.http.get('/payg/collections/export').query({ bucket: '8-30' }).set(p.user.auth).expect(200)).text;
      expect(csv).toContain(`,promised_to_pay,${day(3)},Will pay after market day`);
      const audit = await t.db.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM audit_logs WHERE organization_id = ${p.org.id} AND action = 'collection.contact_logged'`;
      expect(audit[0]!.n).toBe(2);
    });

    it('refuses a bad outcome, note or promised day with a 400 naming the field, and writes nothing', async () => {
      const p = await portfolio();
      for (const [body, field] of [
        [{ outcome: 'called' }, 'outcome'],
        [{}, 'outcome'],
        [{ outcome: 'promised_to_pay' }, 'promised_on'],
        [{ outcome: 'no_answer', promised_on: day(2) }, 'promised_on'],
        [{ outcome: 'promised_to_pay', promised_on: '2026-02-30' }, 'promised_on'],
        [{ outcome: 'promised_to_pay', promised_on: day(-1) }, 'promised_on'],
        [{ outcome: 'promised_to_pay', promised_on: day(91) }, 'promised_on'],
        [{ outcome: 'other', note: 'x'.repeat(501) }, 'note'],
      ] as const) {
        const res = await post(p.user, p.recent.item.id, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      await post(p.user, p.recent.item.id, { outcome: 'promised_to_pay', promised_on: day(90) }).expect(201);
      await post(p.user, p.recent.item.id, { outcome: 'promised_to_pay', promised_on: day(0) }).expect(201);
      expect(await t.db.db.collectionContact.count({ where: { organization_id: p.org.id } })).toBe(2);
      await t.http.post('/payg/collections/abc/contacts').set(p.user.auth).send({ outcome: 'other' }).expect(400);
    });

    it('keeps contacts with the customer: a device given to another customer starts without them; a device without one is a 409', async () => {
      const { org, user } = await seedTenant(t);
      const d = await seedCustomerWithDevice(t, org.id);
      await setItem(org.id, d.item.id, { credit_until: ago(4) });
      await post(user, d.item.id, { outcome: 'refused', note: 'Says the lamp is broken' }).expect(201);
      await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: d.item.serial_number }).expect(200);
      const none = await post(user, d.item.id, { outcome: 'other' });
      expect(none.status).toBe(409);
      expect(none.body.message).toBe(`Device ${d.item.serial_number} has no customer to contact`);
      expect((await t.http.get(`/payg/collections/${d.item.id}/contacts`).set(user.auth).expect(200)).body).toEqual({ data: [] });
      const other = await seedCustomer(t, org.id);
      await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: other.id, item_serial_number: d.item.serial_number }).expect(200);
      expect((await t.http.get(`/payg/collections/${d.item.id}/contacts`).set(user.auth).expect(200)).body).toEqual({ data: [] });
      expect((await list(user)).items.map((a) => [a.customer_id, a.last_contact])).toEqual([[other.id, null]]);
    });

    describe('promises to pay', () => {
      const promises = async (user: SeededUser, query: Record<string, string | number> = {}) =>
        ZPromisesReplySchema.parse((await t.http.get('/payg/collections/promises').query(query).set(user.auth).expect(200)).body).data;
      const promiseSummary = async (user: SeededUser) =>
        ZPromisesSummaryReplySchema.parse((await t.http.get('/payg/collections/promises/summary').set(user.auth).expect(200)).body).data;
      /** A contact logged `loggedDaysAgo` days ago, as a collector would have then (the API only takes days from today on). */
      const logged = async (orgId: string, d: { item: { id: number }; customer: { id: number } }, loggedDaysAgo: number, outcome: string, promisedIn: number | null) => {
        await t.db.db.$executeRaw`
          INSERT INTO collection_contacts (organization_id, item_id, customer_id, outcome, promised_on, created_at)
          VALUES (${orgId}, ${d.item.id}::int, ${d.customer.id}::int, ${outcome}::"ContactOutcome",
                  ${promisedIn === null ? null : day(promisedIn)}::date, ${ago(loggedDaysAgo)})`;
      };
      const paid = (orgId: string, d: { item: { id: number }; customer: { id: number } }, at: Date, status: 'completed' | 'failed' = 'completed') =>
        seedPayment(t, orgId, { customer_id: d.customer.id, item_id: d.item.id, amount: '120.00', paid_at: at, status });

      /**
       * Every status: broken (a payment before the promise and a failed one
       * after do not count), kept, paid late, due, upcoming, kept early; a
       * rescheduled promise, one followed by an unanswered call, one too old
       * for the window and one about a customer the device has left.
       */
      async function promiseBook() {
        const { org, user } = await seedTenant(t, { role: 'staff' });
        const mk = async (name: string) => {
          const d = await seedCustomerWithDevice(t, org.id);
          await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { customer_name: name } });
          await setItem(org.id, d.item.id, { credit_until: ago(10) });
          return d;
        };
        const broken = await mk('Broken Baraka');
        await paid(org.id, broken, ago(7));
        await logged(org.id, broken, 5, 'promised_to_pay', -2);
        await paid(org.id, broken, ago(1), 'failed');
        const kept = await mk('Kept Kamau');
        await logged(org.id, kept, 4, 'promised_to_pay', -1);
        await paid(org.id, kept, ago(3));
        const late = await mk('Late Lilian');
        await logged(org.id, late, 6, 'promised_to_pay', -4);
        await paid(org.id, late, ago(2));
        const due = await mk('Due Daudi');
        await post(user, due.item.id, { outcome: 'promised_to_pay', promised_on: day(0), note: 'Pays at noon' }).expect(201);
        const upcoming = await mk('Upcoming Upendo');
        await post(user, upcoming.item.id, { outcome: 'promised_to_pay', promised_on: day(3) }).expect(201);
        const early = await mk('Early Esther');
        await post(user, early.item.id, { outcome: 'promised_to_pay', promised_on: day(5) }).expect(201);
        await paid(org.id, early, new Date(Date.now() + 1000));
        const rescheduled = await mk('Rescheduled Rose');
        await logged(org.id, rescheduled, 12, 'promised_to_pay', -10);
        await post(user, rescheduled.item.id, { outcome: 'promised_to_pay', promised_on: day(2) }).expect(201);
        const followed = await mk('Followed Fatuma');
        await logged(org.id, followed, 8, 'promised_to_pay', -6);
        await logged(org.id, followed, 3, 'no_answer', null);
        const old = await mk('Old Otieno');
        await logged(org.id, old, 100, 'promised_to_pay', -91);
        const moved = await mk('Moved Musa');
        await logged(org.id, moved, 3, 'promised_to_pay', -1);
        const next = await seedCustomer(t, org.id);
        await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: moved.item.serial_number }).expect(200);
        await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: next.id, item_serial_number: moved.item.serial_number }).expect(200);
        return { org, user, broken, kept, late, due, upcoming, early, rescheduled, followed };
      }

      it('judges each device\'s latest promise by its first payment since, against the end of the promised day', async () => {
        const b = await promiseBook();
        const all = await promises(b.user);
        expect(all.items.map((r) => [r.customer_name, r.status, r.contact.promised_on])).toEqual([
          ['Early Esther', 'kept', day(5)],
          ['Upcoming Upendo', 'upcoming', day(3)],
          ['Rescheduled Rose', 'upcoming', day(2)],
          ['Due Daudi', 'due', day(0)],
          ['Kept Kamau', 'kept', day(-1)],
          ['Broken Baraka', 'broken', day(-2)],
          ['Late Lilian', 'paid_late', day(-4)],
          ['Followed Fatuma', 'broken', day(-6)],
        ]);
        expect(all.pagination).toEqual({ total: 8, total_pages: 1, page: 1, limit: 20 });
        const dueRow = all.items[3]!;
        expect(dueRow).toMatchObject({
          item_id: b.due.item.id,
          serial_number: b.due.item.serial_number,
          customer_id: b.due.customer.id,
          days_without_credit: 10,
          paid_at: null,
          paid_amount: null,
          contact: { outcome: 'promised_to_pay', note: 'Pays at noon', contacted_by: b.user.username, item_id: b.due.item.id },
        });
        const keptRow = all.items[4]!;
        expect(keptRow.paid_amount).toBe('120.00');
        expect(Math.abs(Date.parse(keptRow.paid_at!) - ago(3).getTime())).toBeLessThan(60_000);
        // The broken promise's payments: one before it was made, one failed after.
        expect(all.items[5]).toMatchObject({ paid_at: null, paid_amount: null });

        const s = await promiseSummary(b.user);
        expect(s).toEqual({
          today: day(0),
          from: day(-90),
          counts: { due: 1, broken: 2, upcoming: 2, kept: 2, paid_late: 1 },
          // Kept 2 of the 5 settled (kept 2, paid late 1, broken 2).
          kept_rate: 40,
        });
      });

      it('filters by status, soonest first for upcoming, most recent day first for broken, and pages', async () => {
        const b = await promiseBook();
        const names = async (status: string, query: Record<string, string | number> = {}) =>
          (await promises(b.user, { status, ...query })).items.map((r) => r.customer_name);
        expect(await names('upcoming')).toEqual(['Rescheduled Rose', 'Upcoming Upendo']);
        expect(await names('broken')).toEqual(['Broken Baraka', 'Followed Fatuma']);
        expect(await names('due')).toEqual(['Due Daudi']);
        expect(await names('kept')).toEqual(['Early Esther', 'Kept Kamau']);
        expect(await names('paid_late')).toEqual(['Late Lilian']);
        const second = await promises(b.user, { page: 2, limit: 3 });
        expect(second.items.map((r) => r.customer_name)).toEqual(['Due Daudi', 'Kept Kamau', 'Broken Baraka']);
        expect(second.pagination).toEqual({ total: 8, total_pages: 3, page: 2, limit: 3 });
        const past = await promises(b.user, { status: 'broken', page: 4 });
        expect(past).toEqual({ items: [], pagination: { total: 2, total_pages: 1, page: 4, limit: 20 } });
        // A payment now settles the broken promise, after its day: paid late.
        await paid(b.org.id, b.broken, new Date());
        expect(await names('broken')).toEqual(['Followed Fatuma']);
        expect(await names('paid_late')).toEqual(['Broken Baraka', 'Late Lilian']);
      });

      it('follows payments as they are written: a payment recorded, a held one applied later, an earlier one arriving late', async () => {
        const { org, user } = await seedTenant(t);
        const status = async () => (await promises(user)).items.map((r) => [r.customer_id, r.status, r.paid_amount]);
        // A staff payment after the promise: kept.
        const a = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
        await post(user, a.item.id, { outcome: 'promised_to_pay', promised_on: day(1) }).expect(201);
        expect(await status()).toEqual([[a.customer.id, 'upcoming', null]]);
        await t.http.post('/payg/payments').set(user.auth).send({ serial_number: a.item.serial_number, amount: 60, payment_method: 'cash' }).expect(201);
        expect(await status()).toEqual([[a.customer.id, 'kept', '60.00']]);
        // The device's history says so too.
        const history = ZContactListReplySchema.parse((await t.http.get(`/payg/collections/${a.item.id}/contacts`).set(user.auth).expect(200)).body).data;
        expect(history[0]).toMatchObject({ outcome: 'promised_to_pay', promise_status: 'kept' });
        expect(history[0]!.paid_at).not.toBeNull();
        // A payment held (no device matched), then matched to the device by staff: kept from then.
        const b = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
        await post(user, b.item.id, { outcome: 'promised_to_pay', promised_on: day(0) }).expect(201);
        // Paid a moment after the promise (a minute later failed the test in the last minute of the business day: paid late).
        const held = await seedPayment(t, org.id, { status: 'pending', amount: '40.00', paid_at: new Date(Date.now() + 2_000) });
        expect((await promises(user, { status: 'due' })).items.map((r) => r.customer_id)).toEqual([b.customer.id]);
        await t.http.post(`/payg/payments/${held.id}/match`).set(user.auth).send({ serial_number: b.item.serial_number }).expect(200);
        expect((await promises(user, { status: 'due' })).items).toEqual([]);
        expect((await promises(user, { status: 'kept' })).items.map((r) => [r.customer_id, r.paid_amount])).toEqual([
          [a.customer.id, '60.00'],
          [b.customer.id, '40.00'],
        ]);
        // Two payments written out of order: the first one since the promise counts.
        const c = await seedCustomerWithDevice(t, org.id);
        await post(user, c.item.id, { outcome: 'promised_to_pay', promised_on: day(2) }).expect(201);
        await paid(org.id, c, new Date(Date.now() + 2 * 3_600_000));
        await seedPayment(t, org.id, { customer_id: c.customer.id, item_id: c.item.id, amount: '75.00', paid_at: new Date(Date.now() + 3_600_000) });
        const row = (await promises(user, { status: 'kept' })).items.find((r) => r.customer_id === c.customer.id)!;
        expect(row.paid_amount).toBe('75.00');
        // Many payments in one statement (an import): each promise takes its device's earliest successful one since.
        const d = await seedCustomerWithDevice(t, org.id);
        const e = await seedCustomerWithDevice(t, org.id);
        await post(user, d.item.id, { outcome: 'promised_to_pay', promised_on: day(3) }).expect(201);
        await post(user, e.item.id, { outcome: 'promised_to_pay', promised_on: day(3) }).expect(201);
        const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
        const row2 = (item: { id: number }, customer: { id: number }, amount: string, paid_at: Date, status: 'completed' | 'failed' = 'completed') => ({
          organization_id: org.id, item_id: item.id, customer_id: customer.id, amount, status, payment_method: 'bank', source: 'sms', paid_at, created_at: paid_at,
        });
        await t.db.db.payment.createMany({
          data: [
            row2(d.item, d.customer, '30.00', at(30)),
            row2(d.item, d.customer, '10.00', at(5), 'failed'),
            row2(d.item, d.customer, '20.00', at(10)),
            row2(e.item, e.customer, '90.00', at(20)),
          ],
        });
        const byCustomer = new Map((await promises(user, { status: 'kept' })).items.map((r) => [r.customer_id, r.paid_amount]));
        expect([byCustomer.get(d.customer.id), byCustomer.get(e.customer.id)]).toEqual(['20.00', '90.00']);
      });

      it('counts a payment in the last minute of the promised business day as kept, and one a minute after as late', async () => {
        const { org, user } = await seedTenant(t);
        // The end of day(-2) in Africa/Nairobi (UTC+3 all year): the next day's local midnight.
        const end = Date.parse(`${day(-1)}T00:00:00+03:00`);
        const onTime = await seedCustomerWithDevice(t, org.id);
        const late = await seedCustomerWithDevice(t, org.id);
        for (const [d, at] of [[onTime, end - 60_000], [late, end + 60_000]] as const) {
          await logged(org.id, d, 4, 'promised_to_pay', -2);
          await paid(org.id, d, new Date(at));
        }
        const rows = (await promises(user)).items.map((r) => [r.customer_id, r.status]);
        expect(rows).toEqual(expect.arrayContaining([[onTime.customer.id, 'kept'], [late.customer.id, 'paid_late']]));
        expect((await promiseSummary(user)).counts).toMatchObject({ kept: 1, paid_late: 1 });
        expect((await promises(user, { status: 'kept' })).items.map((r) => r.customer_id)).toEqual([onTime.customer.id]);
        expect((await promises(user, { status: 'paid_late' })).items.map((r) => r.customer_id)).toEqual([late.customer.id]);
      });

      it('counts from totals per promised day that equal counting the promises, through deletions, bulk writes and compaction', async () => {
        const b = await promiseBook();
        /** The totals by day and kind, and the same counted from the promises themselves. */
        const both = async () => {
          const kept = await t.db.query<{ day: string; kind: string; n: number }>(Prisma.sql`
            SELECT to_char(promised_on, 'YYYY-MM-DD') AS day, kind, sum(n)::int AS n FROM promise_stats
            WHERE organization_id = ${b.org.id} GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`);
          const counted = await t.db.query<{ day: string; kind: string; n: number }>(Prisma.sql`
            SELECT to_char(promised_on, 'YYYY-MM-DD') AS day,
                   CASE WHEN paid_at IS NULL THEN 'unpaid' WHEN paid_at < kidogo_day_start(promised_on + 1) THEN 'kept' ELSE 'late' END AS kind,
                   count(*)::int AS n
            FROM collection_contacts
            WHERE organization_id = ${b.org.id} AND outcome = 'promised_to_pay' AND NOT superseded AND promised_on IS NOT NULL
            GROUP BY 1, 2 ORDER BY 1, 2`);
          return { kept, counted };
        };
        let s = await both();
        // The book's eight promises in the list, and the one too old for its window.
        expect(s.kept.reduce((n, r) => n + r.n, 0)).toBe(9);
        expect(s.kept).toEqual(s.counted);

        // Promises deleted (as a device's or customer's deletion does, ON DELETE CASCADE), two in one statement.
        await t.db.query(Prisma.sql`
          DELETE FROM collection_contacts WHERE organization_id = ${b.org.id} AND item_id IN (${b.kept.item.id}::int, ${b.late.item.id}::int)`);
        // Promises written in bulk, one of them paid at once by a bulk payment.
        const more = await Promise.all([1, 2, 3].map(() => seedCustomerWithDevice(t, b.org.id)));
        await t.db.query(Prisma.sql`
          INSERT INTO collection_contacts (organization_id, item_id, customer_id, outcome, promised_on, created_at)
          SELECT ${b.org.id}, (x->>'item')::int, (x->>'customer')::int, 'promised_to_pay', ${day(1)}::date, now() - interval '1 hour'
          FROM jsonb_array_elements(${JSON.stringify(more.map((d) => ({ item: d.item.id, customer: d.customer.id })))}::jsonb) x`);
        await paid(b.org.id, more[0]!, new Date());
        s = await both();
        expect(s.kept).toEqual(s.counted);
        expect((await promiseSummary(b.user)).counts).toEqual({ due: 1, broken: 2, upcoming: 4, kept: 2, paid_late: 0 });

        await t.app.get(StatsService).compact();
        const rows = await t.db.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM promise_stats WHERE organization_id = ${b.org.id}`);
        expect(rows[0]!.n).toBe(s.kept.length);
        expect((await both()).kept).toEqual(s.counted);
        expect((await promiseSummary(b.user)).counts).toEqual({ due: 1, broken: 2, upcoming: 4, kept: 2, paid_late: 0 });
      });

      it('keeps one promise per device when two are logged at once', async () => {
        const { org, user } = await seedTenant(t);
        const d = await seedCustomerWithDevice(t, org.id);
        const sent = await Promise.all([1, 2, 3, 4].map((n) => post(user, d.item.id, { outcome: 'promised_to_pay', promised_on: day(n) })));
        expect(sent.map((r) => r.status)).toEqual([201, 201, 201, 201]);
        const listed = await promises(user);
        expect(listed.items).toHaveLength(1);
        const newest = Math.max(...sent.map((r) => r.body.data.contact_id as number));
        expect(listed.items[0]!.contact.contact_id).toBe(newest);
        expect((await promiseSummary(user)).counts.upcoming).toBe(1);
      });

      it('refuses a bad status, page or limit with a 400 naming the field', async () => {
        const { user } = await seedTenant(t);
        for (const [query, field] of [
          [{ status: 'late' }, 'status'],
          [{ page: 0 }, 'page'],
          [{ page: 'x' }, 'page'],
          [{ limit: 101 }, 'limit'],
        ] as const) {
          const res = await t.http.get('/payg/collections/promises').query(query).set(user.auth);
          expect({ query, status: res.status }).toEqual({ query, status: 400 });
          expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
        }
        await t.http.get('/payg/collections/promises').expect(401);
        await t.http.get('/payg/collections/promises/summary').expect(401);
      });

      it("shows one organization none of another's promises", async () => {
        const a = await promiseBook();
        const b = await seedTenant(t);
        expect(await promises(b.user)).toEqual({ items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 20 } });
        expect((await promiseSummary(b.user)).counts).toEqual({ due: 0, broken: 0, upcoming: 0, kept: 0, paid_late: 0 });
        expect((await promiseSummary(b.user)).kept_rate).toBeNull();
        expect((await promises(a.user)).pagination.total).toBe(8);
      });
    });

    it("lets no organization read or write another's contacts", async () => {
      const a = await portfolio();
      const b = await seedTenant(t);
      await post(a.user, a.old.item.id, { outcome: 'wrong_number', note: 'Secret note of A' }).expect(201);
      const write = await post(b.user, a.old.item.id, { outcome: 'other', note: 'from B' });
      expect(write.status).toBe(404);
      expect(write.body.message).toBe('Device not found');
      const read = await t.http.get(`/payg/collections/${a.old.item.id}/contacts`).set(b.user.auth);
      expect(read.status).toBe(404);
      expect(read.text).not.toContain('Secret note');
      expect(await t.db.db.collectionContact.count({ where: { organization_id: a.org.id } })).toBe(1);
      expect(await t.db.db.collectionContact.count({ where: { organization_id: b.org.id } })).toBe(0);
    });
  });
});
