import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZAuthReplySchema, ZRecoveryCodesReplySchema, ZTwoFactorChallengeSchema, ZTwoFactorSetupReplySchema } from '@kidogo/contracts';
import { generatePassword, recoverAccount, RecoveryError } from '../src/auth/account-recovery.js';
import { totpCode } from '../src/auth/totp.js';
import { REPO_ROOT } from '../src/config/config.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DEFAULT_PASSWORD, seedOrg, seedTenant, seedUser, signEarlierToken, type SeededUser } from './support/factories.js';

// Account recovery from the command line (README "Account recovery"): what no
// one can do in the app, above all for the only super admin.

const run = promisify(execFile);

describe('pnpm account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signIn = (username: string, password = DEFAULT_PASSWORD) => t.http.post('/payg/authenticate').type('form').send({ username, password });
  /** The CLI as an operator runs it, against the test database. */
  const account = (...args: string[]) =>
    run(process.execPath, [resolve(REPO_ROOT, 'scripts/account.mjs'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: t.databaseUrl, KIDOGO_NEW_PASSWORD: '', NODE_ENV: 'development' },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  async function superAdminWithTwoFactor(): Promise<{ admin: SeededUser; refresh: string }> {
    const org = await seedOrg(t);
    const admin = await seedUser(t, { organization_id: org.id, role: 'super_admin' });
    const setup = ZTwoFactorSetupReplySchema.parse((await t.http.post('/payg/auth/2fa/setup').set(admin.auth).send({ password: DEFAULT_PASSWORD }).expect(200)).body);
    ZRecoveryCodesReplySchema.parse((await t.http.post('/payg/auth/2fa/enable').set(admin.auth).send({ code: totpCode(setup.secret) }).expect(200)).body);
    // A session from before the phone was lost (the code of the next step: the current one was taken by enable).
    const { challenge_token } = ZTwoFactorChallengeSchema.parse((await signIn(admin.username).expect(200)).body);
    const next = totpCode(setup.secret, Date.now() + 30_000);
    const session = ZAuthReplySchema.parse((await t.http.post('/payg/authenticate/2fa').send({ challenge_token, code: next }).expect(200)).body);
    return { admin, refresh: session.refresh_token };
  }

  it('turns off the only super admin\'s two-factor sign-in, ends their sessions and audits who ran it', async () => {
    const { admin, refresh } = await superAdminWithTwoFactor();

    const out = await account('reset-two-factor', admin.username);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toContain(`Two-factor sign-in is off for ${admin.username}`);
    expect(out.stdout).toContain('Their sessions are ended.');

    // The password alone signs in now; the session from before is over.
    ZAuthReplySchema.parse((await signIn(admin.username).expect(200)).body);
    await t.http.post('/payg/refresh').send({ refresh_token: refresh }).expect(401);
    const row = await t.db.platform.user.findUniqueOrThrow({ where: { id: admin.user_id } });
    expect(row).toMatchObject({ totp_secret_enc: null, totp_enabled_at: null, totp_recovery_codes: [] });

    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'user.2fa_reset', entity_id: String(admin.user_id) } });
    expect(audit).toMatchObject({ actor_user_id: null, actor_username: null, organization_id: admin.organization_id });
    expect(audit.description).toMatch(new RegExp(`^Two-factor sign-in of ${admin.username} turned off from the server's command line \\(pnpm account reset-two-factor, by .+@.+\\)$`));
    expect(audit.metadata).toMatchObject({ via: 'command_line', command: 'reset-two-factor' });

    // Again: nothing to turn off, said plainly, exit code 1.
    const again = await account('reset-two-factor', admin.username);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr.trim()).toBe(`${admin.username} does not use two-factor sign-in`);
  });

  it("gives a user whose time to set up a required two-factor sign-in has passed 7 more days", async () => {
    const org = await seedOrg(t);
    await t.db.platform.organization.update({ where: { id: org.id }, data: { require_two_factor: true } });
    const user = await seedUser(t, { organization_id: org.id, role: 'owner' });
    await t.db.platform.user.update({ where: { id: user.user_id }, data: { two_factor_setup_until: new Date(Date.now() - 1000) } });
    await t.http.post('/payg/auth/2fa/setup').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(403);
    const out = await account('reset-two-factor', user.username);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toContain(`${user.username} may set up two-factor sign-in again: they sign in with their password and must set it up within 7 days`);
    const row = await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } });
    expect((row.two_factor_setup_until!.getTime() - Date.now()) / 86_400_000).toBeCloseTo(7, 1);
    await t.http.post('/payg/auth/2fa/setup').set(user.auth).send({ password: DEFAULT_PASSWORD }).expect(200);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'user.2fa_reset', entity_id: String(user.user_id) } });
    expect(audit.description).toMatch(new RegExp(`^Two-factor set-up reopened for ${user.username} for 7 days from the server's command line`));
  });

  it('gives a new password, printed once, that refuses the old password and every earlier token', async () => {
    const { user } = await seedTenant(t);
    const session = ZAuthReplySchema.parse((await signIn(user.username).expect(200)).body);
    const earlier = signEarlierToken(t, user);
    await t.http.get('/payg/me').set('Authorization', `Bearer ${earlier}`).expect(200);

    const out = await account('reset-password', user.username);
    expect(out.code).toBe(0);
    const password = /^New password: (\S+)$/m.exec(out.stdout)?.[1];
    expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{16}$/);

    await signIn(user.username).expect(401);
    ZAuthReplySchema.parse((await signIn(user.username, password).expect(200)).body);
    await t.http.get('/payg/me').set('Authorization', `Bearer ${earlier}`).expect(401);
    await t.http.post('/payg/refresh').send({ refresh_token: session.refresh_token }).expect(401);
    expect(await t.db.platform.auditLog.count({ where: { action: 'user.password_reset', entity_id: String(user.user_id), actor_user_id: null } })).toBe(1);

    // A chosen one (KIDOGO_NEW_PASSWORD for the CLI) is checked like any new password.
    await expect(recoverAccount(t.databaseUrl, 'reset-password', user.username, { password: 'short' })).rejects.toThrow(
      new RecoveryError('The new password must be at least 8 characters'),
    );
    await signIn(user.username, password).expect(200);
    await recoverAccount(t.databaseUrl, 'reset-password', user.username, { password: 'chosen-by-the-operator' });
    await signIn(user.username, 'chosen-by-the-operator').expect(200);
  });

  it('clears a sign-in lockout, and says when there is none', async () => {
    const { user } = await seedTenant(t);
    for (let i = 0; i < 5; i++) await signIn(user.username, 'wrong-password').expect(401);
    await signIn(user.username).expect(429);

    const out = await account('unlock', user.username);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`${user.username} may sign in again`);
    await signIn(user.username).expect(200);
    expect(await t.db.platform.auditLog.count({ where: { action: 'user.unlocked', entity_id: String(user.user_id) } })).toBe(1);

    const none = await account('unlock', user.username);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr.trim()).toBe(`${user.username} is not locked out`);
  });

  it('changes nothing for an unknown user, an unknown action or a missing name', async () => {
    const before = await t.db.platform.auditLog.count();
    expect(await account('reset-password', 'nobody-by-this-name')).toMatchObject({ code: 1, stdout: '' });
    expect((await account('reset-password', 'nobody-by-this-name')).stderr.trim()).toBe('No user is called nobody-by-this-name');
    const unknown = await account('delete-everything', 'admin');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: pnpm account reset-two-factor|reset-password|unlock <username>');
    expect((await account('reset-password')).code).toBe(2);
    expect(await t.db.platform.auditLog.count()).toBe(before);
  });

  it('generates passwords without look-alike characters', () => {
    const many = Array.from({ length: 200 }, () => generatePassword());
    expect(new Set(many).size).toBe(200);
    for (const p of many) expect(p).toMatch(/^[^0O1lI]{16}$/);
  });
});
