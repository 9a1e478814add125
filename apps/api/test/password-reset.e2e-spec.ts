import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PASSWORD_RESET_SENT, ZAuthReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeSmtp, type ReceivedMail } from './support/fake-smtp.js';
import { DEFAULT_PASSWORD, seedOrg, seedUser, type SeededUser } from './support/factories.js';
import { hex } from './support/world.js';

// A forgotten password, reset by a link emailed to the user (README "Account recovery").

describe('forgot password', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  let org: string;
  beforeAll(async () => {
    smtp = await new FakeSmtp().start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://payg.example.test', MAIL_FROM: 'Jua Solar <accounts@jua.test>' } });
    org = (await seedOrg(t)).id;
    await t.db.platform.organization.update({ where: { id: org }, data: { name: 'Jua Solar' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Each test asks from an address of its own: one address may ask only so many times. */
  const address = () => `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const ask = (login: string, from = address()) =>
    t.http.post('/payg/auth/password-reset').set('X-Forwarded-For', from).send({ login });
  const confirm = (token: string, new_password: string) => t.http.post('/payg/auth/password-reset/confirm').send({ token, new_password });
  const signIn = (username: string, password: string) => t.http.post('/payg/authenticate').send({ username, password });
  const emailOf = async (u: SeededUser) => (await t.db.platform.user.findUniqueOrThrow({ where: { id: u.user_id } })).email!;
  const tokenIn = (mail: ReceivedMail) => {
    const link = /https:\/\/payg\.example\.test\/reset-password\?token=([\w-]+)/.exec(mail.text);
    if (!link) throw new Error(`no link in:\n${mail.text}`);
    return decodeURIComponent(link[1]!);
  };
  /** Lets the links asked for so far go out (they are looked up and mailed after the reply). */
  const settle = () => new Promise((r) => setTimeout(r, 400));

  it('says it can be used, and emails a link that sets a new password once and ends every session', async () => {
    expect((await t.http.get('/payg/auth/password-reset').expect(200)).body).toEqual({ available: true });
    const user = await seedUser(t, { organization_id: org, role: 'staff' });
    const session = ZAuthReplySchema.parse((await signIn(user.username, DEFAULT_PASSWORD).expect(200)).body);

    expect((await ask(user.username, '10.9.8.7').expect(202)).body).toEqual({ message: PASSWORD_RESET_SENT });
    const mail = await smtp.mailTo(await emailOf(user));
    expect(mail.subject).toBe('Choose a new Kidogo password');
    expect(mail.raw).toMatch(/^From: Jua Solar <accounts@jua\.test>/m);
    expect(mail.text).toContain(`Hello ${user.username},`);
    expect(mail.text).toContain(`the Kidogo account ${user.username} at Jua Solar`);
    expect(mail.text).toContain('within 30 minutes');
    expect(mail.text).toContain('The request came from the address 10.9.8.7.');
    const token = tokenIn(mail);
    // Only the token's hash is kept.
    const stored = await t.db.platform.passwordReset.findFirstOrThrow({ where: { user_id: user.user_id } });
    expect(stored.token_hash).not.toContain(token);
    expect(stored).toMatchObject({ used_at: null, requested_ip: '10.9.8.7' });

    const done = await confirm(token, 'a-new-password-1').expect(200);
    expect(done.body).toEqual({ message: `The password of ${user.username} has been changed. Sign in with the new password.` });
    await signIn(user.username, DEFAULT_PASSWORD).expect(401);
    ZAuthReplySchema.parse((await signIn(user.username, 'a-new-password-1').expect(200)).body);
    // The session from before is over: its refresh token and its access token.
    await t.http.post('/payg/refresh').send({ refresh_token: session.refresh_token }).expect(401);
    await t.http.get('/payg/me').set('Authorization', `Bearer ${session.access_token}`).expect(401);

    // The link works once.
    const again = await confirm(token, 'another-password-2').expect(400);
    expect(again.body).toMatchObject({ errors: [{ field: 'token', message: 'This link has expired or was already used: ask for a new one' }] });
    ZAuthReplySchema.parse((await signIn(user.username, 'a-new-password-1').expect(200)).body);

    const audit = await t.db.platform.auditLog.findMany({ where: { entity_id: String(user.user_id), action: { startsWith: 'user.password_reset' } }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.action, a.actor_username, a.organization_id])).toEqual([
      ['user.password_reset_requested', null, org],
      ['user.password_reset', user.username, org],
    ]);
    expect(audit[1]!.description).toBe(`${user.username} chose a new password with a link emailed to them`);
  });

  it('answers alike whoever is asked for, and mails only an active account with an email address', async () => {
    const user = await seedUser(t, { organization_id: org, role: 'owner' });
    const email = await emailOf(user);
    const inactive = await seedUser(t, { organization_id: org, role: 'staff' });
    await t.db.platform.user.update({ where: { id: inactive.user_id }, data: { is_active: false } });
    const noEmail = await seedUser(t, { organization_id: org, role: 'staff' });
    await t.db.platform.user.update({ where: { id: noEmail.user_id }, data: { email: null } });
    const before = smtp.mails.length;

    for (const login of [`nobody-${hex()}`, `nobody-${hex()}@example.test`, inactive.username, noEmail.username]) {
      expect((await ask(login).expect(202)).body).toEqual({ message: PASSWORD_RESET_SENT });
    }
    // The email address, in any case, names the account too.
    await ask(email.toUpperCase()).expect(202);
    expect(tokenIn(await smtp.mailTo(email))).toBeTruthy();
    await settle();
    expect(smtp.mails.length).toBe(before + 1);
    expect(await t.db.platform.passwordReset.count({ where: { user_id: { in: [inactive.user_id, noEmail.user_id] } } })).toBe(0);
  });

  it('refuses a link that expired, one older than a password change or an email address change, and one for a user since deactivated', async () => {
    const user = await seedUser(t, { organization_id: org, role: 'staff' });
    const email = await emailOf(user);
    await ask(user.username).expect(202);
    const first = tokenIn(await smtp.mailTo(email));
    await t.db.platform.passwordReset.updateMany({ where: { user_id: user.user_id }, data: { expires_at: new Date(Date.now() - 1000) } });
    await confirm(first, 'too-late-password').expect(400);

    await ask(user.username).expect(202);
    const second = tokenIn(await smtp.mailTo(email, 10_000, 1));
    // The user changed it themselves meanwhile: the link in the mailbox must not change it again.
    await t.http.post('/payg/auth/change-password').set(user.auth).send({ current_password: DEFAULT_PASSWORD, new_password: 'changed-myself-1' }).expect(200);
    await confirm(second, 'from-the-old-link').expect(400);

    await ask(user.username).expect(202);
    const third = tokenIn(await smtp.mailTo(email, 10_000, 2));
    await t.db.platform.user.update({ where: { id: user.user_id }, data: { is_active: false } });
    await confirm(third, 'deactivated-user-1').expect(400);
    await t.db.platform.user.update({ where: { id: user.user_id }, data: { is_active: true } });
    ZAuthReplySchema.parse((await signIn(user.username, 'changed-myself-1').expect(200)).body);

    // An owner gives the user another email address: a link sent to the old one ends. (Three links went out this
    // hour, as many as an account is sent: those are made older.)
    await t.db.platform.passwordReset.updateMany({ where: { user_id: user.user_id }, data: { created_at: new Date(Date.now() - 2 * 3_600_000) } });
    await ask(user.username).expect(202);
    const fourth = tokenIn(await smtp.mailTo(email, 10_000, 3));
    const owner = await seedUser(t, { organization_id: org, role: 'owner' });
    await t.http.put(`/payg/users/${user.user_id}`).set(owner.auth).send({ email: `new-${hex()}@example.test` }).expect(200);
    await confirm(fourth, 'sent-to-old-address').expect(400);
    ZAuthReplySchema.parse((await signIn(user.username, 'changed-myself-1').expect(200)).body);
  });

  it('names the field of bad input and changes nothing; one link used ends the others', async () => {
    await ask('   ').expect(400).expect((r) => expect(r.body.errors[0]).toMatchObject({ field: 'login' }));
    await t.http.post('/payg/auth/password-reset').send({}).expect(400).expect((r) => expect(r.body.errors[0]).toMatchObject({ field: 'login', message: 'is required' }));

    const user = await seedUser(t, { organization_id: org, role: 'admin' });
    const email = await emailOf(user);
    await ask(user.username).expect(202);
    const older = tokenIn(await smtp.mailTo(email));
    await ask(user.username).expect(202);
    const newer = tokenIn(await smtp.mailTo(email, 10_000, 1));

    const short = await confirm(newer, 'short').expect(400);
    expect(short.body.errors[0]).toMatchObject({ field: 'new_password', message: 'must be at least 8 characters' });
    await t.http.post('/payg/auth/password-reset/confirm').send({ new_password: 'long-enough-1' }).expect(400)
      .expect((r) => expect(r.body.errors[0]).toMatchObject({ field: 'token' }));
    await confirm('not-a-link-anyone-sent', 'long-enough-1').expect(400);
    ZAuthReplySchema.parse((await signIn(user.username, DEFAULT_PASSWORD).expect(200)).body);

    await confirm(newer, 'the-newer-one-1').expect(200);
    await confirm(older, 'the-older-one-1').expect(400);
    ZAuthReplySchema.parse((await signIn(user.username, 'the-newer-one-1').expect(200)).body);
  });

  it('lifts the sign-in lockout, and leaves two-factor sign-in as it was', async () => {
    const user = await seedUser(t, { organization_id: org, role: 'staff' });
    for (let i = 0; i < 5; i++) await signIn(user.username, 'wrong-password');
    await signIn(user.username, DEFAULT_PASSWORD).expect(429);
    await t.db.platform.user.update({ where: { id: user.user_id }, data: { totp_enabled_at: null, totp_recovery_codes: ['kept'] } });

    await ask(user.username).expect(202);
    await confirm(tokenIn(await smtp.mailTo(await emailOf(user))), 'unlocked-again-1').expect(200);
    ZAuthReplySchema.parse((await signIn(user.username, 'unlocked-again-1').expect(200)).body);
    expect((await t.db.platform.user.findUniqueOrThrow({ where: { id: user.user_id } })).totp_recovery_codes).toEqual(['kept']);
  });

  it('mails an account at most 3 links an hour, and takes at most 10 requests from one address in 15 minutes', async () => {
    const user = await seedUser(t, { organization_id: org, role: 'staff' });
    const email = await emailOf(user);
    // At once: each request's link is made after its reply, so these make theirs side by side.
    await Promise.all(Array.from({ length: 6 }, () => ask(user.username).expect(202)));
    await smtp.mailTo(email, 10_000, 2);
    await settle();
    expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(3);

    const from = '10.200.0.1';
    for (let i = 0; i < 10; i++) await ask(`nobody-${hex()}`, from).expect(202);
    const refused = await ask(user.username, from).expect(429);
    expect(refused.body.detail).toMatch(/^Too many password reset requests\. Try again in 15 minutes\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    await ask(`nobody-${hex()}`, '10.200.0.2').expect(202);
  });

  it('says when email is not set up, and then sends nothing', async () => {
    const bare = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: '' } });
    try {
      expect((await bare.http.get('/payg/auth/password-reset').expect(200)).body).toEqual({ available: false });
      const user = await seedUser(t, { organization_id: org, role: 'staff' });
      const refused = await bare.http.post('/payg/auth/password-reset').send({ login: user.username }).expect(409);
      expect(refused.body.detail).toBe(
        'Password reset by email is not set up on this installation: ask an owner or admin of your organization to set a new password for you',
      );
      expect(await t.db.platform.passwordReset.count({ where: { user_id: user.user_id } })).toBe(0);
    } finally {
      await bare.close();
    }
    // Without PUBLIC_URL the link would lead nowhere.
    const noAddress = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: smtp.url, PUBLIC_URL: '' } });
    try {
      expect((await noAddress.http.get('/payg/auth/password-reset').expect(200)).body).toEqual({ available: false });
    } finally {
      await noAddress.close();
    }
  });
});
