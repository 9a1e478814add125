import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZAuthReplySchema, ZSessionListSchema, ZSignOutReplySchema, type AuthReply } from '@kidogo/contracts';
import { SessionsService, SPENT_REFRESH_TOKENS_KEPT_HOURS } from '../src/auth/sessions.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DEFAULT_PASSWORD, seedTenant, seedUser, signEarlierToken, type SeededUser } from './support/factories.js';

// Signed-in devices (README "Signed-in devices"): where a user is signed in,
// signing out of one device, of all others, or of everything at once, and a
// manager signing a user out everywhere.

const PHONE = 'Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('signed-in sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signIn = async (user: SeededUser, agent: string): Promise<AuthReply> =>
    ZAuthReplySchema.parse(
      (await t.http.post('/payg/authenticate').set('User-Agent', agent).type('form').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(200)).body,
    );
  const bearer = (s: AuthReply | string) => ({ Authorization: `Bearer ${typeof s === 'string' ? s : s.access_token}` });
  const list = async (s: AuthReply | string) => ZSessionListSchema.parse((await t.http.get('/payg/auth/sessions').set(bearer(s)).expect(200)).body).data;
  const refresh = (s: AuthReply, agent = LAPTOP) => t.http.post('/payg/refresh').set('User-Agent', agent).send({ refresh_token: s.refresh_token });
  const claims = (s: AuthReply) => JSON.parse(Buffer.from(s.access_token.split('.')[1]!, 'base64url').toString()) as { sid: string; iat: number };
  /** An access token of `s`'s session issued a minute ago: the one a thief copied earlier. */
  const copiedEarlier = (user: SeededUser, s: AuthReply) => signEarlierToken(t, user, { sid: claims(s).sid });

  it('lists where the user is signed in, each sign-in one session through its refreshes', async () => {
    const { user } = await seedTenant(t);
    const laptop = await signIn(user, LAPTOP);
    const phone = await signIn(user, PHONE);
    expect(claims(laptop).sid).not.toBe(claims(phone).sid);

    const seen = await list(laptop);
    expect(seen).toHaveLength(2);
    expect(seen.map((s) => [s.user_agent, s.current])).toEqual([
      [PHONE, false],
      [LAPTOP, true],
    ]);
    expect(seen[0]).toMatchObject({ session_id: claims(phone).sid, ip: expect.stringMatching(/127\.0\.0\.1/) });
    expect(Date.parse(seen[0]!.expires_at)).toBeGreaterThan(Date.now() + 86_400_000);

    // A refresh is the same session, active now, from wherever it came.
    const renewed = ZAuthReplySchema.parse((await refresh(phone, `${PHONE} renewed`).expect(200)).body);
    expect(claims(renewed).sid).toBe(claims(phone).sid);
    const after = await list(renewed);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ session_id: claims(phone).sid, signed_in_at: seen[0]!.signed_in_at, user_agent: `${PHONE} renewed`, current: true });
    expect(Date.parse(after[0]!.last_active_at)).toBeGreaterThanOrEqual(Date.parse(seen[0]!.last_active_at));

    // Signing out (POST /logout) ends it.
    await t.http.post('/payg/logout').send({ refresh_token: renewed.refresh_token }).expect(200);
    expect((await list(laptop)).map((s) => s.session_id)).toEqual([claims(laptop).sid]);
  });

  it('signs out of one device, and of every other one, whose access tokens are refused from the next request', async () => {
    const { user } = await seedTenant(t);
    const laptop = await signIn(user, LAPTOP);
    const phone = await signIn(user, PHONE);
    const tablet = await signIn(user, PHONE);
    await t.http.get('/payg/me').set(bearer(phone)).expect(200);

    const one = await t.http.delete(`/payg/auth/sessions/${claims(phone).sid}`).set(bearer(laptop)).expect(200);
    expect(ZSignOutReplySchema.parse(one.body)).toEqual({ message: 'Signed out of that device', sessions_ended: 1 });
    // At once, not when its access token runs out: the lost phone is out now.
    expect((await t.http.get('/payg/me').set(bearer(phone)).expect(401)).body.detail).toBe('Your session is no longer valid');
    await refresh(phone).expect(401);
    await t.http.get('/payg/me').set(bearer(laptop)).expect(200);
    await t.http.get('/payg/me').set(bearer(tablet)).expect(200);
    await t.http.delete(`/payg/auth/sessions/${claims(phone).sid}`).set(bearer(laptop)).expect(404);
    const bad = await t.http.delete('/payg/auth/sessions/not-a-session').set(bearer(laptop)).expect(400);
    expect(bad.body.errors).toEqual([{ field: 'session_id', message: 'must be a session id from GET /auth/sessions' }]);

    // Another user's session is not theirs to end, even in the same organization.
    const colleague = await seedUser(t, { organization_id: user.organization_id, role: 'owner' });
    const theirs = await signIn(colleague, LAPTOP);
    await t.http.delete(`/payg/auth/sessions/${claims(theirs).sid}`).set(bearer(laptop)).expect(404);
    expect(await list(theirs)).toHaveLength(1);

    const others = ZSignOutReplySchema.parse((await t.http.post('/payg/auth/sessions/sign-out-others').set(bearer(laptop)).expect(200)).body);
    expect(others).toEqual({ message: 'Signed out everywhere else (1 session)', sessions_ended: 1 });
    await t.http.get('/payg/me').set(bearer(tablet)).expect(401);
    await refresh(tablet).expect(401);
    expect((await list(laptop)).map((s) => s.current)).toEqual([true]);
    ZAuthReplySchema.parse((await refresh(laptop).expect(200)).body);

    const audit = await t.db.platform.auditLog.findMany({ where: { action: 'user.signed_out', entity_id: String(user.user_id) }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.actor_username, a.description])).toEqual([
      [user.username, `${user.username} signed out of a device`],
      [user.username, `${user.username} signed out everywhere else (1 session)`],
    ]);
  });

  it('signs out everywhere at once: every access token issued before is refused from the next request', async () => {
    const { user } = await seedTenant(t);
    const mine = await signIn(user, LAPTOP);
    const stolen = await signIn(user, PHONE);
    const thief = copiedEarlier(user, stolen);
    await t.http.get('/payg/me').set(bearer(thief)).expect(200);

    const all = ZSignOutReplySchema.parse((await t.http.post('/payg/auth/sessions/sign-out-everywhere').set(bearer(copiedEarlier(user, mine))).expect(200)).body);
    expect(all).toEqual({ message: 'Signed out everywhere (2 sessions)', sessions_ended: 2 });
    expect((await t.http.get('/payg/me').set(bearer(thief)).expect(401)).body.detail).toBe('Your session is no longer valid');
    await refresh(stolen).expect(401);
    await refresh(mine).expect(401);
    // A token of an ended session is refused even if it was issued in the very second of the sign-out (iat counts
    // whole seconds); the password signs in again at once, as a new session.
    await t.http.get('/payg/me').set(bearer(signEarlierToken(t, user, { sid: claims(stolen).sid, secondsAgo: 0 }))).expect(401);
    const again = await signIn(user, LAPTOP);
    expect((await list(again)).map((s) => s.session_id)).toEqual([claims(again).sid]);
  });

  it("keeps a session's access tokens working while its browser refreshes, and refuses a token naming no real session", async () => {
    const { user } = await seedTenant(t);
    let current = await signIn(user, LAPTOP);
    const first = current;
    // Requests with the session's access tokens go on while it is refreshed again and again: the next link is
    // written with the spent one, so the session is never without a live refresh token.
    for (let round = 0; round < 5; round += 1) {
      const [renewed, ...calls] = await Promise.all([
        refresh(current),
        ...Array.from({ length: 8 }, () => t.http.get('/payg/me').set(bearer(round % 2 ? first : current))),
      ]);
      expect(renewed.status).toBe(200);
      expect(calls.map((c) => c.status)).toEqual(Array(8).fill(200));
      current = ZAuthReplySchema.parse(renewed.body);
    }
    await t.http.get('/payg/me').set(bearer(first)).expect(200);

    // A session id that was never issued, or is not a session id at all.
    await t.http.get('/payg/me').set(bearer(signEarlierToken(t, user, { sid: randomUUID(), secondsAgo: 0 }))).expect(401);
    expect((await t.http.get('/payg/me').set(bearer(signEarlierToken(t, user, { sid: 'not-a-uuid', secondsAgo: 0 }))).expect(401)).body.detail).toBe('Invalid token');
    // Another user's session does not make this user's token live.
    const colleague = await seedUser(t, { organization_id: user.organization_id, role: 'staff' });
    const theirs = await signIn(colleague, PHONE);
    await t.http.get('/payg/me').set(bearer(signEarlierToken(t, user, { sid: claims(theirs).sid, secondsAgo: 0 }))).expect(401);
  });

  it("lets an owner or admin sign a user of the organization out everywhere; not an owner by an admin, not across organizations", async () => {
    const { org, user: owner } = await seedTenant(t);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const lost = await signIn(staff, PHONE);
    const onThePhone = copiedEarlier(staff, lost);

    const done = ZSignOutReplySchema.parse((await t.http.post(`/payg/users/${staff.user_id}/sign-out`).set(admin.auth).expect(200)).body);
    expect(done).toEqual({ message: `${staff.username} is signed out everywhere (1 session)`, sessions_ended: 1 });
    await t.http.get('/payg/me').set(bearer(onThePhone)).expect(401);
    await refresh(lost).expect(401);
    const entry = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'user.signed_out', entity_id: String(staff.user_id) } });
    expect(entry).toMatchObject({ actor_username: admin.username, description: `${staff.username} signed out everywhere by ${admin.username} (1 session)` });

    expect((await t.http.post(`/payg/users/${owner.user_id}/sign-out`).set(admin.auth).expect(403)).body.detail).toBe("Admins cannot change or delete an owner's account");
    await t.http.post(`/payg/users/${admin.user_id}/sign-out`).set(owner.auth).expect(200);
    await t.http.post(`/payg/users/${owner.user_id}/sign-out`).set(owner.auth).expect(409);
    // Staff may not (signed in again: the token seeded with the user went with the sign-out, once a second had passed).
    await t.http.post(`/payg/users/${staff.user_id}/sign-out`).set(bearer(await signIn(staff, LAPTOP))).expect(403);
    const other = await seedTenant(t);
    await t.http.post(`/payg/users/${staff.user_id}/sign-out`).set(other.user.auth).expect(404);
    await t.http.post(`/payg/users/${randomUUID()}/sign-out`).set(owner.auth).expect(400);
  });

  it('deletes refresh tokens spent over a day ago, keeping live sessions and the recent past', async () => {
    const { user } = await seedTenant(t);
    const live = await signIn(user, LAPTOP);
    const used = await signIn(user, PHONE);
    ZAuthReplySchema.parse((await refresh(used, PHONE).expect(200)).body);
    const rows = () => t.db.platform.refreshToken.findMany({ where: { user_id: user.user_id }, orderBy: { created_at: 'asc' } });
    const [, spent] = await rows();
    expect(spent!.revoked_at).not.toBeNull();
    const old = new Date(Date.now() - (SPENT_REFRESH_TOKENS_KEPT_HOURS + 1) * 3_600_000);
    await t.db.platform.refreshToken.update({ where: { id: spent!.id }, data: { revoked_at: old } });
    await t.db.platform.refreshToken.create({
      data: { id: randomUUID(), user_id: user.user_id, token_hash: randomUUID().replace(/-/g, ''), expires_at: old, session_id: randomUUID(), signed_in_at: old },
    });

    expect(await t.app.get(SessionsService).prune()).toBeGreaterThanOrEqual(2);
    expect((await rows()).map((r) => r.revoked_at === null)).toEqual([true, true]);
    expect((await list(live)).map((s) => s.user_agent)).toEqual([PHONE, LAPTOP]);
  });

  it('answers an API token with the sessions of its user, none of them current', async () => {
    const { user } = await seedTenant(t);
    await signIn(user, LAPTOP);
    const made = await t.http.post('/payg/auth/api-tokens').set(user.auth).send({ name: 'Warehouse', read_only: true }).expect(201);
    const seen = await list(made.body.token as string);
    expect(seen.map((s) => [s.user_agent, s.current])).toEqual([[LAPTOP, false]]);
  });
});
