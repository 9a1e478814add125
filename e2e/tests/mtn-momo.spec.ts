import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, onboard, unique } from './ops/api.js';

// MTN MoMo's Request to Pay (README "Asking a customer to pay (MTN MoMo)"). The API talks to a fake MTN started by
// the global set-up (MTN_MOMO_BASE_URL), whose customers answer each request 1.5 s later by putting the result to
// PUBLIC_URL: they approve, except 13, which they decline. The sandbox's money is EUR, so the plan here is in EUR.

const MOMO = {
  api_user: '5b2ad9a4-7c1e-4e7a-9f43-0c6f2d1e8a11',
  api_key: 'f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6',
  subscription_key: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
};

test.describe('MTN MoMo', () => {
  test('an owner sets it up, staff choose it in Ask to Pay, and the approved payment lands with its code', async ({ page, request }) => {
    const owner = await apiToken(request);
    // M-Pesa Express ready too: the dialog then asks which to pay with.
    await apiCall(request, owner, 'PUT', '/settings/mpesa-express', {
      environment: 'sandbox',
      short_code: '174379',
      consumer_key: 'ck_live_0123456789abcdefghij',
      consumer_secret: 'cs_0123456789abcdefghij',
      passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
    });
    const name = unique('Nakato MoMo');
    const serial = unique('MOMO');
    const customer = await createCustomer(request, owner, name, '0722 555 222');
    await createItem(request, owner, serial);
    const plan = await apiCall<{ template_id: number }>(request, owner, 'POST', '/payments/templates/create', {
      template_name: unique('Euro Plan'),
      daily_price: 0.5,
      activation_price: 0,
      grace_period_days: 0,
      currency: 'EUR',
    });
    await onboard(request, owner, customer.customer_id, serial, plan.template_id);

    // Settings: the market, the API user and keys, tried against MTN.
    await signIn(page, undefined, '/settings');
    const card = page.getByRole('region', { name: 'MTN MoMo' });
    await card.getByRole('combobox', { name: 'Market' }).selectOption({ label: 'Sandbox: test money (EUR)' });
    await card.getByLabel('API User').fill(MOMO.api_user);
    await card.getByLabel('API Key').fill(MOMO.api_key);
    await card.getByLabel('Subscription Key').fill(MOMO.subscription_key);
    await card.getByRole('button', { name: 'Save MTN MoMo' }).click();
    await expect(card.getByLabel('API Key')).toHaveValue(/••••/);
    await card.getByRole('button', { name: 'Test Connection' }).click();
    await expect(card.getByText('MTN accepted the API user and keys (sandbox)')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: resolve(SCREENSHOTS, 'mtn-momo-settings-card.png') });

    // The device page: Ask to Pay with MTN MoMo, then the customer approves on their phone.
    await page.goto(`/device-activity/${serial}`);
    await page.getByRole('button', { name: 'Ask to Pay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask to Pay' });
    // M-Pesa first: its shillings are not the plan's euros, and the dialog says what would become of them.
    await expect(dialog.getByRole('note', { name: 'Another currency' })).toContainText("This device's plan is in EUR, and M-Pesa Express asks in KES");
    await dialog.getByText('MTN MoMo', { exact: true }).click();
    await expect(dialog.getByRole('note', { name: 'Another currency' })).toHaveCount(0);
    await expect(dialog.getByLabel(/Amount/)).toBeVisible();
    await expect(dialog.getByText(/EUR/).first()).toBeVisible();
    await dialog.getByLabel(/Amount/).fill('2.50');
    await screenshotBothThemes(page, 'mtn-momo-ask', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: 'Paid' })).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByRole('group', { name: 'MTN MoMo Transaction' })).toHaveText(/7666\d{7}/);
    await expect(dialog.getByText(new RegExp(`paid EUR 2\\.50 from \\+254 722 555 222, account ${serial}`))).toBeVisible();
    await expect(dialog.getByRole('group', { name: 'Days Bought' })).toHaveText(/5/);
    await expect(dialog.getByTestId('payment-request-token')).toHaveText(/\d{3} \d{3} \d{3}/);
    await screenshotBothThemes(page, 'mtn-momo-paid', { fullPage: false });
    await dialog.getByRole('button', { name: /Close|Done/ }).first().click();

    // The request in the device's list, with what it was in.
    const requests = page.getByRole('region', { name: 'Payment Requests' });
    await expect(requests.getByRole('row').filter({ hasText: /EUR 2\.50|€\s?2\.50/ }).getByText('Paid', { exact: true })).toBeVisible();

    // Asked again, the customer declines.
    await page.getByRole('button', { name: 'Ask to Pay' }).click();
    await dialog.getByText('MTN MoMo', { exact: true }).click();
    await dialog.getByLabel(/Amount/).fill('13');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('The customer declined the payment')).toBeVisible({ timeout: 15_000 });
    await screenshotBothThemes(page, 'mtn-momo-declined', { fullPage: false });
  });
});
