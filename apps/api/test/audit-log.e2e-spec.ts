import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZAuditLogReplySchema, type AuditEntry } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { payCash } from './support/plans.js';
import { DEFAULT_PASSWORD, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

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
