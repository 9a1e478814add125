import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZAuthReplySchema,
  ZChallengeExpiredReplySchema,
  ZRecoveryCodesReplySchema,
  ZTwoFactorChallengeSchema,
  ZTwoFactorSetupReplySchema,
  ZTwoFactorStatusSchema,
  ZUserListSchema,
} from '@kidogo/contracts';
import { base32Decode, hotp, totpCode, totpStep } from '../src/auth/totp.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DEFAULT_PASSWORD, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// Two-factor sign-in (README "Two-factor sign-in"): TOTP codes from an
// authenticator app after the password, ten single-use recovery codes, and
// an owner's or admin's reset for a user who lost their phone.

describe('two-factor sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const status = async (user: SeededUser) => ZTwoFactorStatusSchema.parse((await t.http.get('/payg/auth/2fa').set(user.auth).expect(200)).body);
  const password = (username: string, pw = DEFAULT_PASSWORD) => t.http.post('/payg/authenticate').type('form').send({ username, password: pw });
  const withCode = (challenge_token: string, code: string) => t.http.post('/payg/authenticate/2fa').send({ challenge_token, code });
  const challengeOf = async (username: string) => ZTwoFactorChallengeSchema.parse((await password(username).expect(200)).body).challenge_token;
  /** The code of the step after `secret`'s current one: a fresh code once the current one was used. */
  const nextCode = (secret: string) => hotp(base32Decode(secret), totpStep() + 1);

  /** Turns two-factor sign-in on for `user` through the API; answers the secret and the recovery codes. */
  async function turnOn(user: SeededUser) {
    const setup = ZTwoFactorSetupReplySchema.parse((await t.http.post('/payg/auth/2fa/setup').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(200)).body);
    const on = ZRecoveryCodesReplySchema.parse((await t.http.post('/payg/auth/2fa/enable').set(user.auth).send({ code: totpCode(setup.secret) }).expect(200)).body);
    return { secret: setup.secret, recovery: on.recovery_codes };
  }

  it('is set up with the password and turned on with the first code, which answers ten recovery codes once', async () => {
    const { user } = await seedTenant(t);
    expect(await status(user)).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });

    const wrong = await t.http.post('/payg/auth/2fa/setup').set(user.auth).send({ password: 'not-it' }).expect(400);
    expect(wrong.body.errors).toEqual([{ field: 'password', message: 'is incorrect' }]);
    await t.http.post('/payg/auth/2fa/enable').set(user.auth).send({ code: '123456' }).expect(409);

    const setup = ZTwoFactorSetupReplySchema.parse((await t.http.post('/payg/auth/2fa/setup').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(200)).body);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup).toMatchObject({ issuer: 'Kidogo', account: user.username });
    expect(setup.otpauth_url).toBe(`otpauth://totp/Kidogo:${encodeURIComponent(user.username)}?secret=${setup.secret}&issuer=Kidogo&algorithm=SHA1&digits=6&period=30`);
    // Pending: signing in still takes the password only, and the secret is kept sealed.
    expect(ZAuthReplySchema.safeParse((await password(user.username).expect(200)).body).success).toBe(true);
    const row = await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } });
    expect(row.totp_secret_enc).toMatch(/^v1\./);
    expect(row.totp_secret_enc).not.toContain(setup.secret);

    const bad = await t.http.post('/payg/auth/2fa/enable').set(user.auth).send({ code: '12345' }).expect(400);
    expect(bad.body.errors).toEqual([{ field: 'code', message: 'must be the 6 digits your authenticator app shows' }]);
    const off = totpCode(setup.secret) === '000000' ? '111111' : '000000';
    expect((await t.http.post('/payg/auth/2fa/enable').set(user.auth).send({ code: off }).expect(400)).body.errors).toEqual([
      { field: 'code', message: 'is not the current code from your authenticator app' },
    ]);
    const code = totpCode(setup.secret);
    const on = ZRecoveryCodesReplySchema.parse((await t.http.post('/payg/auth/2fa/enable').set(user.auth).send({ code: `${code.slice(0, 3)} ${code.slice(3)}` }).expect(200)).body);
    expect(on.message).toBe('Two-factor sign-in is on');
    expect(on.recovery_codes).toHaveLength(10);
    expect(new Set(on.recovery_codes).size).toBe(10);
    expect(await status(user)).toEqual({ enabled: true, enabled_at: expect.any(String), recovery_codes_left: 10 });
    // Stored as hashes only.
    const stored = await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } });
    expect(stored.totp_recovery_codes.some((h) => on.recovery_codes.includes(h))).toBe(false);
    await t.http.post('/payg/auth/2fa/setup').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(409);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'user.2fa_enabled', entity_id: String(user.user_id) } });
    expect(audit.actor_username).toBe(user.username);
    // The team list shows it.
    const team = ZUserListSchema.parse((await t.http.get('/payg/users').set(user.auth).expect(200)).body);
    expect(team.data.find((u) => u.user_id === user.user_id)!.two_factor_enabled).toBe(true);
  });

  it('asks for a code after the password; each code and each recovery code works once', async () => {
    const { user } = await seedTenant(t);
    const { secret, recovery } = await turnOn(user);

    const first = ZTwoFactorChallengeSchema.parse((await password(user.username).expect(200)).body);
    expect(first).toEqual({ two_factor_required: true, challenge_token: expect.any(String), expires_in: 300, message: 'Enter the code from your authenticator app' });
    expect((await password(user.username).expect(200)).body.access_token).toBeUndefined();
    // A challenge is no access token.
    await t.http.get('/payg/me').set('Authorization', `Bearer ${first.challenge_token}`).expect(401);

    const wrong = await withCode(first.challenge_token, totpCode(secret) === '000000' ? '111111' : '000000').expect(401);
    expect(wrong.body.message).toBe('Invalid code');
    // The code of the next step: the enable call used the current one, and a code never works twice.
    const code = nextCode(secret);
    const session = ZAuthReplySchema.parse((await withCode(first.challenge_token, code).expect(200)).body);
    expect(session.user.username).toBe(user.username);
    await t.http.get('/payg/me').set('Authorization', `Bearer ${session.access_token}`).expect(200);
    const replay = await withCode(await challengeOf(user.username), code).expect(401);
    expect(replay.body.message).toBe('Invalid code');

    // A recovery code, typed in capitals without its dash, once.
    const typed = recovery[3]!.toUpperCase().replace('-', '');
    ZAuthReplySchema.parse((await withCode(await challengeOf(user.username), typed).expect(200)).body);
    await withCode(await challengeOf(user.username), recovery[3]!).expect(401);
    expect(await status(user)).toMatchObject({ recovery_codes_left: 9 });
    const signIns = await t.db.platform.auditLog.findMany({ where: { action: 'auth.login', entity_id: String(user.user_id) }, orderBy: { id: 'asc' } });
    expect(signIns.map((a) => a.description)).toEqual([`${user.username} signed in with two-factor sign-in`, `${user.username} signed in with a recovery code`]);

    // Forged, foreign and blank challenges.
    const forged = await withCode(`${first.challenge_token.slice(0, -4)}AAAA`, nextCode(secret)).expect(401);
    expect(ZChallengeExpiredReplySchema.parse(forged.body)).toEqual({
      detail: 'This sign-in has expired: enter your password again',
      message: 'This sign-in has expired: enter your password again',
      code: 'TWO_FACTOR_CHALLENGE_EXPIRED',
    });
    // A wrong code is not an expired challenge: the code is asked again, not the password.
    const wrongCode = await withCode(await challengeOf(user.username), nextCode(secret) === '000000' ? '111111' : '000000').expect(401);
    expect(wrongCode.body).toEqual({ detail: 'Invalid code', message: 'Invalid code' });
    await withCode(session.access_token, nextCode(secret)).expect(401);
    const blank = await t.http.post('/payg/authenticate/2fa').send({ challenge_token: '', code: '' }).expect(400);
    expect(blank.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['challenge_token', 'code']);
  });

  it('counts wrong codes towards the sign-in lockout', async () => {
    const { user } = await seedTenant(t);
    const { secret } = await turnOn(user);
    const challenge = await challengeOf(user.username);
    const wrong = nextCode(secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await withCode(challenge, wrong).expect(401);
    const locked = await withCode(challenge, nextCode(secret)).expect(429);
    expect(locked.body.message).toMatch(/^Too many failed sign-in attempts/);
    await password(user.username).expect(429);
  });

  it('makes new recovery codes and turns off with the password', async () => {
    const { user } = await seedTenant(t);
    const { recovery } = await turnOn(user);
    await t.http.post('/payg/auth/2fa/recovery-codes').set(user.auth).send({ password: 'not-it' }).expect(400);
    const renewed = ZRecoveryCodesReplySchema.parse((await t.http.post('/payg/auth/2fa/recovery-codes').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(200)).body);
    expect(renewed.recovery_codes).toHaveLength(10);
    await withCode(await challengeOf(user.username), recovery[0]!).expect(401);
    ZAuthReplySchema.parse((await withCode(await challengeOf(user.username), renewed.recovery_codes[0]!).expect(200)).body);

    await t.http.post('/payg/auth/2fa/disable').set(user.auth).send({ password: 'not-it' }).expect(400);
    expect((await t.http.post('/payg/auth/2fa/disable').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(200)).body).toEqual({ message: 'Two-factor sign-in is off' });
    expect(await status(user)).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    ZAuthReplySchema.parse((await password(user.username).expect(200)).body);
    await t.http.post('/payg/auth/2fa/recovery-codes').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(409);
    expect(await t.db.platform.auditLog.count({ where: { entity_id: String(user.user_id), action: { in: ['user.2fa_recovery_codes', 'user.2fa_disabled'] } } })).toBe(2);
  });

  it("lets an owner or admin reset a user's two-factor sign-in, which signs them out; not an owner's by an admin, not across organizations", async () => {
    const { org, user: owner } = await seedTenant(t);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await turnOn(staff);
    await turnOn(owner);
    await t.http.post(`/payg/users/${staff.user_id}/2fa/reset`).set(staff.auth).expect(403);
    await t.http.post(`/payg/users/${owner.user_id}/2fa/reset`).set(admin.auth).expect(403);
    const other = await seedTenant(t);
    await t.http.post(`/payg/users/${staff.user_id}/2fa/reset`).set(other.user.auth).expect(404);

    const refresh = await t.db.platform.refreshToken.create({
      data: {
        id: randomUUID(),
        user_id: staff.user_id,
        token_hash: randomUUID().replace(/-/g, ''),
        expires_at: new Date(Date.now() + 86_400_000),
        session_id: randomUUID(),
        signed_in_at: new Date(),
      },
    });
    const reset = await t.http.post(`/payg/users/${staff.user_id}/2fa/reset`).set(admin.auth).expect(200);
    expect(reset.body).toEqual({ message: `${staff.username} signs in with a password only until they set up two-factor sign-in again` });
    expect((await t.db.platform.refreshToken.findUniqueOrThrow({ where: { id: refresh.id } })).revoked_at).not.toBeNull();
    ZAuthReplySchema.parse((await password(staff.username).expect(200)).body);
    await t.http.post(`/payg/users/${staff.user_id}/2fa/reset`).set(admin.auth).expect(409);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'user.2fa_reset', entity_id: String(staff.user_id) } });
    expect(audit).toMatchObject({ actor_username: admin.username, organization_id: org.id });
    // The owner's own reset of the owner: allowed (an owner may), and the owner's 2FA is off.
    await t.http.post(`/payg/users/${owner.user_id}/2fa/reset`).set(owner.auth).expect(200);
    expect(await status(owner)).toMatchObject({ enabled: false });
  });

  it('can be required of every user: one without it may then only set it up; API tokens go on working', async () => {
    const { org, user: owner } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const security = (body?: object) =>
      body ? t.http.put('/payg/settings/security').set(owner.auth).send(body) : t.http.get('/payg/settings/security').set(owner.auth);
    expect((await security().expect(200)).body).toEqual({ require_two_factor: false, users_without_two_factor: 2 });
    const staffToken = (await t.http.post('/payg/auth/api-tokens').set(staff.auth).send({ name: 'Warehouse', expires_in_days: 30 }).expect(201)).body.token as string;
    // Not before the owner's own is on.
    expect((await security({ require_two_factor: true }).expect(409)).body.message).toMatch(/^Turn on your own two-factor sign-in first/);
    await turnOn(owner);
    expect((await security({ require_two_factor: 'yes' }).expect(400)).body.errors).toEqual([{ field: 'require_two_factor', message: 'must be true or false' }]);
    await t.http.put('/payg/settings/security').set(staff.auth).send({ require_two_factor: true }).expect(403);
    expect((await security({ require_two_factor: true }).expect(200)).body).toEqual({ require_two_factor: true, users_without_two_factor: 1 });
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'organization.two_factor_required' } })).toBe(1);

    // The staff member's session: everything but setting it up is refused, and says why.
    const refused = await t.http.get('/payg/registered-customers').set(staff.auth).expect(403);
    expect(refused.body).toEqual({
      detail: { error: 'TWO_FACTOR_REQUIRED', message: 'Your organization requires two-factor sign-in: set it up in Settings → Two-Factor Sign-In' },
      message: 'Your organization requires two-factor sign-in: set it up in Settings → Two-Factor Sign-In',
    });
    expect((await t.http.get('/payg/me').set(staff.auth).expect(200)).body.two_factor_setup_required).toBe(true);
    const signIn = ZAuthReplySchema.parse((await password(staff.username).expect(200)).body);
    expect(signIn.user.two_factor_setup_required).toBe(true);
    // Their API token, a credential of its own, is not asked.
    await t.http.get('/payg/registered-customers').set('Authorization', `Bearer ${staffToken}`).expect(200);
    // The owner, who has it, works as before.
    await t.http.get('/payg/registered-customers').set(owner.auth).expect(200);

    await turnOn(staff);
    await t.http.get('/payg/registered-customers').set(staff.auth).expect(200);
    expect((await t.http.get('/payg/me').set(staff.auth).expect(200)).body.two_factor_setup_required).toBe(false);
    expect((await security().expect(200)).body).toEqual({ require_two_factor: true, users_without_two_factor: 0 });

    // No longer required: a user who turns theirs off is let through.
    expect((await t.http.post('/payg/auth/2fa/disable').set(staff.auth).send({ password: DEFAULT_PASSWORD }).expect(409)).body.message).toMatch(
      /^Your organization requires two-factor sign-in, so it cannot be turned off/,
    );
    expect((await security({ require_two_factor: false }).expect(200)).body).toEqual({ require_two_factor: false, users_without_two_factor: 0 });
    await t.http.post('/payg/auth/2fa/disable').set(staff.auth).send({ password: DEFAULT_PASSWORD }).expect(200);
    await t.http.get('/payg/registered-customers').set(staff.auth).expect(200);
  });

  it('where it is required, gives a user 7 days to set it up with the password alone; afterwards only a manager reopens it', async () => {
    const { org, user: owner } = await seedTenant(t);
    const early = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await turnOn(owner);
    const at = Date.now();
    await t.http.put('/payg/settings/security').set(owner.auth).send({ require_two_factor: true }).expect(200);
    const me = async (user: SeededUser) => (await t.http.get('/payg/me').set(user.auth).expect(200)).body as { two_factor_setup_until: string | null };
    const days = (iso: string | null) => (Date.parse(iso!) - at) / 86_400_000;
    expect(days((await me(early)).two_factor_setup_until)).toBeCloseTo(7, 1);
    // Nothing is due of the owner, who has it.
    expect((await me(owner)).two_factor_setup_until).toBeNull();

    // Someone added afterwards gets their 7 days from then.
    const added = await t.http.post('/payg/users').set(owner.auth).send({ username: `late-${randomUUID().slice(0, 8)}`, email: 'late@example.com', password: 'a-long-enough-password', role: 'staff' }).expect(201);
    const row = await t.db.platform.user.findUniqueOrThrow({ where: { id: added.body.user_id } });
    expect((row.two_factor_setup_until!.getTime() - at) / 86_400_000).toBeCloseTo(7, 1);

    // The 7 days pass: a stolen password alone no longer sets it up, and says whom to ask.
    await t.db.platform.user.update({ where: { id: early.user_id }, data: { two_factor_setup_until: new Date(Date.now() - 1000) } });
    const late = await t.http.post('/payg/auth/2fa/setup').set(early.auth).send({ password: DEFAULT_PASSWORD }).expect(403);
    expect(late.body.message).toMatch(/^The time to set up two-factor sign-in has passed \(\d{4}-\d{2}-\d{2}\): ask an owner or admin of your organization to reset your two-factor sign-in/);
    // Nor a secret made before the time ran out.
    await t.db.platform.user.update({ where: { id: early.user_id }, data: { two_factor_setup_until: new Date(Date.now() + 60_000) } });
    const setup = ZTwoFactorSetupReplySchema.parse((await t.http.post('/payg/auth/2fa/setup').set(early.auth).send({ password: DEFAULT_PASSWORD }).expect(200)).body);
    await t.db.platform.user.update({ where: { id: early.user_id }, data: { two_factor_setup_until: new Date(Date.now() - 1000) } });
    await t.http.post('/payg/auth/2fa/enable').set(early.auth).send({ code: totpCode(setup.secret) }).expect(403);
    expect(await status(early)).toMatchObject({ enabled: false });

    // Staff cannot reopen it; an owner or admin can, for another 7 days, audited.
    await t.http.post(`/payg/users/${early.user_id}/2fa/reset`).set(early.auth).expect(403);
    const reopened = await t.http.post(`/payg/users/${early.user_id}/2fa/reset`).set(owner.auth).expect(200);
    expect(reopened.body.message).toMatch(new RegExp(`^${early.username} may set up two-factor sign-in with their password until \\d{4}-\\d{2}-\\d{2}$`));
    expect(days((await me(early)).two_factor_setup_until)).toBeCloseTo(7, 1);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'user.2fa_reset', entity_id: String(early.user_id) }, orderBy: { id: 'desc' } });
    expect(audit.description).toMatch(new RegExp(`^${owner.username} let ${early.username} set up two-factor sign-in until `));
    await turnOn(early);
    await t.http.get('/payg/registered-customers').set(early.auth).expect(200);

    // Where it is not required, anyone may set it up at any time, and a reset of someone without it has nothing to do.
    const free = await seedTenant(t);
    await turnOn(free.user);
    const colleague = await seedUser(t, { organization_id: free.org.id, role: 'staff' });
    await t.http.post(`/payg/users/${colleague.user_id}/2fa/reset`).set(free.user.auth).expect(409);
    expect((await me(colleague)).two_factor_setup_until).toBeNull();
  });
});
