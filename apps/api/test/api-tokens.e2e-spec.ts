import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZApiTokenCreatedSchema, ZApiTokenListReplySchema, ZSessionUserSchema } from '@kidogo/contracts';
import { sha256 } from '../src/common/crypto.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedTenant, seedUser, type SeededUser } from './support/factories.js';

// API tokens for integrations (README "Security", "API tokens"): a kdg_pat_
// bearer that acts as its user until revoked, expired, or its user is
// deactivated or has their password reset.

describe('API tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const create = (user: SeededUser, body: object = { name: 'ERP sync' }) => t.http.post('/payg/auth/api-tokens').set(user.auth).send(body);
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const list = async (user: SeededUser) => ZApiTokenListReplySchema.parse((await t.http.get('/payg/auth/api-tokens').set(user.auth).expect(200)).body).data;

  it('makes a token shown once that acts as its user, with their role, and counts its last use', async () => {
    const { user: owner, org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const made = ZApiTokenCreatedSchema.parse((await create(staff, { name: '  Field app  ' }).expect(201)).body);
    expect(made.token).toMatch(/^kdg_pat_[A-Za-z0-9_-]{40}$/);
    expect(made).toMatchObject({ name: 'Field app', hint: `kdg_pat_…${made.token.slice(-4)}`, username: staff.username, last_used_at: null, expired: false });
    const days = (Date.parse(made.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    // Only its hash is kept.
    const row = await t.db.db.apiToken.findFirstOrThrow({ where: { id: made.id, organization_id: org.id } });
    expect(row.token_hash).toBe(sha256(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token);

    // It is the staff user: their reads, not the owner's routes.
    const me = ZSessionUserSchema.parse((await t.http.get('/payg/me').set(bearer(made.token)).expect(200)).body);
    expect(me).toMatchObject({ username: staff.username, role: 'staff', organization_id: org.id });
    await t.http.get('/payg/registered-customers').set(bearer(made.token)).expect(200);
    await t.http.get('/payg/audit-log').set(bearer(made.token)).expect(403);
    // Its use is seen (written in the background, at most once a minute).
    let seen = (await list(staff))[0]!.last_used_at;
    for (let i = 0; i < 40 && seen === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = (await list(staff))[0]!.last_used_at;
    }
    expect(seen).not.toBeNull();
    // Not listed to the token's text anywhere but the creation reply.
    expect(JSON.stringify(await list(owner))).not.toContain(made.token);
    // An owner sees every token of the organization, a staff user their own.
    const ownerToken = ZApiTokenCreatedSchema.parse((await create(owner, { name: 'Accounting', expires_in_days: null }).expect(201)).body);
    expect(ownerToken.expires_at).toBeNull();
    expect((await list(owner)).map((x) => [x.name, x.username])).toEqual([
      ['Accounting', owner.username],
      ['Field app', staff.username],
    ]);
    expect((await list(staff)).map((x) => x.name)).toEqual(['Field app']);
    // A token cannot make another.
    expect((await t.http.post('/payg/auth/api-tokens').set(bearer(made.token)).send({ name: 'More' }).expect(403)).body.message).toBe(
      'An API token cannot create API tokens: sign in to make one',
    );
  });

  it('makes read-only tokens that read (GET routes, searches, reports) and change nothing', async () => {
    const { user: owner, org } = await seedTenant(t);
    const made = ZApiTokenCreatedSchema.parse((await create(owner, { name: 'Warehouse', read_only: true }).expect(201)).body);
    expect(made.read_only).toBe(true);
    const ro = bearer(made.token);
    await t.http.get('/payg/registered-customers').set(ro).expect(200);
    await t.http.get('/payg/audit-log').set(ro).expect(200);
    await t.http.post('/payg/reports/page').set(ro).send({ report: 'revenue' }).expect(200);
    await t.http.post('/payg/items/search').set(ro).send({ query: '' }).expect(200);
    const refused = 'This API token is read-only: it may read, not change anything';
    const res = await t.http.post('/payg/register-customer').set(ro).send({ customer_name: 'Nope', id_number: '77001', phone_contact: '0712000777' }).expect(403);
    expect(res.body.message).toBe(refused);
    expect((await t.http.delete(`/payg/auth/api-tokens/${made.id}`).set(ro).expect(403)).body.message).toBe(refused);
    await t.http.post('/payg/webhooks').set(ro).send({ url: 'https://erp.example.com/x', events: ['token.issued'] }).expect(403);
    expect(await t.db.db.customer.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.db.webhookEndpoint.count({ where: { organization_id: org.id } })).toBe(0);
    // A full token of the same user writes.
    const full = ZApiTokenCreatedSchema.parse((await create(owner, { name: 'ERP' }).expect(201)).body);
    expect(full.read_only).toBe(false);
    await t.http.post('/payg/register-customer').set(bearer(full.token)).send({ customer_name: 'Yes', id_number: '77002', phone_contact: '0712000778' }).expect(201);
    await bad(owner, { name: 'A', read_only: 'yes' }, 'read_only: must be true or false');
  });

  const bad = async (user: SeededUser, body: object, message: string) => expect((await create(user, body).expect(400)).body.message).toBe(message);

  it('stops working when revoked, expired, or its user is deactivated or has a password reset', async () => {
    const { user: owner, org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const a = ZApiTokenCreatedSchema.parse((await create(staff, { name: 'A' }).expect(201)).body);
    const b = ZApiTokenCreatedSchema.parse((await create(staff, { name: 'B' }).expect(201)).body);
    const c = ZApiTokenCreatedSchema.parse((await create(staff, { name: 'C' }).expect(201)).body);
    // Revoked by its owner...
    expect((await t.http.delete(`/payg/auth/api-tokens/${a.id}`).set(staff.auth).expect(200)).body).toEqual({ message: 'API token "A" revoked' });
    expect((await t.http.get('/payg/me').set(bearer(a.token)).expect(401)).body.message).toBe('Invalid API token');
    await t.http.delete(`/payg/auth/api-tokens/${a.id}`).set(staff.auth).expect(404);
    // ... or by an owner, for a token that leaked.
    await t.http.delete(`/payg/auth/api-tokens/${b.id}`).set(owner.auth).expect(200);
    await t.http.get('/payg/me').set(bearer(b.token)).expect(401);
    // Expired.
    await t.db.db.apiToken.updateMany({ where: { id: c.id, organization_id: org.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect((await t.http.get('/payg/me').set(bearer(c.token)).expect(401)).body.message).toBe('This API token has expired');
    expect((await list(staff)).find((x) => x.id === c.id)).toMatchObject({ expired: true });

    // A password reset by a manager ends the tokens made before it.
    const d = ZApiTokenCreatedSchema.parse((await create(staff, { name: 'D' }).expect(201)).body);
    await t.http.get('/payg/me').set(bearer(d.token)).expect(200);
    await new Promise((r) => setTimeout(r, 5));
    await t.http.put(`/payg/users/${staff.user_id}`).set(owner.auth).send({ password: 'a-new-password-1' }).expect(200);
    expect((await t.http.get('/payg/me').set(bearer(d.token)).expect(401)).body.message).toBe('This API token is no longer valid');
    // Deactivation ends them too.
    const login = await t.http.post('/payg/authenticate').send({ username: staff.username, password: 'a-new-password-1' }).expect(200);
    const e = ZApiTokenCreatedSchema.parse((await create({ ...staff, auth: { Authorization: `Bearer ${login.body.access_token}` } }, { name: 'E' }).expect(201)).body);
    await t.http.get('/payg/me').set(bearer(e.token)).expect(200);
    await t.http.put(`/payg/users/${staff.user_id}`).set(owner.auth).send({ is_active: false }).expect(200);
    await t.http.get('/payg/me').set(bearer(e.token)).expect(401);
    // A made-up token.
    expect((await t.http.get('/payg/me').set(bearer('kdg_pat_madeupmadeupmadeupmadeupmadeupmadeup')).expect(401)).body.message).toBe('Invalid API token');

    const audit = await t.db.db.auditLog.findMany({ where: { organization_id: org.id, action: { startsWith: 'api_token.' } }, orderBy: { id: 'asc' } });
    expect(audit.map((x) => x.action)).toEqual([
      'api_token.created',
      'api_token.created',
      'api_token.created',
      'api_token.revoked',
      'api_token.revoked',
      'api_token.created',
      'api_token.created',
    ]);
    expect(audit[4]!.description).toBe(`API token "B" of ${staff.username} revoked by ${owner.username}`);
  });

  it('validates the name and the expiry, caps the tokens a user holds, and keeps to the organization', async () => {
    const { user: owner, org } = await seedTenant(t);
    const bad = async (body: object, message: string) => expect((await create(owner, body).expect(400)).body.message).toBe(message);
    await bad({}, 'name: is required');
    await bad({ name: '   ' }, 'name: is required');
    await bad({ name: 'x'.repeat(101) }, 'name: must be at most 100 characters');
    await bad({ name: 'A', expires_in_days: 0 }, 'expires_in_days: must be at least 1');
    await bad({ name: 'A', expires_in_days: 366 }, 'expires_in_days: must be at most 365');
    await bad({ name: 'A', expires_in_days: 1.5 }, 'expires_in_days: must be a whole number of days');
    await bad({ name: 'A', expires_in_days: '30' }, 'expires_in_days: must be a whole number of days from 1 to 365, or null for never');
    expect(await t.db.db.apiToken.count({ where: { organization_id: org.id } })).toBe(0);
    for (let i = 0; i < 20; i++) await create(owner, { name: `T${i}` }).expect(201);
    expect((await create(owner, { name: 'T20' }).expect(409)).body.message).toBe('You already have 20 API tokens: revoke one you no longer use first');

    // Another organization's owner neither sees nor revokes them; a staff user cannot revoke another's.
    const [first] = await list(owner);
    const other = await seedTenant(t);
    expect(await list(other.user)).toEqual([]);
    await t.http.delete(`/payg/auth/api-tokens/${first!.id}`).set(other.user.auth).expect(404);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.delete(`/payg/auth/api-tokens/${first!.id}`).set(staff.auth).expect(404);
    expect(await t.db.db.apiToken.count({ where: { organization_id: org.id, revoked_at: null } })).toBe(20);
    await t.http.get('/payg/auth/api-tokens').expect(401);
  });
});
