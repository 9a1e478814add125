import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZUserListSchema, ZUserSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedRoles, seedTenant, seedUser, type SeededUser } from './support/factories.js';

describe('users: the super admin console and owners managing their own organization', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof seedRoles>>;
  let sa: SeededUser;
  let other: SeededUser;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await seedRoles(t);
    sa = roles.superAdmin;
    ({ user: other } = await seedTenant(t));
  });
  afterAll(() => t.close());

  describe('/admin/users (super admin)', () => {
    it('creates users in any organization with a hashed password that signs in', async () => {
      const u = ZUserSchema.parse(
        (await t.http.post('/payg/admin/users').set(sa.auth).send({ username: 'field.agent', email: 'agent@x.test', password: 'correct-horse', organization_id: other.organization_id, role: 'staff' }).expect(201)).body,
      );
      expect(u).toMatchObject({ username: 'field.agent', organization_id: other.organization_id, role: 'staff', is_active: true, last_login_at: null });
      const row = await t.db.platform.user.findUniqueOrThrow({ where: { id: u.user_id } });
      expect(row.password_hash).toMatch(/^\$2[aby]\$/);
      expect(JSON.stringify(u)).not.toContain('password');
      await t.http.post('/payg/authenticate').send({ username: 'field.agent', password: 'correct-horse' }).expect(200);
      const dup = await t.http.post('/payg/admin/users').set(sa.auth).send({ username: 'field.agent', email: 'a@x.test', password: 'correct-horse', organization_id: other.organization_id }).expect(409);
      expect(dup.body.message).toBe('The username "field.agent" is already taken');
      expect((await t.http.post('/payg/admin/users').set(sa.auth).send({ username: 'nobody', email: 'a@x.test', password: 'correct-horse', organization_id: 'no-such-org' }).expect(404)).body.message).toBe('Organization not found');
      const bad = await t.http.post('/payg/admin/users').set(sa.auth).send({ username: 'x', email: 'nope', password: 'short', organization_id: other.organization_id, role: 'king' }).expect(400);
      expect(bad.body.message).toContain('username: must be at least 3 characters');
      expect(bad.body.message).toContain('email: must be a valid email');
      expect(bad.body.message).toContain('password: must be at least 8 characters');
      expect(bad.body.message).toContain('role: must be one of');
    });

    it('creates super admins', async () => {
      const u = ZUserSchema.parse(
        (await t.http.post('/payg/admin/create-super-admin').set(sa.auth).send({ username: 'second-admin', email: 's@p.test', password: 'longenough', organization_id: sa.organization_id }).expect(201)).body,
      );
      expect(u.role).toBe('super_admin');
      await t.http.post('/payg/admin/create-super-admin').set(sa.auth).send({ username: 'third-admin', email: 's@p.test', password: 'short', organization_id: sa.organization_id }).expect(400);
    });

    it('lists users with search, organization filter and paging', async () => {
      const all = ZUserListSchema.parse((await t.http.get('/payg/admin/users').set(sa.auth).expect(200)).body);
      expect(all.pagination).toMatchObject({ limit: 50, offset: 0, total: await t.db.platform.user.count() });
      const found = ZUserListSchema.parse((await t.http.get('/payg/admin/users?search=AGENT@X').set(sa.auth).expect(200)).body);
      expect(found.data.map((u) => u.username)).toEqual(['field.agent']);
      const inOrg = ZUserListSchema.parse((await t.http.get(`/payg/admin/users?organization_id=${roles.org.id}`).set(sa.auth).expect(200)).body);
      expect(inOrg.data.map((u) => u.role).sort()).toEqual(['admin', 'owner', 'staff']);
      const page = ZUserListSchema.parse((await t.http.get('/payg/admin/users?limit=1&offset=1').set(sa.auth).expect(200)).body);
      expect(page.data).toHaveLength(1);
    });

    it('updates and deletes users, never itself, with audit entries', async () => {
      const u = await seedUser(t, { organization_id: other.organization_id, role: 'staff' });
      const changed = ZUserSchema.parse((await t.http.put(`/payg/admin/users/${u.user_id}`).set(sa.auth).send({ role: 'admin', is_active: false }).expect(200)).body);
      expect(changed).toMatchObject({ role: 'admin', is_active: false });
      // Deactivated: the user's token stops working at once.
      await t.http.get('/payg/me').set(u.auth).expect(401);
      await t.http.put(`/payg/admin/users/${u.user_id}`).set(sa.auth).send({ organization_id: 'no-such-org' }).expect(404);
      await t.http.put(`/payg/admin/users/${sa.user_id}`).set(sa.auth).send({ role: 'staff' }).expect(409);
      await t.http.delete(`/payg/admin/users/${sa.user_id}`).set(sa.auth).expect(409);
      await t.http.delete(`/payg/admin/users/${u.user_id}`).set(sa.auth).expect(200);
      await t.http.delete(`/payg/admin/users/${u.user_id}`).set(sa.auth).expect(404);
      const log = await t.db.platform.auditLog.findMany({ where: { organization_id: other.organization_id, entity_id: String(u.user_id) }, orderBy: { id: 'asc' } });
      expect(log.map((l) => l.action)).toEqual(['user.updated', 'user.deleted']);
    });

    it('keeps /admin/users and create-super-admin to super admins', async () => {
      for (const u of [roles.owner, roles.admin, roles.staff]) {
        await t.http.get('/payg/admin/users').set(u.auth).expect(403);
        await t.http.post('/payg/admin/users').set(u.auth).send({ username: 'sneaky', email: 'a@b.test', password: 'longenough', organization_id: u.organization_id, role: 'owner' }).expect(403);
        await t.http.put(`/payg/admin/users/${roles.staff.user_id}`).set(u.auth).send({ role: 'owner' }).expect(403);
        await t.http.delete(`/payg/admin/users/${roles.staff.user_id}`).set(u.auth).expect(403);
        await t.http.post('/payg/admin/create-super-admin').set(u.auth).send({ username: 'sneaky', email: 'a@b.test', password: 'longenough', organization_id: u.organization_id }).expect(403);
      }
      expect(await t.db.platform.user.findUnique({ where: { username: 'sneaky' } })).toBeNull();
    });
  });

  describe('/users (owners and admins, own organization)', () => {
    let org: Awaited<ReturnType<typeof seedRoles>>;
    beforeAll(async () => {
      org = await seedRoles(t);
    });

    it("lists only the organization's own users, to owners and admins only", async () => {
      for (const u of [org.owner, org.admin]) {
        const list = ZUserListSchema.parse((await t.http.get('/payg/users').set(u.auth).expect(200)).body);
        expect(list.data.every((x) => x.organization_id === org.org.id)).toBe(true);
        expect(list.data).toHaveLength(3);
      }
      await t.http.get('/payg/users').set(org.staff.auth).expect(403);
      await t.http.post('/payg/users').set(org.staff.auth).send({ username: 'by-staff', email: 's@o.test', password: 'longenough' }).expect(403);
      await t.http.put(`/payg/users/${org.admin.user_id}`).set(org.staff.auth).send({ role: 'staff' }).expect(403);
      await t.http.delete(`/payg/users/${org.admin.user_id}`).set(org.staff.auth).expect(403);
      // A super admin manages the users of their own (platform) organization here.
      const own = ZUserListSchema.parse((await t.http.get('/payg/users').set(sa.auth).expect(200)).body);
      expect(own.data.every((x) => x.organization_id === sa.organization_id)).toBe(true);
      // organization_id in the query is ignored: the list stays the caller's organization.
      const widened = ZUserListSchema.parse((await t.http.get(`/payg/users?organization_id=${roles.org.id}`).set(org.owner.auth).expect(200)).body);
      expect(widened.data.every((x) => x.organization_id === org.org.id)).toBe(true);
      const search = ZUserListSchema.parse((await t.http.get(`/payg/users?search=${roles.owner.username}`).set(org.owner.auth).expect(200)).body);
      expect(search.data).toEqual([]);
    });

    it('lets an owner add owners, admins and staff, but nobody a super admin', async () => {
      const u = ZUserSchema.parse((await t.http.post('/payg/users').set(org.owner.auth).send({ username: `co-owner-${org.org.id}`, email: 'c@o.test', password: 'longenough', role: 'owner' }).expect(201)).body);
      expect(u).toMatchObject({ organization_id: org.org.id, role: 'owner' });
      await t.http.post('/payg/users').set(org.owner.auth).send({ username: 'wannabe', email: 'c@o.test', password: 'longenough', role: 'super_admin' }).expect(400);
      await t.http.post('/payg/users').set(org.owner.auth).send({ username: 'elsewhere', email: 'c@o.test', password: 'longenough', organization_id: roles.org.id }).expect(201);
      expect((await t.db.platform.user.findUniqueOrThrow({ where: { username: 'elsewhere' } })).organization_id).toBe(org.org.id);
    });

    it('lets an admin add admins and staff but not owners, nor touch an owner', async () => {
      await t.http.post('/payg/users').set(org.admin.auth).send({ username: `helper-${org.org.id}`, email: 'h@o.test', password: 'longenough', role: 'staff' }).expect(201);
      const refused = await t.http.post('/payg/users').set(org.admin.auth).send({ username: 'boss2', email: 'h@o.test', password: 'longenough', role: 'owner' }).expect(403);
      expect(refused.body.message).toBe('Admins cannot create owners or promote users to owner');
      await t.http.put(`/payg/users/${org.staff.user_id}`).set(org.admin.auth).send({ role: 'owner' }).expect(403);
      await t.http.put(`/payg/users/${org.owner.user_id}`).set(org.admin.auth).send({ email: 'x@y.test' }).expect(403);
      await t.http.delete(`/payg/users/${org.owner.user_id}`).set(org.admin.auth).expect(403);
      const promoted = ZUserSchema.parse((await t.http.put(`/payg/users/${org.staff.user_id}`).set(org.admin.auth).send({ role: 'admin' }).expect(200)).body);
      expect(promoted.role).toBe('admin');
    });

    it("never reaches another organization's users", async () => {
      await t.http.put(`/payg/users/${roles.staff.user_id}`).set(org.owner.auth).send({ is_active: false }).expect(404);
      await t.http.delete(`/payg/users/${roles.staff.user_id}`).set(org.owner.auth).expect(404);
      const untouched = await t.db.platform.user.findUniqueOrThrow({ where: { id: roles.staff.user_id } });
      expect(untouched.is_active).toBe(true);
      await t.http.put(`/payg/users/${sa.user_id}`).set(org.owner.auth).send({ role: 'staff' }).expect(404);
    });

    it('keeps at least one owner and refuses to delete yourself', async () => {
      const { user: solo } = await seedTenant(t);
      const staff = await seedUser(t, { organization_id: solo.organization_id, role: 'staff' });
      expect((await t.http.delete(`/payg/users/${solo.user_id}`).set(solo.auth).expect(409)).body.message).toBe('You cannot delete your own account');
      await t.http.put(`/payg/users/${solo.user_id}`).set(solo.auth).send({ role: 'staff' }).expect(409);
      const second = await seedUser(t, { organization_id: solo.organization_id, role: 'owner' });
      // With two owners one may step down; the last one may not be removed or demoted.
      await t.http.put(`/payg/users/${second.user_id}`).set(solo.auth).send({ role: 'admin' }).expect(200);
      const admin = await seedUser(t, { organization_id: solo.organization_id, role: 'admin' });
      const refused = await t.http.put(`/payg/users/${solo.user_id}`).set(admin.auth).send({ is_active: false }).expect(403);
      expect(refused.body.message).toMatch(/Admins cannot change/);
      await new Promise((r) => setTimeout(r, 1005 - (Date.now() % 1000)));
      await t.http.get('/payg/me').set(staff.auth).expect(200);
      await t.http.put(`/payg/users/${staff.user_id}`).set(solo.auth).send({ password: 'a-new-password' }).expect(200);
      // A reset shuts out the access token the user (or whoever took it) already held.
      await t.http.get('/payg/me').set(staff.auth).expect(401);
      await t.http.post('/payg/authenticate').send({ username: staff.username, password: 'a-new-password' }).expect(200);
      await t.http.delete(`/payg/users/${staff.user_id}`).set(solo.auth).expect(200);
      // Last-owner rule through the console too.
      const lone = await seedTenant(t);
      await t.http.delete(`/payg/admin/users/${lone.user.user_id}`).set(sa.auth).expect(409);
    });
  });
});
