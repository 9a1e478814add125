import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZAdminOrganizationSchema,
  ZDeleteOrganizationReplySchema,
  ZNotificationListSchema,
  ZNotificationSchema,
  ZOrganizationActivitySchema,
  ZOrganizationDetailSchema,
  ZOrganizationListSchema,
  ZOrganizationStatsSchema,
  ZOrganizationStatusChangeSchema,
  ZOrganizationStatusSchema,
  ZServiceBlockedSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  seedCustomerWithDevice,
  seedMessage,
  seedPayment,
  seedRoles,
  seedTokenLog,
  seedUser,
  type SeededUser,
} from './support/factories.js';

describe('super admin: organizations and notifications', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof seedRoles>>;
  let sa: SeededUser;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await seedRoles(t);
    sa = roles.superAdmin;
  });
  afterAll(() => t.close());

  const admin = (method: 'get' | 'post' | 'put' | 'delete', path: string, user: SeededUser = sa) => t.http[method](`/payg/admin/organizations${path}`).set(user.auth);

  it('creates organizations with the default app, refuses duplicates and bad ids', async () => {
    const created = ZAdminOrganizationSchema.parse((await admin('post', '').send({ organization_id: 'acme-solar', external_key: 'ACME-1' }).expect(201)).body);
    expect(created).toMatchObject({ organization_id: 'acme-solar', external_key: 'ACME-1', app: 'kidogo', status: 'active', user_count: 0, phone_country_code: '254' });
    // The creation itself is activity.
    expect(created.last_activity).not.toBeNull();
    const dup = await admin('post', '').send({ organization_id: 'acme-solar' }).expect(409);
    expect(dup.body.message).toBe('Organization acme-solar already exists');
    await admin('post', '').send({ organization_id: 'other-org', external_key: 'ACME-1' }).expect(409);
    expect((await admin('post', '').send({ organization_id: 'Bad Org!' }).expect(400)).body.message).toMatch(/^organization_id: must be 2 to 64/);
    expect((await admin('post', '').send({ organization_id: 'x' }).expect(400)).body.message).toMatch(/^organization_id: /);
    await admin('post', '').send({ organization_id: 'amped-co', app: 'amped', name: 'Amped Co' }).expect(201);
    await admin('post', '').send({ organization_id: 'wrong-app', app: 'tesla' }).expect(400);
    // An organization whose customers' phones are Ugandan from the start; a country not offered is refused by name.
    const ug = ZAdminOrganizationSchema.parse((await admin('post', '').send({ organization_id: 'sunlight-ug', phone_country_code: '256' }).expect(201)).body);
    expect(ug.phone_country_code).toBe('256');
    expect((await t.db.platform.organization.findUniqueOrThrow({ where: { id: 'sunlight-ug' } })).phone_country_code).toBe('256');
    expect((await admin('post', '').send({ organization_id: 'nowhere-co', phone_country_code: '1' }).expect(400)).body.message).toMatch(/^phone_country_code: must be one of .*254, 255, 256/);
    expect(await t.db.platform.organization.count({ where: { id: 'nowhere-co' } })).toBe(0);
  });

  it('updates external key, app and name', async () => {
    const updated = ZAdminOrganizationSchema.parse((await admin('put', '/acme-solar').send({ external_key: 'ACME-2', app: 'generic_oem', name: 'Acme Solar' }).expect(200)).body);
    expect(updated).toMatchObject({ external_key: 'ACME-2', app: 'generic_oem', name: 'Acme Solar' });
    const cleared = ZAdminOrganizationSchema.parse((await admin('put', '/acme-solar').send({ external_key: null }).expect(200)).body);
    expect(cleared.external_key).toBeNull();
    await admin('put', '/nope').send({ name: 'x' }).expect(404);
    await admin('put', '/acme-solar').send({ status: 'disabled' }).expect(400);
  });

  it('lists organizations with user counts and last activity, searched, filtered and paged', async () => {
    await seedUser(t, { organization_id: 'acme-solar', role: 'owner' });
    await seedUser(t, { organization_id: 'acme-solar', role: 'staff' });
    const list = ZOrganizationListSchema.parse((await admin('get', '?search=ACME').expect(200)).body);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ organization_id: 'acme-solar', user_count: 2, name: 'Acme Solar' });
    const all = ZOrganizationListSchema.parse((await admin('get', '?limit=2').expect(200)).body);
    expect(all.data).toHaveLength(2);
    expect(all.pagination.total).toBeGreaterThanOrEqual(4);
    const never = await t.db.platform.organization.create({ data: { id: 'quiet-org' } });
    const quiet = ZOrganizationListSchema.parse((await admin('get', `?search=${never.id}`).expect(200)).body);
    expect(quiet.data[0].last_activity).toBeNull();
    expect(quiet.data[0].user_count).toBe(0);
    await admin('get', '?status=frozen').expect(400);
    await admin('get', '?search=%25').expect(200);
  });

  it('changes status with a required reason, effective on the very next request, and audited', async () => {
    const owner = await seedUser(t, { organization_id: 'amped-co', role: 'owner' });
    await t.http.get('/payg/me').set(owner.auth).expect(200);
    expect((await admin('put', '/amped-co/status').send({ status: 'suspended' }).expect(400)).body.message).toMatch(/^reason: is required/);
    const suspended = ZOrganizationStatusChangeSchema.parse(
      (await admin('put', '/amped-co/status').send({ status: 'suspended', reason: 'Unpaid invoice INV-000001' }).expect(200)).body,
    );
    expect(suspended).toMatchObject({ status: 'suspended', disabled_reason: 'Unpaid invoice INV-000001', message: 'Organization suspended successfully' });
    expect(suspended.status_changed_at).not.toBeNull();
    const blocked = await t.http.get('/payg/me').set(owner.auth).expect(403);
    expect(ZServiceBlockedSchema.parse(blocked.body).detail).toMatchObject({ error: 'SERVICE_SUSPENDED', reason: 'Unpaid invoice INV-000001' });
    const status = ZOrganizationStatusSchema.parse((await admin('get', '/amped-co/status').expect(200)).body);
    expect(status.status).toBe('suspended');

    const disabled = ZOrganizationStatusChangeSchema.parse((await admin('put', '/amped-co/status').send({ status: 'disabled', reason: 'Fraud investigation' }).expect(200)).body);
    expect(disabled.message).toBe('Organization disabled successfully');
    expect(ZServiceBlockedSchema.parse((await t.http.get('/payg/me').set(owner.auth).expect(403)).body).detail.error).toBe('SERVICE_DISABLED');

    const active = ZOrganizationStatusChangeSchema.parse((await admin('put', '/amped-co/status').send({ status: 'active' }).expect(200)).body);
    expect(active).toMatchObject({ status: 'active', disabled_reason: null, message: 'Organization activated successfully' });
    await t.http.get('/payg/me').set(owner.auth).expect(200);

    const activity = ZOrganizationActivitySchema.parse((await admin('get', '/amped-co/activity').expect(200)).body);
    expect(activity.data.slice(0, 3).map((a) => a.action)).toEqual(['organization.status_changed', 'organization.status_changed', 'organization.status_changed']);
    expect(activity.data[2].description).toContain('Unpaid invoice INV-000001');
    expect(activity.data[0].actor).toBe(sa.username);
    await admin('put', '/nope/status').send({ status: 'active' }).expect(404);
    await admin('put', `/${sa.organization_id}/status`).send({ status: 'disabled', reason: 'x' }).expect(409);
  });

  it('shows real activity: sign-ins and users added', async () => {
    const created = await t.http.post('/payg/admin/users').set(sa.auth).send({ username: 'acme-boss', email: 'boss@acme.test', password: 'longenough1', organization_id: 'acme-solar', role: 'owner' }).expect(201);
    expect(created.body.username).toBe('acme-boss');
    await t.http.post('/payg/authenticate').send({ username: 'acme-boss', password: 'longenough1' }).expect(200);
    const activity = ZOrganizationActivitySchema.parse((await admin('get', '/acme-solar/activity?limit=2').expect(200)).body);
    expect(activity.data).toHaveLength(2);
    expect(activity.data.map((a) => a.action)).toEqual(['auth.login', 'user.created']);
    expect(activity.data[0].description).toBe('acme-boss signed in');
    await admin('get', '/nope/activity').expect(404);
  });

  it('gives organization details with counts and users, and platform stats', async () => {
    const detail = ZOrganizationDetailSchema.parse((await admin('get', '/acme-solar').expect(200)).body);
    expect(detail.users.map((u) => u.username)).toContain('acme-boss');
    expect(detail.counts).toMatchObject({ users: 3, customers: 0 });
    expect(detail.plan_code).toBeNull();
    await admin('get', '/nope').expect(404);
    const stats = ZOrganizationStatsSchema.parse((await admin('get', '/stats').expect(200)).body);
    const orgs = await t.db.platform.organization.groupBy({ by: ['status'], _count: true });
    const count = (s: string) => orgs.find((o) => o.status === s)?._count ?? 0;
    expect(stats).toEqual({
      total_organizations: orgs.reduce((n, o) => n + o._count, 0),
      active_organizations: count('active'),
      suspended_organizations: count('suspended'),
      disabled_organizations: count('disabled'),
      total_users: await t.db.platform.user.count(),
    });
    await t.db.platform.organization.update({ where: { id: 'quiet-org' }, data: { status: 'suspended', disabled_reason: 'Trial expired' } });
    const after = ZOrganizationStatsSchema.parse((await admin('get', '/stats').expect(200)).body);
    expect(after.suspended_organizations).toBe(stats.suspended_organizations + 1);
    const suspended = ZOrganizationListSchema.parse((await admin('get', '?status=suspended').expect(200)).body);
    expect(suspended.data.map((o) => [o.organization_id, o.disabled_reason])).toEqual([['quiet-org', 'Trial expired']]);
  });

  it('refuses to delete an organization with data, saying what would be lost, unless forced', async () => {
    const org = 'doomed-org';
    await admin('post', '').send({ organization_id: org }).expect(201);
    const doomedOwner = await seedUser(t, { organization_id: org, role: 'owner' });
    const d = await seedCustomerWithDevice(t, org);
    const p = await seedPayment(t, org, { customer_id: d.customer.id, item_id: d.item.id });
    await seedTokenLog(t, org, d.item, { payment_id: p.id });
    await seedMessage(t, org, { item_id: d.item.id });
    await t.http.post('/payg/admin/invoices').set(sa.auth).send({ organization_id: org, customer_name: 'D', customer_email: 'd@d.test', amount: 5 }).expect(201);
    await t.http.post(`/payg/admin/organizations/${org}/notify`).set(sa.auth).send({ message: 'Bye' }).expect(201);
    // A device taken back (a written-off account) and an endpoint with its queue go with the organization.
    const lost = await seedCustomerWithDevice(t, org);
    await t.http.post('/payg/items/repossess').set(doomedOwner.auth).send({ item_serial_number: lost.item.serial_number, reason: 'Stopped paying', lock: false }).expect(200);
    const hook = await t.http.post('/payg/webhooks').set(doomedOwner.auth).send({ url: 'https://erp.example.com/hook', events: ['token.issued'] }).expect(201);
    await t.http.post('/payg/generate-token-by-days').set(doomedOwner.auth).send({ serial_number: d.item.serial_number, number_of_days: 1 }).expect(200);
    expect(await t.db.platform.webhookDelivery.count({ where: { organization_id: org, endpoint_id: hook.body.id } })).toBe(1);

    const refused = await admin('delete', `/${org}`).expect(409);
    expect(refused.body.message).toBe(
      'Organization doomed-org still has 2 customers, 2 devices, 1 payment and 1 user (and 2 tokens, 1 message, 1 invoice). ' +
        'Deleting it would permanently remove all of them. Repeat with force=true to delete everything.',
    );
    expect(await t.db.platform.customer.count({ where: { organization_id: org } })).toBe(2);

    const deleted = ZDeleteOrganizationReplySchema.parse((await admin('delete', `/${org}?force=true`).expect(200)).body);
    expect(deleted.message).toBe('Organization deleted successfully');
    expect(deleted.deleted).toMatchObject({ customers: 2, devices: 2, payments: 1, users: 1, tokens: 2, messages: 1, invoices: 1 });
    expect(await t.db.platform.repossession.count({ where: { organization_id: org } })).toBe(0);
    expect(await t.db.platform.webhookEndpoint.count({ where: { organization_id: org } })).toBe(0);
    expect(await t.db.platform.webhookDelivery.count({ where: { organization_id: org } })).toBe(0);
    expect(await t.db.platform.organization.findUnique({ where: { id: org } })).toBeNull();
    for (const model of ['customer', 'item', 'payment', 'tokenLog', 'message', 'notification', 'templateAssignment', 'itemAssignment', 'paymentTemplate'] as const) {
      expect(await (t.db.platform[model] as unknown as { count: (a: object) => Promise<number> }).count({ where: { organization_id: org } })).toBe(0);
    }
    expect(await t.db.platform.invoice.count({ where: { organization_id: org } })).toBe(0);
    // The deleted organization's user is signed out for good.
    await t.http.get('/payg/me').set(doomedOwner.auth).expect(401);
    const log = await t.db.platform.auditLog.findFirst({ where: { organization_id: sa.organization_id, action: 'organization.deleted' } });
    expect(log?.description).toContain('doomed-org');

    // An empty organization goes without force; unknown → 404; never your own.
    await admin('post', '').send({ organization_id: 'empty-org' }).expect(201);
    await admin('delete', '/empty-org').expect(200);
    await admin('delete', '/empty-org').expect(404);
    expect((await admin('delete', `/${sa.organization_id}?force=true`).expect(409)).body.message).toBe('You cannot delete your own organization');
    await admin('delete', '/acme-solar?force=maybe').expect(400);
  });

  it('sends notifications that the organization’s users read, newest first, and only theirs', async () => {
    const n = ZNotificationSchema.parse((await admin('post', `/${roles.org.id}/notify`).send({ message: 'Test notification' }).expect(201)).body);
    expect(n).toMatchObject({ message: 'Test notification', level: 'info', created_by: sa.username });
    await admin('post', `/${roles.org.id}/notify`).send({ message: 'Invoice due soon', level: 'warning' }).expect(201);
    expect((await admin('post', `/${roles.org.id}/notify`).send({ message: '' }).expect(400)).body.message).toBe('message: is required');
    await admin('post', `/${roles.org.id}/notify`).send({ message: 'x'.repeat(1001) }).expect(400);
    await admin('post', '/nope/notify').send({ message: 'hi' }).expect(404);
    for (const u of [roles.owner, roles.admin, roles.staff]) {
      const list = ZNotificationListSchema.parse((await t.http.get('/payg/notifications').set(u.auth).expect(200)).body);
      expect(list.data.map((x) => x.message)).toEqual(['Invoice due soon', 'Test notification']);
    }
    const others = ZNotificationListSchema.parse((await t.http.get('/payg/notifications').set(sa.auth).expect(200)).body);
    expect(others.data.map((x) => x.message)).not.toContain('Test notification');
    for (let i = 0; i < 22; i++) await t.db.platform.notification.create({ data: { organization_id: roles.org.id, message: `n${i}` } });
    const capped = ZNotificationListSchema.parse((await t.http.get('/payg/notifications').set(roles.staff.auth).expect(200)).body);
    expect(capped.data).toHaveLength(20);
    await t.http.get('/payg/notifications').expect(401);
  });

  it('keeps every organization route to super admins', async () => {
    for (const u of [roles.owner, roles.admin, roles.staff]) {
      await admin('get', '', u).expect(403);
      await admin('post', '', u).send({ organization_id: 'sneaky-org' }).expect(403);
      await admin('get', '/stats', u).expect(403);
      await admin('get', `/${roles.org.id}`, u).expect(403);
      await admin('put', `/${roles.org.id}`, u).send({ name: 'x' }).expect(403);
      await admin('delete', `/${roles.org.id}?force=true`, u).expect(403);
      await admin('get', `/${roles.org.id}/activity`, u).expect(403);
      await admin('get', `/${roles.org.id}/status`, u).expect(403);
      await admin('put', `/${roles.org.id}/status`, u).send({ status: 'active' }).expect(403);
      await admin('post', `/${roles.org.id}/notify`, u).send({ message: 'hi' }).expect(403);
    }
    expect(await t.db.platform.organization.findUnique({ where: { id: 'sneaky-org' } })).toBeNull();
    expect(await t.db.platform.organization.findUnique({ where: { id: roles.org.id } })).not.toBeNull();
  });
});
