import { resolve } from 'node:path';
import { AIRTEL_KEYS } from '../../apps/api/test/support/fake-airtel.js';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, onboard, unique } from './ops/api.js';

// Airtel Money's USSD push (README "Asking a customer to pay (Airtel Money)"). The API talks to a fake Airtel started
// by the global set-up (AIRTEL_MONEY_BASE_URL), whose customers answer each push 1.5 s later; Airtel then posts to the
// callback URL of the organization's Airtel app, and Kidogo asks Airtel how the transaction ended. They pay, except 13,
// which they refuse, and 14, which they pay but whose callback never comes (only Check with Airtel Money tells).
// Airtel prompts only phones of its market: the customer here has a Ugandan number, given in full (the organization
// reads numbers as Kenya's), and the plan is in Uganda's shillings.

test.describe('Airtel Money', () => {
  // Later tests (M-Pesa Express, MTN MoMo) expect the ways to pay they set up themselves: this one's is switched off again.
  test.afterEach(async ({ request }) => {
    const owner = await apiToken(request);
    const saved = await apiCall<{ configured: boolean; country: string; environment: string; client_id: string }>(request, owner, 'GET', '/settings/airtel-money');
    if (!saved.configured) return;
    await apiCall(request, owner, 'PUT', '/settings/airtel-money', { country: saved.country, environment: saved.environment, client_id: saved.client_id, is_active: false });
  });

  test('an owner sets it up and chooses it in Ask to Pay: the payment Airtel confirms lands with its code, a refusal says so', async ({ page, request }) => {
    // Three requests, each answered a moment later and read every 3 s: longer than most tests.
    test.setTimeout(90_000);
    const owner = await apiToken(request);
    // M-Pesa Express ready too: the dialog then asks which to pay with.
    await apiCall(request, owner, 'PUT', '/settings/mpesa-express', {
      environment: 'sandbox',
      short_code: '174379',
      consumer_key: 'ck_live_0123456789abcdefghij',
      consumer_secret: 'cs_0123456789abcdefghij',
      passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
    });
    const name = unique('Namuli Airtel');
    const serial = unique('AIRTEL');
    const customer = await createCustomer(request, owner, name, '+256 752 123 456');
    await createItem(request, owner, serial);
    const plan = await apiCall<{ template_id: number }>(request, owner, 'POST', '/payments/templates/create', {
      template_name: unique('Uganda Plan'),
      daily_price: 1000,
      activation_price: 0,
      grace_period_days: 0,
      currency: 'UGX',
    });
    await onboard(request, owner, customer.customer_id, serial, plan.template_id);

    // Settings: the market, Airtel's system and the app's client id and secret, tried against Airtel.
    await signIn(page, undefined, '/settings');
    const card = page.getByRole('region', { name: 'Airtel Money' });
    await expect(card.getByText('Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money')).toBeVisible();
    // The callback URL to paste into the Airtel app is there before anything is saved.
    await expect(card.getByTestId('airtel-money-callback')).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/payg\/external\/airtel-money\/callback$/);
    await card.getByRole('combobox', { name: 'Market' }).selectOption({ label: 'Uganda (UGX)' });
    await expect(card.getByText('Requests ask for UGX, from Airtel Money wallets in Uganda (+256 numbers)')).toBeVisible();
    await card.getByRole('combobox', { name: 'Airtel System' }).selectOption({ label: 'Staging (test money)' });
    await card.getByLabel('Client ID').fill(AIRTEL_KEYS.client_id);
    await card.getByLabel('Client Secret').fill(AIRTEL_KEYS.client_secret);
    await card.getByRole('button', { name: 'Save Airtel Money' }).click();
    await expect(card.getByLabel('Client Secret')).toHaveValue(/••••/);
    await expect(card.getByText('Ready', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Test Connection' }).click();
    await expect(card.getByText('Airtel accepted the client id and secret (staging)')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    // The card alone: without the "saved" toast, nor the page's header over a card taller than the window.
    await card.screenshot({
      path: resolve(SCREENSHOTS, 'airtel-money-settings-card.png'),
      style: '.mantine-Notifications-root, .mantine-AppShell-header { display: none }',
    });

    // The device page: Ask to Pay with Airtel Money, then the customer approves on their phone.
    await page.goto(`/device-activity/${serial}`);
    await page.getByRole('button', { name: 'Ask to Pay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask to Pay' });
    // M-Pesa first: its shillings are not the plan's, and the dialog says what would become of them.
    await expect(dialog.getByRole('note', { name: 'Another currency' })).toContainText("This device's plan is in UGX, and M-Pesa Express asks in KES");
    await dialog.getByText('Airtel Money', { exact: true }).click();
    await expect(dialog.getByRole('note', { name: 'Another currency' })).toHaveCount(0);
    await expect(dialog.getByText(/^Airtel Money asks/)).toContainText('they approve it with their Airtel Money PIN');
    await expect(dialog.getByLabel(/Amount \(UGX\)/)).toBeVisible();
    await expect(dialog.getByText('UGX 1,000.00 a day. Whole UGX, no cents.')).toBeVisible();
    await dialog.getByLabel(/Amount/).fill('5000');
    await screenshotBothThemes(page, 'airtel-money-ask', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('Waiting for the customer to approve with their Airtel Money PIN')).toBeVisible();
    await expect(dialog.getByRole('status').filter({ hasText: 'Paid' })).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByRole('group', { name: 'Airtel Money Transaction' })).toHaveText(/MP\d{6}\.\d{4}\.A\d{5}/);
    await expect(dialog.getByText(new RegExp(`paid UGX 5,000\\.00 from \\+256 752 123 456, account ${serial}`))).toBeVisible();
    await expect(dialog.getByRole('group', { name: 'Days Bought' })).toHaveText(/5/);
    await expect(dialog.getByTestId('payment-request-token')).toHaveText(/\d{3} \d{3} \d{3}/);
    await screenshotBothThemes(page, 'airtel-money-paid', { fullPage: false });
    await dialog.getByRole('button', { name: /Close|Done/ }).first().click();

    // The request in the device's list, by Airtel Money, with its transaction id.
    const requests = page.getByRole('region', { name: 'Payment Requests' });
    const row = requests.getByRole('row').filter({ hasText: /UGX 5,000\.00/ });
    await expect(row.getByText('Paid', { exact: true })).toBeVisible();
    await expect(row).toContainText('Airtel Money');
    await expect(row).toContainText(/Paid, Airtel Money transaction MP\d{6}\.\d{4}\.A\d{5}: 5 days of credit/);

    // Asked again, the customer refuses.
    await page.getByRole('button', { name: 'Ask to Pay' }).click();
    await dialog.getByText('Airtel Money', { exact: true }).click();
    await dialog.getByLabel(/Amount/).fill('13');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('The customer declined the payment')).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByText('Cancelled by the customer')).toBeVisible();
    await screenshotBothThemes(page, 'airtel-money-declined', { fullPage: false });

    // Asked again, the customer pays, and Airtel's callback never comes: Check with Airtel Money asks Airtel, which tells.
    await dialog.getByRole('button', { name: 'Ask Again' }).click();
    await expect(dialog.getByRole('radio', { name: 'Airtel Money' })).toBeChecked();
    await dialog.getByLabel(/Amount/).fill('14');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('Waiting for the customer to approve with their Airtel Money PIN')).toBeVisible();
    await expect(async () => {
      await dialog.getByRole('button', { name: 'Check with Airtel Money' }).click();
      await expect(dialog.getByRole('status').filter({ hasText: 'Paid' })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(dialog.getByRole('group', { name: 'Airtel Money Transaction' })).toHaveText(/MP\d{6}\.\d{4}\.A\d{5}/);
    await screenshotBothThemes(page, 'airtel-money-checked', { fullPage: false });
  });
});
