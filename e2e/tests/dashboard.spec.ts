import { seedPayingCustomer } from '../support/api.js';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';

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
