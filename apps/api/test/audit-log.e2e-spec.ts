import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { AUDIT_LOG_CSV_COLUMNS, ZAuditLogReplySchema, type AuditEntry } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { payCash } from './support/plans.js';
import { DEFAULT_PASSWORD, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { settledAuditEntry } from './support/audit.js';

// GET /payg/audit-log: the organization's own audit entries for its owners
// and admins (README "Security", the Activity Log page).

describe('the activity log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const log = async (user: SeededUser, query: Record<string, string | number> = {}) =>
    ZAuditLogReplySchema.parse((await t.http.get('/payg/audit-log').query(query).set(user.auth).expect(200)).body);
  /** Every page, following next_cursor. */
  const all = async (user: SeededUser, query: Record<string, string | number> = {}) => {
    const seen: AuditEntry[] = [];
    let cursor: string | null = null;
    do {
      const page = await log(user, { ...query, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return seen;
  };

  it("lists what the organization's people and system did, newest first, with each entry's kind and details", async () => {
    const { user, org } = await seedTenant(t);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    // A sign-in, a customer, a token by hand, a payment reversed.
    await t.http.post('/payg/authenticate').type('form').send({ username: admin.username, password: DEFAULT_PASSWORD }).expect(200);
    const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
    await t.http.post('/payg/generate-token-by-days').set(admin.auth).send({ serial_number: s.item.serial_number, number_of_days: 2 }).expect(200);
    const paid = await payCash(t, user, s.item.serial_number, '60.00');
    await t.http.post(`/payg/payments/${paid.payment_id}/reverse`).set(user.auth).send({ reason: 'Wrong device' }).expect(200);

    const entries = await all(user);
    expect(entries.map((e) => [e.action, e.category, e.actor])).toEqual([
      ['payment.reverse', 'payments', user.username],
      ['token.generate', 'tokens', user.username],
      ['token.generate', 'tokens', admin.username],
      ['auth.login', 'sign_ins', admin.username],
    ]);
    const times = entries.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const reversal = entries[0]!;
    expect(reversal).toMatchObject({ entity_type: 'payment', entity_id: String(paid.payment_id), ip: null });
    expect(reversal.description).toMatch(/reversed from device .* held for matching: Wrong device$/);
    expect(reversal.details).toMatchObject({ reason: 'Wrong device', serial_number: s.item.serial_number, days_removed: 3 });
    expect(entries[3]!.ip).toEqual(expect.any(String));
  });

  it('pages by cursor with no entry missed or repeated, even many in one millisecond', async () => {
    const { user, org } = await seedTenant(t);
    const at = new Date('2026-11-20T08:00:00.000Z');
    await t.db.platform.auditLog.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({
        organization_id: org.id,
        actor_username: i % 2 ? 'amina' : 'otieno',
        action: i % 3 ? 'customer.created' : 'item.deleted',
        description: `entry ${i}`,
        // Seven share one millisecond: the page order breaks their tie by id.
        created_at: i < 7 ? at : new Date(at.getTime() + i * 60_000),
      })),
    });
    const first = await log(user, { limit: 5 });
    expect(first.data).toHaveLength(5);
    expect(first.next_cursor).toEqual(expect.any(String));
    const every = await all(user, { limit: 5 });
    expect(every).toHaveLength(23);
    expect(new Set(every.map((e) => e.id)).size).toBe(23);
    expect(every.slice(-7).map((e) => e.id)).toEqual(every.slice(-7).map((e) => e.id).sort((a, b) => b - a));
    // The last page says so.
    const last = await log(user, { limit: 23 });
    expect(last.next_cursor).toBeNull();

    // By kind, by user, by dates; and all three.
    expect((await all(user, { category: 'devices', limit: 3 })).map((e) => e.action)).toEqual(Array(8).fill('item.deleted'));
    expect((await all(user, { actor: 'amina' })).every((e) => e.actor === 'amina')).toBe(true);
    expect(await all(user, { actor: 'amina' })).toHaveLength(11);
    expect(await all(user, { from: '2026-11-20T08:10:00.000Z', to: '2026-11-20T08:15:00.000Z' })).toHaveLength(6);
    expect(await all(user, { category: 'customers', actor: 'otieno', from: '2026-11-20T08:10:00.000Z', limit: 2 })).toHaveLength(5);
    expect((await log(user, { category: 'payments' })).data).toEqual([]);
  });

  it('is for owners and admins of the organization, and names a bad field', async () => {
    const { user, org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.get('/payg/audit-log').set(staff.auth).expect(403);
    await t.http.get('/payg/audit-log').expect(401);
    for (const [query, detail] of [
      [{ cursor: 'yesterday' }, 'cursor: must be the next_cursor of the page before'],
      [{ category: 'everything' }, 'category: must be one of sign_ins, team, payments, tokens, devices, customers, plans, collections, settings, invoices'],
      [{ limit: 0 }, 'limit:'],
      [{ limit: 101 }, 'limit:'],
      [{ from: '2026-02-30' }, 'from:'],
      [{ from: '2026-11-21', to: '2026-11-20' }, 'from: must not be after to'],
      [{ actor: 'x'.repeat(101) }, 'actor: must be at most 100 characters'],
    ] as const) {
      const res = await t.http.get('/payg/audit-log').query(query).set(user.auth).expect(400);
      expect(res.body.detail).toContain(detail);
    }
  });

  /** GET /audit-log/export as rows of cells, after checking its headers. */
  const exported = async (user: SeededUser, query: Record<string, string> = {}) => {
    const res = await t.http.get('/payg/audit-log/export').query(query).set(user.auth).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="activity-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parse(res.body as string, { bom: true, relax_column_count: false }) as string[][];
    expect(header).toEqual([...AUDIT_LOG_CSV_COLUMNS]);
    return rows;
  };

  it('exports every entry the filters match as CSV, in the order of the pages, in batches that miss none', async () => {
    const { user, org } = await seedTenant(t);
    const at = new Date('2026-11-20T08:00:00.000Z');
    // 2,345 entries: more than two export batches, with 1,100 in one millisecond across a batch's end.
    await t.db.platform.auditLog.createMany({
      data: Array.from({ length: 2345 }, (_, i) => ({
        organization_id: org.id,
        actor_username: i % 2 ? 'amina' : 'otieno',
        action: i % 3 ? 'customer.created' : 'item.deleted',
        entity_type: 'customer',
        entity_id: String(i),
        description: i === 7 ? '=HYPERLINK("http://x", "click"), said "hi"' : `entry ${i}`,
        metadata: i === 7 ? { note: 'a, b' } : undefined,
        created_at: i < 1100 ? at : new Date(at.getTime() + i * 1000),
      })),
    });
    const pages = await all(user, { limit: 100 });
    const rows = await exported(user);
    expect(rows).toHaveLength(2345);
    expect(rows.map((r) => r[6])).toEqual(pages.map((e) => e.entity_id));
    const seventh = rows.find((r) => r[6] === '7')!;
    // A cell a spreadsheet would run as a formula is kept as text; commas and quotes survive.
    expect(seventh).toEqual([at.toISOString(), 'customers', 'customer.created', 'amina', `'=HYPERLINK("http://x", "click"), said "hi"`, 'customer', '7', '', '{"note":"a, b"}']);

    // The filters of the list.
    const amina = await exported(user, { actor: 'amina', category: 'customers' });
    expect(amina.map((r) => r[6])).toEqual((await all(user, { actor: 'amina', category: 'customers', limit: 100 })).map((e) => e.entity_id));
    expect(new Set(amina.map((r) => `${r[3]} ${r[2]}`))).toEqual(new Set(['amina customer.created']));
    const day = await exported(user, { from: '2026-11-20', to: '2026-11-20' });
    expect(day.length).toBe((await all(user, { from: '2026-11-20', to: '2026-11-20', limit: 100 })).length);

    // Recorded, with what it exported.
    const entry = await settledAuditEntry(t, { organization_id: org.id, action: 'audit_log.exported', description: `Exported ${day.length} Activity Log entries to CSV` });
    expect(entry).toMatchObject({ actor_username: user.username, description: `Exported ${day.length} Activity Log entries to CSV` });
    expect(entry?.metadata).toMatchObject({ count: day.length, complete: true, filters: { from: '2026-11-20', to: '2026-11-20' } });
    expect((await log(user, { category: 'settings' })).data[0]).toMatchObject({ action: 'audit_log.exported', category: 'settings' });
  });

  it('exports for owners and admins only, never another organization\'s entries, and names a bad filter', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    await t.db.platform.auditLog.createMany({
      data: [
        { organization_id: a.org.id, actor_username: 'shared-name', action: 'customer.deleted', description: 'A deleted a customer' },
        { organization_id: b.org.id, actor_username: 'shared-name', action: 'customer.deleted', description: 'B deleted a customer' },
      ],
    });
    expect((await exported(a.user, { actor: 'shared-name' })).map((r) => r[4])).toEqual(['A deleted a customer']);
    expect((await exported(b.user, { actor: 'shared-name' })).map((r) => r[4])).toEqual(['B deleted a customer']);
    const staff = await seedUser(t, { organization_id: a.org.id, role: 'staff' });
    await t.http.get('/payg/audit-log/export').set(staff.auth).expect(403);
    expect((await t.http.get('/payg/audit-log/export').query({ category: 'everything' }).set(a.user.auth).expect(400)).body.detail).toContain('category: must be one of');
    expect((await t.http.get('/payg/audit-log/export').query({ from: '2026-11-21', to: '2026-11-20' }).set(a.user.auth).expect(400)).body.detail).toContain('from: must not be after to');
  });

  it("never shows another organization's entries, whatever the filter", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    await t.db.platform.auditLog.createMany({
      data: [
        { organization_id: a.org.id, actor_username: 'shared-name', action: 'customer.deleted', description: 'A deleted a customer' },
        { organization_id: b.org.id, actor_username: 'shared-name', action: 'customer.deleted', description: 'B deleted a customer' },
        { organization_id: null, actor_username: 'shared-name', action: 'customer.deleted', description: 'Nobody’s entry' },
      ],
    });
    for (const query of [{}, { actor: 'shared-name' }, { category: 'customers' }] as Record<string, string>[]) {
      expect((await all(a.user, query)).map((e) => e.description)).toEqual(['A deleted a customer']);
      expect((await all(b.user, query)).map((e) => e.description)).toEqual(['B deleted a customer']);
    }
  });
});
