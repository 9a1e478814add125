import type { Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_OWNER, expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createItem, reactivate, unique } from './ops/api.js';

const TABS = [
  ['Organizations', 'organizations'],
  ['Invoices', 'invoices'],
  ['Invoice Settings', 'invoice-settings'],
  ['Users', 'users'],
  ['Token Logs', 'token-logs'],
  ['Payment Providers', 'payment-providers'],
  ['OEM Credentials', 'oem-credentials'],
  ['Plans', 'plans'],
  ['Features', 'features'],
] as const;

async function chooseOption(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('super admin console', () => {
  test('other roles see Access Denied and no Super Admin entry', async ({ page }) => {
    await signIn(page, DEMO_OWNER, '/super-admin');
    await expect(page.getByText('Access Denied - You need super admin privileges to access this page.')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Super Admin' })).toHaveCount(0);
    await screenshotBothThemes(page, 'super-admin-access-denied');
  });

  test("on a phone the figures' labels are whole, not under their icons", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, DEMO_ADMIN, '/super-admin');
    const card = page.getByRole('group', { name: 'Total Organizations' });
    await expect(card).toBeVisible();
    // Each label fits its line (no text running out of its box), and no label shares its row with an icon.
    const overflowing = await page.getByRole('group').evaluateAll((cards) =>
      cards.flatMap((c) => {
        const label = c.querySelector('p');
        return label && label.scrollWidth > label.clientWidth + 1 ? [c.getAttribute('aria-label')] : [];
      }),
    );
    expect(overflowing).toEqual([]);
    await expect(card.locator('.mantine-ThemeIcon-root')).toBeHidden();
    await expect(card.getByText(/^\d+$/)).toBeVisible();
    await screenshotBothThemes(page, 'super-admin-phone');
  });

  test('every tab opens', async ({ page, request }) => {
    const admin = await apiToken(request, DEMO_ADMIN);
    await apiCall(request, admin, 'POST', '/admin/invoices', {
      organization_id: 'demo',
      customer_name: 'Demo Owner',
      customer_email: 'owner@demo.kidogo.local',
      amount: 120,
      description: 'Setup fee',
    });
    await signIn(page, DEMO_ADMIN, '/super-admin');
    await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
    await expect(page.getByText('Manage organizations, settings and platform-wide configuration.')).toBeVisible();
    const headings: Record<string, string> = {
      organizations: 'Organization Management',
      invoices: 'Invoice Management',
      'invoice-settings': 'Global Invoice Settings',
      users: 'User Management',
      'token-logs': 'Token Generation Logs',
      'payment-providers': 'Payment Providers',
      'oem-credentials': 'OEM Credentials',
      plans: 'Plans',
      features: 'Features',
    };
    for (const [label, slug] of TABS) {
      await page.getByRole('tab', { name: label, exact: true }).click();
      await expect(page.getByRole('heading', { name: headings[slug], exact: true })).toBeVisible();
      await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
      await expect(page.getByText('coming soon', { exact: false })).toHaveCount(0);
      // The platform tabs are photographed with data in the test that fills them.
      if (['organizations', 'invoices', 'users'].includes(slug)) await screenshotBothThemes(page, `super-admin-${slug}`);
    }
  });

  test('suspending the demo organization shows its owner the warning and empty lists, until it is re-activated', async ({ page, browser, request }) => {
    test.setTimeout(120_000);
    const owner = await apiToken(request);
    const serial = unique('SUS');
    await createItem(request, owner, serial);
    try {
      await signIn(page, DEMO_ADMIN, '/super-admin');
      const demoRow = page.getByRole('row', { name: /Demo Solar Ltd/ });
      await demoRow.getByRole('button', { name: 'Change status of demo' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change Organization Status' });
      await chooseOption(page, dialog, 'New Status', 'Suspended: temporary');
      await expect(dialog.getByRole('button', { name: 'Suspend Organization' })).toBeDisabled();
      await chooseOption(page, dialog, 'Reason Template', 'Unpaid invoice');
      const reason = await dialog.getByRole('textbox', { name: 'Reason' }).inputValue();
      expect(reason).toMatch(/unpaid invoice/i);
      await dialog.getByRole('button', { name: 'Suspend Organization' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('Organization suspended successfully');
      await expect(demoRow.getByText('Suspended')).toBeVisible();

      // The organization's owner, in another browser.
      const ownerContext = await browser.newContext();
      const ownerPage = await ownerContext.newPage();
      const errors: string[] = [];
      ownerPage.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && errors.push(m.text()));
      await signIn(ownerPage, DEMO_OWNER, '/products');
      await expect(ownerPage.getByRole('heading', { name: 'Product Management' })).toBeVisible();
      await expect(ownerPage.getByText('Service suspended')).toBeVisible();
      // The toast goes; the banner keeps saying why on every page.
      const banner = ownerPage.getByRole('alert', { name: 'Your organization has been suspended.' });
      await expect(banner.getByText(reason)).toBeVisible();
      await expect(banner.getByText(/^Suspended since /)).toBeVisible();
      await expect(ownerPage.getByText('No products found')).toBeVisible();
      await ownerPage.goto('/messages');
      await expect(ownerPage.getByText('No messages found')).toBeVisible();
      await expect(banner).toBeVisible();
      await screenshotBothThemes(ownerPage, 'suspended-organization-messages');
      expect(errors).toEqual([]);

      // Re-activated: the owner's lists come back.
      await demoRow.getByRole('button', { name: 'Change status of demo' }).click();
      await chooseOption(page, dialog, 'New Status', 'Active: full access');
      await dialog.getByRole('button', { name: 'Enable Organization' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('Organization activated successfully');
      await expect(demoRow.getByText('Active', { exact: true })).toBeVisible();

      await ownerPage.goto('/products');
      await ownerPage.getByRole('textbox', { name: 'Search products' }).fill(serial);
      await expect(ownerPage.getByRole('row', { name: new RegExp(serial) })).toBeVisible();
      await expect(banner).toHaveCount(0);
      await ownerContext.close();
    } finally {
      await reactivate(request);
    }
  });

  test('organizations: add, details with a typed notification, and a delete refused while it holds a user, then forced', async ({ page }) => {
    test.setTimeout(120_000);
    const orgId = unique('e2e-org').toLowerCase();
    const username = unique('e2e.user').toLowerCase();
    await signIn(page, DEMO_ADMIN, '/super-admin');

    await page.getByRole('button', { name: 'Add Organization' }).click();
    const add = page.getByRole('dialog', { name: 'Add Organization' });
    await add.getByRole('textbox', { name: 'Organization ID' }).fill(orgId);
    await add.getByRole('textbox', { name: 'Name' }).fill('E2E Energy');
    await expect(add.getByRole('combobox', { name: 'App' })).toHaveValue('Kidogo');
    await add.getByRole('button', { name: 'Add Organization' }).click();
    await expect(page.getByTestId('console-success')).toHaveText('Organization created successfully');
    const row = page.getByRole('row', { name: new RegExp(orgId) });
    await expect(row.getByText('No external key')).toBeVisible();
    await expect(row.getByRole('cell', { name: '0', exact: true })).toBeVisible();

    // A user in it, made from the Users tab.
    await page.getByRole('tab', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: 'Create User' }).click();
    const create = page.getByRole('dialog', { name: 'Create User' });
    await create.getByRole('textbox', { name: 'Username' }).fill(username);
    await create.getByRole('textbox', { name: 'Email' }).fill(`${username}@example.com`);
    await create.locator('input[type="password"]').fill('a-long-password');
    await chooseOption(page, create, 'Organization', `E2E Energy (${orgId})`);
    await create.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByTestId('console-success')).toHaveText(`User ${username} created successfully`);
    await page.getByRole('textbox', { name: 'Search users' }).fill(username);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row', { name: new RegExp(username) })).toContainText(orgId);

    await page.getByRole('tab', { name: 'Organizations', exact: true }).click();
    await row.getByRole('button', { name: `View details of ${orgId}` }).click();
    const details = page.getByRole('dialog', { name: 'Organization Details' });
    await expect(details.getByText('Active', { exact: true })).toBeVisible();
    await expect(details.getByText('None', { exact: true })).toBeVisible();
    await expect(details.getByText(`${username}@example.com`)).toBeVisible();
    await details.getByRole('button', { name: 'Send Notification' }).click();
    await details.getByRole('textbox', { name: 'Notification message' }).fill('Welcome aboard: your first invoice is due on the 1st.');
    await details.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByTestId('console-success')).toHaveText(`Notification sent to ${orgId}`);
    await screenshotBothThemes(page, 'super-admin-organization-details');

    await details.getByRole('button', { name: 'Delete Organization' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Organization' });
    await expect(del.getByText('Are you sure you want to delete this organization? This action cannot be undone.')).toBeVisible();
    await del.getByRole('button', { name: 'Delete Organization' }).click();
    await expect(del.getByRole('alert')).toContainText('1 user');
    await del.getByRole('button', { name: 'Force Delete Everything' }).click();
    await expect(page.getByTestId('console-success')).toHaveText('Organization deleted successfully');
    await expect(page.getByRole('row', { name: new RegExp(orgId) })).toHaveCount(0);
  });

  test('platform tabs save for real: providers, OEM credentials, plans, features, invoice settings, token logs', async ({ page, request }) => {
    test.setTimeout(180_000);
    const admin = await apiToken(request, DEMO_ADMIN);
    const orgId = unique('e2e-platform').toLowerCase();
    await apiCall(request, admin, 'POST', '/admin/organizations', { organization_id: orgId, name: 'Platform Test', app: 'amped' });
    // A token in the demo organization for the logs.
    const owner = await apiToken(request);
    const serial = unique('TOK');
    await createItem(request, owner, serial);
    await apiCall(request, owner, 'POST', '/generate-token-by-days', { serial_number: serial, number_of_days: 7 });
    const org = `Platform Test (${orgId})`;
    try {
      await signIn(page, DEMO_ADMIN, '/super-admin?tab=payment-providers');
      await page.getByRole('button', { name: 'Add Provider' }).click();
      const provider = page.getByRole('dialog', { name: 'Add Payment Provider' });
      await provider.getByRole('combobox', { name: 'Provider' }).fill('sms_webhook');
      await page.keyboard.press('Escape');
      await chooseOption(page, provider, 'Organization', org);
      // A known gateway comes with the fields it needs.
      await expect(provider.getByRole('textbox', { name: 'Configuration name 1' })).toHaveValue('url');
      await expect(provider.getByRole('textbox', { name: 'Configuration name 2' })).toHaveValue('secret');
      await provider.getByRole('textbox', { name: 'Configuration value 1' }).fill('https://sms.example.com/hook');
      await provider.getByRole('textbox', { name: 'Configuration value 2' }).fill('super-secret-signing-key');
      await provider.getByRole('button', { name: 'Add Provider' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('Payment provider created successfully');
      const providerRow = page.getByRole('row', { name: new RegExp(orgId) });
      await expect(providerRow).toContainText('sms_webhook');
      await expect(providerRow).not.toContainText('super-secret-signing-key');
      await screenshotBothThemes(page, 'super-admin-payment-providers');

      await page.getByRole('tab', { name: 'OEM Credentials' }).click();
      await page.getByRole('button', { name: 'Add Credentials' }).click();
      const oem = page.getByRole('dialog', { name: 'Add OEM Credentials' });
      await oem.getByRole('textbox', { name: 'OEM Name' }).fill('SunKing');
      await chooseOption(page, oem, 'Organization', org);
      await oem.getByRole('textbox', { name: 'Credentials name 1' }).fill('api_key');
      await oem.getByRole('textbox', { name: 'Credentials value 1' }).fill('sk-live-1234567890abcdef');
      await oem.getByRole('button', { name: 'Add Credentials' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('OEM credentials created successfully');
      await expect(page.getByRole('row', { name: new RegExp(orgId) })).not.toContainText('sk-live-1234567890abcdef');
      await screenshotBothThemes(page, 'super-admin-oem-credentials');

      const planCode = unique('plan').toLowerCase();
      await page.getByRole('tab', { name: 'Plans' }).click();
      await page.getByRole('button', { name: 'Add Plan' }).click();
      const plan = page.getByRole('dialog', { name: 'Add Plan' });
      await plan.getByRole('textbox', { name: 'Plan Code' }).fill(planCode);
      await plan.getByRole('textbox', { name: 'Name', exact: true }).fill('Growth');
      await plan.getByRole('textbox', { name: 'Price' }).fill('49');
      await plan.getByRole('combobox', { name: 'Features' }).fill('sms_replies');
      await plan.getByRole('combobox', { name: 'Features' }).press('Enter');
      await plan.getByRole('textbox', { name: 'Quota name 1' }).fill('devices');
      await plan.getByRole('textbox', { name: 'Quota limit 1' }).fill('5000');
      await plan.getByRole('button', { name: 'Add Plan' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('Plan created successfully');
      await expect(page.getByRole('table', { name: 'Plans' }).getByRole('row', { name: new RegExp(planCode) })).toContainText('devices: 5,000');
      await chooseOption(page, page.getByRole('tabpanel'), 'Organization', org);
      await chooseOption(page, page.getByRole('tabpanel'), 'Plan', `Growth (${planCode})`);
      await page.getByRole('button', { name: 'Assign Plan' }).click();
      await expect(page.getByTestId('console-success')).toHaveText(`${orgId} is now on the ${planCode} plan`);
      await expect(page.getByRole('table', { name: 'Organization plans' }).getByRole('row', { name: new RegExp(orgId) })).toBeVisible();
      await screenshotBothThemes(page, 'super-admin-plans');

      const flag = unique('flag').toLowerCase();
      await page.getByRole('tab', { name: 'Features' }).click();
      await page.getByRole('button', { name: 'Add Feature Flag' }).click();
      const feature = page.getByRole('dialog', { name: 'Add Feature Flag' });
      await feature.getByRole('textbox', { name: 'Feature Key' }).fill(flag);
      await chooseOption(page, feature, 'Organization', org);
      await feature.getByRole('button', { name: 'Save Feature Flag' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('Feature flag saved successfully');
      await expect(feature).toBeHidden();
      const toggle = page.getByRole('switch', { name: `${flag} ${orgId} enabled` });
      await expect(toggle).toBeChecked();
      // A controlled switch: it flips once the server has saved the change.
      await toggle.click();
      await expect(page.getByTestId('console-success')).toHaveText(`${flag} disabled for ${orgId}`);
      await expect(toggle).not.toBeChecked();
      await screenshotBothThemes(page, 'super-admin-features');

      await page.getByRole('tab', { name: 'Invoice Settings' }).click();
      await expect(page.getByRole('textbox', { name: 'Default Tax Rate (%)' })).toBeVisible();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await expect(page.getByTestId('console-success')).toHaveText('Invoice settings updated successfully');
      await screenshotBothThemes(page, 'super-admin-invoice-settings');

      await page.getByRole('tab', { name: 'Token Logs' }).click();
      await page.getByRole('textbox', { name: 'Organization ID' }).fill('demo');
      await chooseOption(page, page.getByRole('tabpanel'), 'Status', 'Success');
      await page.getByRole('button', { name: 'Filter' }).click();
      const logRow = page.getByRole('table', { name: 'Token logs' }).getByRole('row', { name: new RegExp(serial) });
      await expect(logRow).toContainText('demo');
      await expect(logRow).toContainText('Success');
      await screenshotBothThemes(page, 'super-admin-token-logs');
    } finally {
      await request.fetch(`/payg/admin/organizations/${orgId}?force=true`, { method: 'DELETE', headers: { Authorization: `Bearer ${admin}` } });
    }
  });
});
