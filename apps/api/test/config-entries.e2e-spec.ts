import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZConfigCredentialsListSchema, ZConfigCredentialsSchema, ZConfigEntryListSchema, ZConfigEntrySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedRoles, seedTenant, type SeededUser } from './support/factories.js';

describe('config entries and OEM credentials', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof seedRoles>>;
  let other: SeededUser;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await seedRoles(t);
    ({ user: other } = await seedTenant(t));
  });
  afterAll(() => t.close());

  it('creates, reads, updates and deletes entries holding any JSON value', async () => {
    const e = ZConfigEntrySchema.parse(
      (await t.http.post('/payg/config/create').set(roles.admin.auth).send({ key: 'sms.reply_template', value: { lang: 'sw', text: 'Asante!' }, description: 'Reply' }).expect(201)).body,
    );
    expect(e).toMatchObject({ key: 'sms.reply_template', value: { lang: 'sw', text: 'Asante!' }, organization_id: roles.org.id });
    for (const value of [42, 'text', [1, 2], false, null]) {
      await t.http.post('/payg/config/create').set(roles.owner.auth).send({ key: `k-${JSON.stringify(value).replace(/\W/g, '')}`, value }).expect(201);
    }
    const dup = await t.http.post('/payg/config/create').set(roles.owner.auth).send({ key: 'sms.reply_template', value: 1 }).expect(409);
    expect(dup.body.message).toBe('A config entry with the key sms.reply_template already exists');
    expect((await t.http.post('/payg/config/create').set(roles.owner.auth).send({ key: 'bad key!', value: 1 }).expect(400)).body.message).toMatch(/^key: /);
    const list = ZConfigEntryListSchema.parse((await t.http.get('/payg/config').set(roles.staff.auth).expect(200)).body);
    expect(list.data).toHaveLength(6);
    expect(ZConfigEntrySchema.parse((await t.http.get(`/payg/config/${e.config_id}`).set(roles.staff.auth).expect(200)).body).value).toEqual({ lang: 'sw', text: 'Asante!' });
    const updated = ZConfigEntrySchema.parse((await t.http.put(`/payg/config/${e.config_id}`).set(roles.owner.auth).send({ value: ['a'] }).expect(200)).body);
    expect(updated.value).toEqual(['a']);
    await t.http.put(`/payg/config/${e.config_id}`).set(roles.owner.auth).send({ key: 'k-42' }).expect(409);
    await t.http.delete(`/payg/config/${e.config_id}`).set(roles.owner.auth).expect(200);
    await t.http.get(`/payg/config/${e.config_id}`).set(roles.owner.auth).expect(404);
  });

  it('lets staff read but not change entries', async () => {
    const e = ZConfigEntrySchema.parse((await t.http.post('/payg/config/create').set(roles.owner.auth).send({ key: 'staff-test', value: 1 }).expect(201)).body);
    await t.http.post('/payg/config/create').set(roles.staff.auth).send({ key: 'nope', value: 1 }).expect(403);
    await t.http.put(`/payg/config/${e.config_id}`).set(roles.staff.auth).send({ value: 2 }).expect(403);
    await t.http.delete(`/payg/config/${e.config_id}`).set(roles.staff.auth).expect(403);
    await t.http.get(`/payg/config/${e.config_id}`).set(roles.staff.auth).expect(200);
  });

  it("never shows or changes another organization's entries", async () => {
    const e = ZConfigEntrySchema.parse((await t.http.post('/payg/config/create').set(roles.owner.auth).send({ key: 'secret-setting', value: 'A only' }).expect(201)).body);
    await t.http.get(`/payg/config/${e.config_id}`).set(other.auth).expect(404);
    await t.http.put(`/payg/config/${e.config_id}`).set(other.auth).send({ value: 'hacked' }).expect(404);
    await t.http.delete(`/payg/config/${e.config_id}`).set(other.auth).expect(404);
    expect(ZConfigEntryListSchema.parse((await t.http.get('/payg/config').set(other.auth).expect(200)).body).data).toEqual([]);
    // Same key in another organization is fine.
    await t.http.post('/payg/config/create').set(other.auth).send({ key: 'secret-setting', value: 'B' }).expect(201);
    expect(ZConfigEntrySchema.parse((await t.http.get(`/payg/config/${e.config_id}`).set(roles.owner.auth).expect(200)).body).value).toBe('A only');
  });

  it('saves OEM credentials for the own organization (any for super admins) and returns them masked', async () => {
    const saved = ZConfigCredentialsSchema.parse(
      (await t.http.post('/payg/config/credentials/upsert').set(roles.owner.auth).send({ organization_id: roles.org.id, oem_name: 'Angaza', credentials: { api_key: 'ak_live_0123456789', region: 'ke' } }).expect(200)).body,
    );
    expect(saved.credentials).toEqual({ api_key: '••••••••6789', region: '••••••••' });
    // Upsert: the same OEM again replaces, a masked value keeps the stored one.
    await t.http.post('/payg/config/credentials/upsert').set(roles.admin.auth).send({ organization_id: roles.org.id, oem_name: 'Angaza', credentials: { api_key: saved.credentials.api_key, region: 'tz' } }).expect(200);
    const list = ZConfigCredentialsListSchema.parse((await t.http.get(`/payg/config/credentials/${roles.org.id}`).set(roles.owner.auth).expect(200)).body);
    expect(list.data).toHaveLength(1);
    expect(list.data[0].credentials).toEqual({ api_key: '••••••••6789', region: '••••••••' });
    const row = await t.db.platform.oemCredential.findFirstOrThrow({ where: { organization_id: roles.org.id } });
    expect(row.credentials_enc).not.toContain('ak_live');

    const forbidden = await t.http.post('/payg/config/credentials/upsert').set(roles.owner.auth).send({ organization_id: other.organization_id, oem_name: 'Angaza', credentials: { api_key: 'x' } }).expect(403);
    expect(forbidden.body.message).toBe("You can only save your own organization's credentials");
    expect(await t.db.platform.oemCredential.count({ where: { organization_id: other.organization_id } })).toBe(0);
    await t.http.get(`/payg/config/credentials/${roles.org.id}`).set(other.auth).expect(403);
    await t.http.get(`/payg/config/credentials/${roles.org.id}`).set(roles.staff.auth).expect(403);
    await t.http.post('/payg/config/credentials/upsert').set(roles.staff.auth).send({ organization_id: roles.org.id, oem_name: 'X', credentials: {} }).expect(403);

    await t.http.post('/payg/config/credentials/upsert').set(roles.superAdmin.auth).send({ organization_id: other.organization_id, oem_name: 'SunCo', credentials: { token: 'abcdefghijkl' } }).expect(200);
    const theirs = ZConfigCredentialsListSchema.parse((await t.http.get(`/payg/config/credentials/${other.organization_id}`).set(roles.superAdmin.auth).expect(200)).body);
    expect(theirs.data[0]).toMatchObject({ oem_name: 'SunCo', credentials: { token: '••••••••' } });
    await t.http.post('/payg/config/credentials/upsert').set(roles.superAdmin.auth).send({ organization_id: 'no-such-org', oem_name: 'SunCo', credentials: {} }).expect(404);
  });
});
