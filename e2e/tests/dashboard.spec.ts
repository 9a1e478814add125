import { apiCall, seedPayingCustomer } from '../support/api.js';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { BUSINESS_TIME_ZONE } from '../support/time-zone.js';

const CARDS = ['Customer Overview', 'Payment Analytics', 'Token Management', 'Revenue Metrics', 'Recent Transactions', 'System Health'];

test.describe('dashboard', () => {
  test('shows the six cards fed by the API, with System Health from /payg/health', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const { customer } = await seedPayingCustomer(page);
    await page.reload();
    for (const card of CARDS) await expect(page.getByRole('region', { name: card })).toBeVisible();
    const health = page.getByRole('region', { name: 'System Health' });
    await expect(health.getByLabel('API: Operational')).toBeVisible();
    await expect(health.getByLabel('Database: Connected')).toBeVisible();
    await expect(page.getByText('Failed to load dashboard data')).toHaveCount(0);
    await expect(page.getByText('Some data failed to load')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Revenue Metrics' }).getByText(/^\d+\.\d%$/)).toBeVisible();
    const transactions = page.getByRole('region', { name: 'Recent Transactions' });
    await expect(transactions.getByRole('row', { name: new RegExp(customer.customer_name) })).toHaveCount(2);
    await expect(transactions).toContainText('1,000.00');
    await expect(transactions).toContainText('350.00');
    await expect(page.getByRole('region', { name: 'Token Management' }).getByText(/^\d{3} \d{3}/).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Revenue Metrics' }).getByLabel('Revenue trend')).toBeVisible();
    await screenshotBothThemes(page, 'dashboard');
  });

  test('the period and Refresh filter the metrics', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('region', { name: 'Revenue Metrics' })).toBeVisible();
    const filtered = page.waitForRequest((r) => {
      const url = new URL(r.url());
      if (url.pathname !== '/payg/metrics/summary') return false;
      const from = url.searchParams.get('from');
      const to = url.searchParams.get('to');
      return !!from && !!to && (Date.parse(to) - Date.parse(from)) / 86_400_000 === 6;
    });
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    await filtered;
    await expect(page.getByRole('button', { name: 'Pick a date' })).toContainText(/\d{4} – .*\d{4}/);

    const refreshed = page.waitForRequest((r) => new URL(r.url()).pathname === '/payg/metrics/customers');
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await refreshed;

    const health = page.waitForRequest((r) => new URL(r.url()).pathname === '/payg/health');
    await page.getByRole('button', { name: 'Refresh system health' }).click();
    await health;
  });

  test('Needs Attention says what waits now, and its cash line opens Cash in Hand', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const card = page.getByRole('region', { name: 'Needs Attention' });
    // The demo holds at least one payment for matching (other tests may hold more: the database is shared).
    const held = card.getByRole('link', { name: /^Payments held for matching: [\d,]+$/ });
    await expect(held).toBeVisible();
    await expect(held).toHaveAttribute('href', '/messages');
    expect(figureOf(await held.getAttribute('aria-label'))).toBeGreaterThanOrEqual(1);

    // Cash: the demo's technician baraka holds KES 5,800.00, held too long; other tests' collectors may hold more.
    const cash = await apiCall<{ data: { username: string; currency: string; in_hand: string; overdue: boolean }[] }>(page, 'GET', '/cash');
    expect(cash.data.find((c) => c.username === 'baraka' && c.currency === 'KES')).toMatchObject({ in_hand: '5800.00', overdue: true });
    const cashLine = card.getByRole('link', { name: /^Cash not handed over: KES [\d,]+\.\d\d/ });
    await expect(cashLine).toBeVisible();
    await expect(cashLine).toHaveAttribute('href', '/cash');
    const cashName = (await cashLine.getAttribute('aria-label')) ?? '';
    expect(figureOf(cashName.match(/KES ([\d,]+\.\d\d)/)?.[1])).toBeGreaterThanOrEqual(5800);
    expect(cashName).toMatch(/, \d+ users? holds? it more than 3 days$/);
    await expect(cashLine.getByText(/^\d+ users? holds? it more than 3 days$/)).toBeVisible();

    for (const name of ['Service tickets not resolved', 'Tickets assigned to you', 'Promises to pay due today', 'Broken promises to pay']) {
      await expect(card.getByRole('link', { name: new RegExp(`^${name}: [\\d,]+$`) })).toBeVisible();
    }
    await expect(card.getByText('Failed to load')).toHaveCount(0);
    await expect(card.getByText('Nothing waits: all clear.')).toHaveCount(0);

    // The rest of the page settled, for the screenshots.
    await expect(page.getByRole('region', { name: 'System Health' }).getByLabel('API: Operational')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Revenue Metrics' }).getByText(/^\d+\.\d%$/)).toBeVisible();
    await screenshotBothThemes(page, 'dashboard-needs-attention');

    await cashLine.click();
    await expect(page).toHaveURL(/\/cash$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Cash in Hand' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'baraka' })).toContainText('KES 5,800.00');
  });

  test('every screen of part 1 renders without console errors', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const [path, heading] of [
      ['/dashboard', 'Dashboard'],
      ['/customers', 'Customers'],
      ['/payments', 'Payment Templates'],
      ['/tokens', 'Tokens'],
      ['/reports', 'Reports'],
      ['/settings', 'Settings'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
      await expect(page.getByText(/^Failed to load/)).toHaveCount(0);
    }
  });
});

/** The number in a line's name or figure ("Payments held for matching: 1,204" → 1204); NaN without one. */
const figureOf = (text: string | null | undefined) => Number((text ?? '').split(': ').pop()!.replace(/,/g, '') || Number.NaN);

/** YYYY-MM-DD of now in a time zone. */
const dayIn = (zone: string, at = new Date()) => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
};

test.describe('a browser on the other side of the world', () => {
  // UTC-11: a different calendar day from Nairobi for 14 hours of every 24.
  const FAR = 'Pacific/Pago_Pago';
  test.use({ timezoneId: FAR });

  test("counts the default periods up to the business's today, not the browser's", async ({ page }) => {
    // Signed in first (a navigation while the sign-in is on its way would drop it), then the dashboard afresh.
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const summary = page.waitForRequest((r) => new URL(r.url()).pathname === '/payg/metrics/summary');
    await page.reload();
    const url = new URL((await summary).url());
    const today = dayIn(BUSINESS_TIME_ZONE);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(FAR);
    expect(url.searchParams.get('to')).toBe(today);

    await page.goto('/reports');
    const report = page.waitForRequest((r) => new URL(r.url()).pathname === '/payg/reports/page');
    await page.getByRole('button', { name: 'Generate Token Report' }).click();
    expect((await report).postDataJSON()).toMatchObject({ report: 'tokens', to: today });
  });
});
