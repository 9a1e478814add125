import { DEMO_OWNER, expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';

test.describe('sign-in and the session', () => {
  test('the landing page leads to sign-in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Solutions' }).first()).toBeVisible();
    await screenshotBothThemes(page, 'landing');
    await page.getByRole('link', { name: 'Get Started' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a wrong password shows the error, typing clears it, the right one lands where the user came from', async ({ page }) => {
    await page.goto('/customers');
    await expect(page).toHaveURL(/\/login$/);
    await screenshotBothThemes(page, 'login');
    await page.getByLabel('Username').fill(DEMO_OWNER.username);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid username or password')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(DEMO_OWNER.password);
    await expect(page.getByText('Invalid username or password')).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/customers$/);
  });

  test('the theme choice survives a reload', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });

  test('sign out clears the session and returns to the landing page', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    // Nothing the signed-in pages watched may be fetched again without the session on the way out.
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) refused.push(r.url());
    });
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });
});
