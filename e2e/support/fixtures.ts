import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type Page } from '@playwright/test';

export const DEMO_OWNER = { username: 'demo', password: 'demo1234' };
export const DEMO_ADMIN = { username: 'admin', password: 'admin123' };
export const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../screenshots');

/** Every test fails on a console error or an uncaught exception in the page. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/payg/')) requests.push(`${r.request().method()} ${url.pathname}${url.search} -> ${r.status()}`);
      });
      await use(errors);
      // CI keeps only the log: a failure prints what the page showed and the last API calls, to tell a slow screen from a wrong one.
      if (testInfo.status !== testInfo.expectedStatus) {
        const main = page.locator('main');
        const shown = (await main.count()) === 1 ? main : page.locator('body');
        const snapshot = await shown.ariaSnapshot({ timeout: 2000 }).catch((e: Error) => `(no snapshot: ${e.message})`);
        console.log(`--- page at failure (${page.url()}) ---\n${snapshot.slice(0, 6000)}\n--- last API calls ---\n${requests.slice(-15).join('\n')}`);
      }
      // Expected HTTP failures (401 on purpose, 403 for blocked organizations) are logged by the browser as "Failed to load resource".
      // The invoice preview is a frame sandboxed to run nothing (its HTML has no script); when Playwright's own helper
      // script reaches that frame, Chromium logs the refusal as an error, depending on timing.
      const expected = [/Failed to load resource/, /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/];
      expect(errors.filter((e) => !expected.some((x) => x.test(e)))).toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * Fills in the login form and clicks Sign In; it does not wait for the sign-in
 * to finish. Wait for the page it lands on before navigating elsewhere: a
 * navigation while the request is on its way drops the session it brings.
 */
export async function signIn(page: Page, who = DEMO_OWNER, path = '/login') {
  await page.goto(path);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Full-page screenshots in light and dark, under e2e/screenshots/<name>-<theme>.png.
 * `fullPage: false` takes the viewport only: for a modal, whose overlay covers
 * the viewport and not the rest of a long page.
 */
export async function screenshotBothThemes(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top: scrolled, a full-page capture paints the fixed header and sidebar halfway down the page.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('theme', t);
      document.documentElement.setAttribute('data-mantine-color-scheme', t);
    }, theme);
    await page.waitForTimeout(150);
    await page.screenshot({ path: resolve(SCREENSHOTS, `${name}-${theme}.png`), fullPage });
  }
  await page.evaluate(() => {
    localStorage.setItem('theme', 'light');
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  });
}
