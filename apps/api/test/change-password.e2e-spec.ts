import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZAuthReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedTenant, seedUser, DEFAULT_PASSWORD, type SeededUser } from './support/factories.js';

const NEW_PASSWORD = 'a-much-better-one';

describe('POST /payg/auth/change-password: a user changes their own password', () => {
  let t: TestApp;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ user: { organization_id: orgId } } = await seedTenant(t));
  });
  afterAll(() => t.close());

  /** A staff user signed in through /authenticate, so it holds a real refresh token. */
  async function signedIn(): Promise<{ user: SeededUser; refresh_token: string; auth: { Authorization: string } }> {
    const user = await seedUser(t, { organization_id: orgId, role: 'staff' });
    const login = ZAuthReplySchema.parse((await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(200)).body);
    return { user, refresh_token: login.refresh_token, auth: { Authorization: `Bearer ${login.access_token}` } };
  }

  const change = (auth: { Authorization: string }, body: object) => t.http.post('/payg/auth/change-password').set(auth).send(body);

  it('changes the password, ends the old sessions and answers a fresh one (staff included)', async () => {
    const { user, refresh_token, auth } = await signedIn();
    const reply = ZAuthReplySchema.parse((await change(auth, { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD }).expect(200)).body);
    expect(reply.user).toMatchObject({ user_id: user.user_id, username: user.username, role: 'staff', organization_id: orgId });

    const row = await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } });
    expect(row.password_hash).toMatch(/^\$2[aby]\$/);
    expect(row.password_hash).not.toContain(NEW_PASSWORD);

    // The refresh token from before is refused, and so is the access token the change was made with (its session
    // has ended); the ones in the reply work.
    await t.http.post('/payg/refresh').send({ refresh_token }).expect(401);
    await t.http.get('/payg/me').set(auth).expect(401);
    await t.http.get('/payg/me').set('Authorization', `Bearer ${reply.access_token}`).expect(200);
    ZAuthReplySchema.parse((await t.http.post('/payg/refresh').send({ refresh_token: reply.refresh_token }).expect(200)).body);

    // The old password no longer signs in; the new one does.
    await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(401);
    await t.http.post('/payg/authenticate').send({ username: user.username, password: NEW_PASSWORD }).expect(200);

    const log = await t.db.platform.auditLog.findMany({ where: { entity_type: 'user', entity_id: String(user.user_id), action: 'user.password_changed' } });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ organization_id: orgId, actor_user_id: user.user_id, description: `${user.username} changed their password` });
  });

  it('refuses a wrong current password with a 400 naming current_password, changing and counting nothing', async () => {
    const { user, refresh_token, auth } = await signedIn();
    const before = await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } });
    const audits = await t.db.platform.auditLog.count();
    // More wrong guesses than the sign-in lockout allows: this route is not the sign-in form.
    for (let i = 0; i < 6; i++) {
      const res = await change(auth, { current_password: 'not-my-password', new_password: NEW_PASSWORD }).expect(400);
      expect(res.body).toMatchObject({ message: 'current_password: is incorrect', errors: [{ field: 'current_password', message: 'is incorrect' }] });
    }
    expect((await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } })).password_hash).toBe(before.password_hash);
    expect(await t.db.platform.auditLog.count()).toBe(audits);
    expect(await t.db.platform.authThrottle.count({ where: { key: `u:${user.username.toLowerCase()}` } })).toBe(0);
    await t.http.post('/payg/refresh').send({ refresh_token }).expect(200);
    await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(200);
  });

  it('holds the new password to the rules of a new user, and refuses the current one again', async () => {
    const { user, auth } = await signedIn();
    const weak = await change(auth, { current_password: DEFAULT_PASSWORD, new_password: 'short' }).expect(400);
    expect(weak.body.errors).toEqual([{ field: 'new_password', message: 'must be at least 8 characters' }]);
    // The same message as POST /users gives for its password (one schema for both).
    const created = await t.http.post('/payg/users').set((await seedUser(t, { organization_id: orgId, role: 'owner' })).auth).send({ username: 'weakling', email: 'w@x.test', password: 'short' }).expect(400);
    expect(created.body.errors).toEqual([{ field: 'password', message: 'must be at least 8 characters' }]);

    const same = await change(auth, { current_password: DEFAULT_PASSWORD, new_password: DEFAULT_PASSWORD }).expect(400);
    expect(same.body.errors).toEqual([{ field: 'new_password', message: 'must be different from the current password' }]);
    const missing = await change(auth, {}).expect(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['current_password', 'new_password']);
    await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(200);
  });

  it('needs a signed-in user', async () => {
    await t.http.post('/payg/auth/change-password').send({ current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD }).expect(401);
  });

  it('appears in the OpenAPI document with its body and reply', async () => {
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body;
    const op = doc.paths['/payg/auth/change-password'].post;
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties).sort()).toEqual(['current_password', 'new_password']);
    expect(op.responses['200'].content['application/json'].schema.properties).toHaveProperty('refresh_token');
  });
});
