import { resolve } from 'node:path';
import type { APIRequestContext, Locator } from '@playwright/test';
import { DEMO_OWNER, SCREENSHOTS, expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, unique } from './ops/api.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 850 };
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * A user of the demo organization made by its owner, each run its own: the
 * demo owner is signed in by every other browser test, so its list of
 * sessions has no predictable length, and signing it out everywhere would
 * pull the rug from under them.
 */
async function freshUser(request: APIRequestContext) {
  const owner = await apiToken(request);
  const who = { username: unique('devices').toLowerCase(), password: 'many-devices-1' };
  await apiCall(request, owner, 'POST', '/users', { username: who.username, email: `${who.username}@demo.kidogo.local`, password: who.password, role: 'staff' });
  return who;
}

/** The card alone in light and dark (a full page at phone width is too long to judge it by): e2e/screenshots/<name>-<theme>.png. */
async function screenshotCard(card: Locator, name: string) {
  const page = card.page();
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-mantine-color-scheme', t), theme);
    await page.waitForTimeout(150);
    await card.screenshot({ path: resolve(SCREENSHOTS, `${name}-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
}

const refreshWith = (request: APIRequestContext, refreshToken: string | null) => request.post('/payg/refresh', { data: { refresh_token: refreshToken } });
const me = (request: APIRequestContext, token: string | null) => request.get('/payg/me', { headers: { Authorization: `Bearer ${token}` } });

test.describe('signed-in devices', () => {
  test('a user sees the two devices they are signed in on and signs the other one out', async ({ page, browser, request }) => {
    const who = await freshUser(request);

    // The second device: a phone, in a browser of its own.
    const phoneContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, userAgent: IPHONE_SAFARI, viewport: PHONE });
    try {
      const phone = await phoneContext.newPage();
      await signIn(phone, who);
      await expect(phone).toHaveURL(/\/dashboard$/);

      await signIn(page, who, '/settings');
      await expect(page).toHaveURL(/\/settings$/);
      const card = page.getByRole('region', { name: 'Signed-In Devices' });
      const list = card.getByRole('list', { name: 'Signed-in devices' });
      await expect(list.getByRole('listitem')).toHaveCount(2);
      const here = list.getByRole('listitem').filter({ hasText: 'This device' });
      await expect(here).toHaveCount(1);
      await expect(here).toContainText('Active now');
      await expect(here.getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
      const other = list.getByRole('listitem', { name: 'Safari on iPhone' });
      await expect(other).toContainText('Last active');
      await expect(card.getByRole('button', { name: 'Sign Out Everywhere Else' })).toBeEnabled();

      await card.scrollIntoViewIfNeeded();
      await screenshotBothThemes(page, 'settings-signed-in-devices');
      await screenshotCard(card, 'signed-in-devices-card');
      await page.setViewportSize(PHONE);
      await card.scrollIntoViewIfNeeded();
      await screenshotCard(card, 'signed-in-devices-card-phone');
      // Nothing sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await page.setViewportSize(DESKTOP);

      await other.getByRole('button', { name: 'Sign Out' }).click();
      await expect(page.getByText('Signed out of that device')).toBeVisible();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list.getByRole('listitem', { name: 'Safari on iPhone' })).toHaveCount(0);
      await expect(card.getByRole('button', { name: 'Sign Out Everywhere Else' })).toBeDisabled();

      // The phone's access token is refused at once, and it can no longer renew it...
      const [phoneToken, phoneRefresh] = await phone.evaluate(() => [localStorage.getItem('authToken'), localStorage.getItem('refreshToken')]);
      expect(phoneRefresh).toBeTruthy();
      expect((await me(request, phoneToken)).status()).toBe(401);
      expect((await refreshWith(request, phoneRefresh)).status()).toBe(401);
      // ...so its next page lands on the login page, with no waiting for the token to run out.
      await phone.reload();
      await expect(phone).toHaveURL(/\/login$/);
      await expect(phone.getByRole('button', { name: 'Sign In' })).toBeVisible();
      expect(await phone.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

      // This device is not affected.
      await page.reload();
      await expect(list.getByRole('listitem')).toHaveCount(1);
    } finally {
      await phoneContext.close();
    }
  });

  test('Sign Out Everywhere ends every session at once, this one included, and lands on the login page', async ({ page, request }) => {
    const who = await freshUser(request);
    // Another device, signed in through the API.
    const elsewhere = await apiToken(request, who);

    await signIn(page, who, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    const card = page.getByRole('region', { name: 'Signed-In Devices' });
    await expect(card.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem')).toHaveCount(2);
    const [token, refreshToken] = await page.evaluate(() => [localStorage.getItem('authToken'), localStorage.getItem('refreshToken')]);
    expect((await me(request, token)).ok()).toBe(true);

    await card.getByRole('button', { name: 'Sign Out Everywhere', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await expect(dialog).toContainText('Every device signed in to your account is signed out at once, this one too');
    await screenshotBothThemes(page, 'signed-in-devices-sign-out-everywhere', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshotBothThemes(page, 'signed-in-devices-sign-out-everywhere-phone', { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Sign Out Everywhere' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Signed out everywhere (2 sessions)')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    // At once: this browser's access token, the other device's, and the refresh token are all refused.
    expect((await me(request, token)).status()).toBe(401);
    expect((await me(request, elsewhere)).status()).toBe(401);
    expect((await refreshWith(request, refreshToken)).status()).toBe(401);

    // Signing in again works, with one session.
    await signIn(page, who, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    await expect(card.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem')).toHaveCount(1);
  });

  test('an owner signs a user out everywhere from the team list', async ({ page, request }) => {
    const who = await freshUser(request);
    const theirs = await apiToken(request, who);

    await signIn(page, DEMO_OWNER, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    const team = page.getByRole('region', { name: 'Team' });
    await team.getByRole('textbox', { name: 'Search team' }).fill(who.username);
    await team.getByRole('textbox', { name: 'Search team' }).press('Enter');
    const row = team.getByRole('row').filter({ hasText: who.username });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Sign Out Everywhere for ${who.username}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await expect(dialog).toContainText(`${who.username} is signed out on every device at once: they sign in again with their password.`);
    await screenshotBothThemes(page, 'settings-team-sign-out', { fullPage: false });
    await dialog.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await expect(page.getByText(`${who.username} is signed out everywhere (1 session)`)).toBeVisible();
    await expect(dialog).toBeHidden();
    expect((await me(request, theirs)).status()).toBe(401);
  });
});
