import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZAdminTokenLogListSchema,
  ZFeatureFlagListSchema,
  ZFeatureFlagSchema,
  ZOemCredentialListSchema,
  ZOemCredentialSchema,
  ZOrgPlanListSchema,
  ZOrgPlanSchema,
  ZPaymentProviderListSchema,
  ZPaymentProviderSchema,
  ZPlanListSchema,
  ZPlanSchema,
} from '@kidogo/contracts';
import { SecretBox } from '../src/common/crypto.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedItem, seedRoles, seedTenant, seedTokenLog, type SeededUser } from './support/factories.js';

describe('super admin: token logs, providers, OEM credentials, plans and features', () => {
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

  const get = (path: string, user: SeededUser = sa) => t.http.get(`/payg/admin/${path}`).set(user.auth);
  const send = (method: 'post' | 'put' | 'delete', path: string, body?: object, user: SeededUser = sa) =>
    t.http[method](`/payg/admin/${path}`).set(user.auth).send(body);

  it('lists token logs of every organization, filtered by organization, status and date', async () => {
    const a = await seedItem(t, roles.org.id, { serial_number: 'SN-TL-A' });
    const b = await seedItem(t, other.organization_id, { serial_number: 'SN-TL-B' });
    await seedTokenLog(t, roles.org.id, a, { created_at: new Date('2026-01-05T10:00:00Z') });
    await seedTokenLog(t, roles.org.id, a, { status: 'failed', created_at: new Date('2026-01-06T10:00:00Z') });
    await seedTokenLog(t, other.organization_id, b, { token_type: 'set_time', created_at: new Date('2026-01-07T10:00:00Z') });

    const all = ZAdminTokenLogListSchema.parse((await get('metrics/token-logs').expect(200)).body);
    expect(all.data.total).toBe(3);
    expect(all.data.items.map((i) => i.serial_number)).toEqual(['SN-TL-B', 'SN-TL-A', 'SN-TL-A']);
    expect(all.data.items[0]).toMatchObject({ organization_id: other.organization_id, token_type: 'set_time', status: 'success' });
    expect(all.data.items[0].generated_token).toMatch(/^\d{9}$/);
    const mine = ZAdminTokenLogListSchema.parse((await get(`metrics/token-logs?organization_id=${roles.org.id}`).expect(200)).body);
    expect(mine.data.total).toBe(2);
    const errors = ZAdminTokenLogListSchema.parse((await get('metrics/token-logs?status_filter=error').expect(200)).body);
    expect(errors.data.items.map((i) => i.status)).toEqual(['error']);
    const success = ZAdminTokenLogListSchema.parse((await get('metrics/token-logs?status_filter=success').expect(200)).body);
    expect(success.data.total).toBe(2);
    const dated = ZAdminTokenLogListSchema.parse((await get('metrics/token-logs?date_from=2026-01-06&date_to=2026-01-06').expect(200)).body);
    expect(dated.data.total).toBe(1);
    const paged = ZAdminTokenLogListSchema.parse((await get('metrics/token-logs?limit=1&offset=2').expect(200)).body);
    expect(paged.data.items).toHaveLength(1);
    expect(paged.data.total).toBe(3);
    // Pages merged across organizations, as ORDER BY and OFFSET over every token would give them.
    const c = await seedItem(t, other.organization_id, { serial_number: 'SN-TL-C' });
    for (let i = 0; i < 7; i++) {
      await seedTokenLog(t, i % 2 ? roles.org.id : other.organization_id, i % 2 ? a : c, {
        status: i === 3 ? 'failed' : 'success',
        created_at: new Date(Date.UTC(2026, 0, 8, 10, 0, i % 3)),
      });
    }
    for (const filter of ['', '&status_filter=success', '&status_filter=error', '&date_from=2026-01-06&date_to=2026-01-08']) {
      const where = filter.includes('=success')
        ? Prisma.sql`status = 'success'`
        : filter.includes('=error')
          ? Prisma.sql`status <> 'success'`
          : filter.includes('date_from')
            ? Prisma.sql`created_at >= '2026-01-06' AND created_at < '2026-01-09'`
            : Prisma.sql`true`;
      const expected = await t.db.query<{ id: number }>(Prisma.sql`SELECT token_log_id AS id FROM token_logs WHERE ${where} ORDER BY created_at DESC, token_log_id DESC`);
      for (const offset of [0, 2, 4, 9]) {
        const page = ZAdminTokenLogListSchema.parse((await get(`metrics/token-logs?limit=3&offset=${offset}${filter}`).expect(200)).body);
        expect({ filter, offset, ids: page.data.items.map((i) => i.id), total: page.data.total }).toEqual({
          filter,
          offset,
          ids: expected.slice(offset, offset + 3).map((r) => r.id),
          total: expected.length,
        });
      }
    }
    await get('metrics/token-logs?status_filter=maybe').expect(400);
    await get('metrics/token-logs?date_from=2026-02-01&date_to=2026-01-01').expect(400);
  });

  it('stores provider config encrypted, shows it masked, keeps secrets sent back masked', async () => {
    const created = ZPaymentProviderSchema.parse(
      (await send('post', 'payment-providers', {
        provider: 'africastalking',
        organization_id: roles.org.id,
        config: { username: 'sandbox-user', api_key: 'atsk_1234567890abcdef', sender_id: 'KIDOGO', retries: 3 },
      }).expect(201)).body,
    );
    expect(created.config).toEqual({ username: '••••••••', api_key: '••••••••cdef', sender_id: '••••••••', retries: 3 });
    expect(created.is_active).toBe(true);
    const row = await t.db.platform.paymentProvider.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.config_enc).not.toContain('atsk_1234567890abcdef');
    const box = t.app.get(SecretBox);
    // The payment pipeline opens it this way.
    expect(JSON.parse(box.open(row.config_enc))).toEqual({ username: 'sandbox-user', api_key: 'atsk_1234567890abcdef', sender_id: 'KIDOGO', retries: 3 });

    await send('post', 'payment-providers', { provider: 'africastalking', organization_id: roles.org.id, config: {} }).expect(409);
    await send('post', 'payment-providers', { provider: 'x', organization_id: 'no-such-org', config: {} }).expect(404);
    await send('post', 'payment-providers', { provider: 'x', organization_id: roles.org.id, config: 'nope' }).expect(400);

    const updated = ZPaymentProviderSchema.parse(
      (await send('put', `payment-providers/${created.id}`, { config: { ...created.config, sender_id: 'NEWID' }, is_active: false }).expect(200)).body,
    );
    expect(updated.is_active).toBe(false);
    expect(JSON.parse(box.open((await t.db.platform.paymentProvider.findUniqueOrThrow({ where: { id: created.id } })).config_enc))).toEqual({
      username: 'sandbox-user',
      api_key: 'atsk_1234567890abcdef',
      sender_id: 'NEWID',
      retries: 3,
    });
    await send('post', 'payment-providers', { provider: 'sms_webhook', organization_id: other.organization_id, config: { url: 'https://hooks.example.test/sms' } }).expect(201);
    const filtered = ZPaymentProviderListSchema.parse((await get(`payment-providers?organization_id=${roles.org.id}`).expect(200)).body);
    expect(filtered.data.map((p) => p.provider)).toEqual(['africastalking']);
    expect(ZPaymentProviderListSchema.parse((await get('payment-providers').expect(200)).body).data).toHaveLength(2);
    expect(JSON.stringify((await get('payment-providers').expect(200)).body)).not.toContain('atsk_1234567890abcdef');
    ZPaymentProviderSchema.parse((await get(`payment-providers/${created.id}`).expect(200)).body);
    await send('delete', `payment-providers/${created.id}`).expect(200);
    await get(`payment-providers/${created.id}`).expect(404);
    await send('delete', `payment-providers/${created.id}`).expect(404);
  });

  it('keeps OEM credentials encrypted and masked', async () => {
    const created = ZOemCredentialSchema.parse(
      (await send('post', 'oem-credentials', { oem_name: 'SunCo', organization_id: roles.org.id, credentials: { client_id: 'client-abc-123', client_secret: 'shh-very-secret-value' } }).expect(201)).body,
    );
    expect(created.credentials).toEqual({ client_id: '••••••••', client_secret: '••••••••alue' });
    await send('post', 'oem-credentials', { oem_name: 'SunCo', organization_id: roles.org.id, credentials: {} }).expect(409);
    const updated = ZOemCredentialSchema.parse((await send('put', `oem-credentials/${created.id}`, { credentials: { client_id: 'client-xyz-999', client_secret: created.credentials.client_secret } }).expect(200)).body);
    expect(updated.credentials.client_id).toBe('••••••••');
    const box = t.app.get(SecretBox);
    const row = await t.db.platform.oemCredential.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.parse(box.open(row.credentials_enc))).toEqual({ client_id: 'client-xyz-999', client_secret: 'shh-very-secret-value' });
    expect(ZOemCredentialListSchema.parse((await get(`oem-credentials?organization_id=${other.organization_id}`).expect(200)).body).data).toEqual([]);
    ZOemCredentialSchema.parse((await get(`oem-credentials/${created.id}`).expect(200)).body);
    await send('delete', `oem-credentials/${created.id}`).expect(200);
    await get(`oem-credentials/${created.id}`).expect(404);
  });

  it('manages plans and refuses to delete one while organizations are on it', async () => {
    const plan = ZPlanSchema.parse(
      (await send('post', 'plans', { plan_code: 'growth', name: 'Growth', price: '49.99', features: ['reports', 'sms'], quotas: { customers: 5000, users: 10 } }).expect(201)).body,
    );
    expect(plan).toMatchObject({ plan_code: 'growth', price: '49.99', currency: 'USD', features: ['reports', 'sms'], quotas: { customers: 5000, users: 10 }, organization_count: 0 });
    await send('post', 'plans', { plan_code: 'growth' }).expect(409);
    expect((await send('post', 'plans', { plan_code: 'Bad Code' }).expect(400)).body.message).toMatch(/^plan_code: /);
    await send('post', 'plans', { plan_code: 'q', quotas: { users: 'many' } }).expect(400);
    const changed = ZPlanSchema.parse((await send('put', 'plans/growth', { price: 59, quotas: { customers: 10000 } }).expect(200)).body);
    expect(changed).toMatchObject({ price: '59.00', quotas: { customers: 10000 }, features: ['reports', 'sms'] });
    await send('put', 'plans/nope', { price: 1 }).expect(404);

    const assigned = ZOrgPlanSchema.parse((await send('post', 'org-plans', { organization_id: roles.org.id, plan_code: 'growth' }).expect(201)).body);
    expect(assigned).toMatchObject({ organization_id: roles.org.id, plan_code: 'growth', plan_name: 'Growth' });
    await send('post', 'org-plans', { organization_id: roles.org.id, plan_code: 'nope' }).expect(404);
    await send('post', 'org-plans', { organization_id: 'no-such-org', plan_code: 'growth' }).expect(404);
    expect(ZPlanSchema.parse((await get('plans/growth').expect(200)).body).organization_count).toBe(1);
    const refused = await send('delete', 'plans/growth').expect(409);
    expect(refused.body.message).toBe('Plan growth is assigned to 1 organization; move them to another plan first');
    // Moving to another plan replaces the old one.
    await send('post', 'plans', { plan_code: 'starter' }).expect(201);
    await send('post', 'org-plans', { organization_id: roles.org.id, plan_code: 'starter' }).expect(201);
    const orgPlans = ZOrgPlanListSchema.parse((await get(`org-plans?organization_id=${roles.org.id}`).expect(200)).body);
    expect(orgPlans.data.map((p) => p.plan_code)).toEqual(['starter']);
    await send('delete', 'plans/growth').expect(200);
    expect(ZPlanListSchema.parse((await get('plans').expect(200)).body).data.map((p) => p.plan_code)).toEqual(['starter']);
    await send('delete', `org-plans/${roles.org.id}`).expect(200);
    await send('delete', `org-plans/${roles.org.id}`).expect(404);
    await send('delete', 'plans/starter').expect(200);
  });

  it('sets feature flags globally and per organization, upserting', async () => {
    const global = ZFeatureFlagSchema.parse((await send('post', 'features', { feature_key: 'reports.pdf', enabled: false, organization_id: null }).expect(200)).body);
    expect(global).toMatchObject({ feature_key: 'reports.pdf', enabled: false, organization_id: null });
    const again = ZFeatureFlagSchema.parse((await send('post', 'features', { feature_key: 'reports.pdf', enabled: true }).expect(200)).body);
    expect(again.id).toBe(global.id);
    expect(again.enabled).toBe(true);
    const own = ZFeatureFlagSchema.parse((await send('post', 'features', { feature_key: 'reports.pdf', enabled: false, organization_id: roles.org.id }).expect(200)).body);
    expect(own.id).not.toBe(global.id);
    await send('post', 'features', { feature_key: 'x', enabled: true, organization_id: 'no-such-org' }).expect(404);
    await send('post', 'features', { feature_key: 'x' }).expect(400);
    const forOrg = ZFeatureFlagListSchema.parse((await get(`features?organization_id=${roles.org.id}`).expect(200)).body);
    expect(forOrg.data.map((f) => [f.organization_id, f.enabled])).toEqual([[null, true], [roles.org.id, false]]);
    const forOther = ZFeatureFlagListSchema.parse((await get(`features?organization_id=${other.organization_id}`).expect(200)).body);
    expect(forOther.data.map((f) => f.organization_id)).toEqual([null]);
    await send('delete', `features/${own.id}`).expect(200);
    await send('delete', `features/${own.id}`).expect(404);
    expect(ZFeatureFlagListSchema.parse((await get('features').expect(200)).body).data).toHaveLength(1);
  });

  it('keeps all of it to super admins', async () => {
    for (const u of [roles.owner, roles.admin, roles.staff]) {
      for (const path of ['metrics/token-logs', 'payment-providers', 'oem-credentials', 'plans', 'org-plans', 'features']) {
        await get(path, u).expect(403);
      }
      await send('post', 'payment-providers', { provider: 'sneaky', organization_id: u.organization_id, config: {} }, u).expect(403);
      await send('post', 'oem-credentials', { oem_name: 'sneaky', organization_id: u.organization_id, credentials: {} }, u).expect(403);
      await send('post', 'plans', { plan_code: 'sneaky' }, u).expect(403);
      await send('post', 'org-plans', { organization_id: u.organization_id, plan_code: 'sneaky' }, u).expect(403);
      await send('post', 'features', { feature_key: 'sneaky', enabled: true, organization_id: u.organization_id }, u).expect(403);
      await send('delete', 'plans/sneaky', undefined, u).expect(403);
    }
    expect(await t.db.platform.plan.count({ where: { plan_code: 'sneaky' } })).toBe(0);
    expect(await t.db.platform.featureFlag.count({ where: { feature_key: 'sneaky' } })).toBe(0);
  });
});
