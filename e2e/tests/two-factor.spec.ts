import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_OWNER, expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, unique } from './ops/api.js';
import { nextTotp, totpCode, totpStep } from './ops/totp.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 850 };

/** A user of the demo organization (staff unless told), made by its owner: each run its own, so two-factor starts off. */
async function freshStaff(request: APIRequestContext, role: 'staff' | 'admin' = 'staff') {
  const owner = await apiToken(request);
  const who = { username: unique(role === 'staff' ? 'totp' : 'totp-admin').toLowerCase(), password: 'two-steps-1' };
  await apiCall(request, owner, 'POST', '/users', { username: who.username, email: `${who.username}@demo.kidogo.local`, password: who.password, role });
  return who;
}

/** Settings → Two-Factor Sign-In → Set Up, through to Done; the secret it was given. */
async function setUpInSettings(page: Page, who: { password: string }) {
  const card = page.getByRole('region', { name: 'Two-Factor Sign-In' });
  await card.getByRole('button', { name: 'Set Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set Up Two-Factor Sign-In' });
  await dialog.getByLabel(/^Current password/).fill(who.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const secret = (await dialog.getByRole('textbox', { name: 'Setup key' }).inputValue()).replace(/\s+/g, '');
  await dialog.getByRole('textbox', { name: /^Authentication code/ }).fill(totpCode(secret));
  await dialog.getByRole('button', { name: 'Turn On' }).click();
  await expect(dialog.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  return secret;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** The password step; for a user with two-factor on, it ends on the code step. */
async function passwordStep(page: Page, who: { username: string; password: string }) {
  await signIn(page, who);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

test.describe('two-factor sign-in', () => {
  test('a user turns it on in Settings, then signs in with a code from the app, and once with a recovery code; an owner resets it', async ({
    page,
    request,
  }) => {
    // Two sign-ins with the app's codes may wait out a 30-second step each.
    test.setTimeout(180_000);
    const staff = await freshStaff(request);

    await signIn(page, staff, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    const card = page.getByRole('region', { name: 'Two-Factor Sign-In' });
    await expect(card.getByText('Off', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Set Up' }).click();

    const dialog = page.getByRole('dialog', { name: 'Set Up Two-Factor Sign-In' });
    await dialog.getByLabel(/^Current password/).fill('not-my-password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByText('Current password is incorrect')).toBeVisible();
    await dialog.getByLabel(/^Current password/).fill(staff.password);
    await dialog.getByRole('button', { name: 'Continue' }).click();

    // Step 2: the QR code, and the same secret to type in, grouped in fours.
    const qr = dialog.getByRole('img', { name: 'QR code for your authenticator app' });
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const shown = await dialog.getByRole('textbox', { name: 'Setup key' }).inputValue();
    expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const secret = shown.replace(/\s+/g, '');
    await screenshotBothThemes(page, 'two-factor-setup-qr', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshotBothThemes(page, 'two-factor-setup-qr-phone', { fullPage: false });
    await page.setViewportSize(DESKTOP);

    // A code of a past step is refused; the current one turns it on.
    const code = dialog.getByRole('textbox', { name: /^Authentication code/ });
    await code.fill(totpCode(secret, totpStep() - 10));
    await dialog.getByRole('button', { name: 'Turn On' }).click();
    await expect(dialog.getByText('Authentication code is not the current code from your authenticator app')).toBeVisible();
    const enabledStep = totpStep();
    await code.fill(totpCode(secret, enabledStep));
    await dialog.getByRole('button', { name: 'Turn On' }).click();

    // Step 3: ten recovery codes, shown once, to copy or download.
    const list = dialog.getByRole('list', { name: 'Recovery codes' });
    await expect(list.getByRole('listitem')).toHaveCount(10);
    const recovery = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    for (const c of recovery) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('kidogo-recovery-codes.txt');
    await screenshotBothThemes(page, 'two-factor-recovery-codes', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshotBothThemes(page, 'two-factor-recovery-codes-phone', { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('On', { exact: true })).toBeVisible();
    await expect(card.getByTestId('recovery-codes-left')).toHaveText('10 recovery codes left');
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'settings-two-factor-on');

    // Signing in now takes a code after the password.
    await signOut(page);
    await passwordStep(page, staff);
    await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Authentication code' })).toBeFocused();
    await screenshotBothThemes(page, 'login-two-factor');
    await page.setViewportSize(PHONE);
    await screenshotBothThemes(page, 'login-two-factor-phone');
    await page.setViewportSize(DESKTOP);
    const first = await nextTotp(secret, enabledStep);
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(first.code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The same code does not work twice; a recovery code does, once.
    await signOut(page);
    await passwordStep(page, staff);
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(first.code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid code');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recovery[0]!);
    await screenshotBothThemes(page, 'login-two-factor-recovery');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/settings');
    await expect(card.getByTestId('recovery-codes-left')).toHaveText('9 recovery codes left');

    await signOut(page);
    await passwordStep(page, staff);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid code');

    // The owner resets it for someone who lost their phone: the password alone signs in again.
    await page.getByRole('button', { name: 'Back' }).click();
    await signIn(page, DEMO_OWNER, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    const team = page.getByRole('region', { name: 'Team' });
    await team.getByRole('textbox', { name: 'Search team' }).fill(staff.username);
    await team.getByRole('textbox', { name: 'Search team' }).press('Enter');
    const row = team.getByRole('row').filter({ hasText: staff.username });
    await expect(row.getByText('2FA', { exact: true })).toBeVisible();
    await screenshotBothThemes(page, 'settings-team-two-factor');
    await row.getByRole('button', { name: `Reset Two-Factor for ${staff.username}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset two-factor sign-in?' });
    await expect(confirm).toContainText(`${staff.username} lost their phone?`);
    await confirm.getByRole('button', { name: 'Reset Two-Factor' }).click();
    await expect(page.getByText(`${staff.username} signs in with a password only until they set up two-factor sign-in again`)).toBeVisible();
    await expect(row.getByText('2FA', { exact: true })).toHaveCount(0);
    const signedIn = await request.post('/payg/authenticate', { form: staff });
    expect(signedIn.ok()).toBe(true);
    expect(await signedIn.json()).toHaveProperty('access_token');
  });

  test('turning it off asks for the password, and sign-in is a password again', async ({ page, request }) => {
    const staff = await freshStaff(request);
    await signIn(page, staff, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    const card = page.getByRole('region', { name: 'Two-Factor Sign-In' });
    await setUpInSettings(page, staff);

    await card.getByRole('button', { name: 'New Recovery Codes' }).click();
    const renew = page.getByRole('dialog', { name: 'New Recovery Codes' });
    await renew.getByLabel(/^Current password/).fill(staff.password);
    await renew.getByRole('button', { name: 'Make New Codes' }).click();
    await expect(renew.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await renew.getByRole('button', { name: 'Done' }).click();
    await expect(renew).toBeHidden();

    await card.getByRole('button', { name: 'Turn Off' }).click();
    const off = page.getByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    await off.getByLabel(/^Current password/).fill(staff.password);
    await off.getByRole('button', { name: 'Turn Off' }).click();
    await expect(page.getByText('Two-factor sign-in is off')).toBeVisible();
    await expect(card.getByText('Off', { exact: true })).toBeVisible();

    const again = await request.post('/payg/authenticate', { form: staff });
    expect(again.ok()).toBe(true);
    expect(await again.json()).toHaveProperty('access_token');
  });

  test('an organization requires it of everyone: a user without it can only set it up, then is let in', async ({ page, request }) => {
    test.setTimeout(120_000);
    // Fresh users, not the demo owner: every other browser test signs in as the owner, who must not be asked to set it up.
    const admin = await freshStaff(request, 'admin');
    const staff = await freshStaff(request);

    await signIn(page, admin, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    const security = page.getByRole('region', { name: 'Security' });
    const toggle = security.getByRole('switch', { name: 'Require two-factor sign-in for everyone' });
    await expect(toggle).not.toBeChecked();
    await expect(security.getByTestId('users-without-two-factor')).toHaveText(/^\d+ users do not have it yet$/);

    // Not before the admin's own is on.
    await toggle.click({ force: true });
    const confirm = page.getByRole('dialog', { name: 'Require two-factor sign-in?' });
    await expect(confirm).toContainText(/\d+ users will have to set it up before they can do anything else\./);
    await confirm.getByRole('button', { name: 'Require It' }).click();
    await expect(security.getByRole('alert')).toContainText('Turn on your own two-factor sign-in first (Settings → Two-Factor Sign-In), then require it of everyone');
    await expect(toggle).not.toBeChecked();

    await setUpInSettings(page, admin);
    // A credential of the admin's own, to stop requiring it whatever happens below (the demo organization is every
    // browser test's): an API token, since the admin's browser session ends when they sign out below.
    const adminSession = await page.evaluate(() => localStorage.getItem('authToken'));
    expect(adminSession).toBeTruthy();
    const { token: adminToken, id: cleanupTokenId } = await apiCall<{ token: string; id: number }>(request, adminSession!, 'POST', '/auth/api-tokens', { name: 'two-factor browser test cleanup', expires_in_days: 1 });
    try {
      const without = Number((await security.getByTestId('users-without-two-factor').textContent())?.match(/^(\d+)/)?.[1]);
      expect(without).toBeGreaterThan(0);
      await toggle.click({ force: true });
      await expect(confirm).toContainText(`${without} users will have to set it up before they can do anything else.`);
      await screenshotBothThemes(page, 'settings-security-confirm', { fullPage: false });
      await confirm.getByRole('button', { name: 'Require It' }).click();
      await expect(page.getByText('Everyone must now sign in with two-factor sign-in')).toBeVisible();
      await expect(toggle).toBeChecked();
      await expect(security.getByText('Two-factor required')).toBeVisible();
      await expect(security.getByRole('alert')).toHaveCount(0);
      // The admin's own cannot be turned off now.
      const own = page.getByRole('region', { name: 'Two-Factor Sign-In' });
      await expect(own.getByText('Required by your organization')).toBeVisible();
      await expect(own.getByRole('button', { name: 'Turn Off' })).toBeDisabled();
      await security.scrollIntoViewIfNeeded();
      await screenshotBothThemes(page, 'settings-security');

      // A staff user without it: the set-up screen, and nothing else, wherever they were going.
      await signOut(page);
      await signIn(page, staff);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
      // With the day the time to set it up with the password alone ends: a week from the requirement.
      await expect(page.getByText(/requires a code from an authenticator app when you sign in\. Set it up by .+ to continue\.$/)).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Dashboard' })).toHaveCount(0);
      await screenshotBothThemes(page, 'two-factor-gate');
      await page.setViewportSize(PHONE);
      await screenshotBothThemes(page, 'two-factor-gate-phone');
      await page.setViewportSize(DESKTOP);
      // The server agrees: anything but setting it up is refused.
      const staffToken = await page.evaluate(() => localStorage.getItem('authToken'));
      const refused = await request.get('/payg/registered-customers', { headers: { Authorization: `Bearer ${staffToken}` } });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).detail.error).toBe('TWO_FACTOR_REQUIRED');

      await page.getByLabel(/^Current password/).fill(staff.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
      await expect(qr).toBeVisible();
      const secret = (await page.getByRole('textbox', { name: 'Setup key' }).inputValue()).replace(/\s+/g, '');
      await screenshotBothThemes(page, 'two-factor-gate-qr');
      await page.getByRole('textbox', { name: /^Authentication code/ }).fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn On' }).click();
      await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
      await page.getByRole('button', { name: 'Done' }).click();

      await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toHaveCount(0);
    } finally {
      await apiCall(request, adminToken, 'PUT', '/settings/security', { require_two_factor: false });
      await apiCall(request, adminToken, 'DELETE', `/auth/api-tokens/${cleanupTokenId}`);
    }
    const rule = await apiCall<{ require_two_factor: boolean }>(request, await apiToken(request), 'GET', '/settings/security');
    expect(rule.require_two_factor).toBe(false);
  });
});
