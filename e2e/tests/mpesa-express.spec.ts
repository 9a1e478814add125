import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, createTemplate, onboard, unique } from './ops/api.js';

// M-Pesa Express (README "Asking a customer to pay"). The API talks to a fake Safaricom started by the global set-up
// (MPESA_EXPRESS_BASE_URL), whose customers answer each prompt 1.5 s later by posting the result to PUBLIC_URL: they
// pay, except 13 shillings, which they cancel, and 14, which they pay but whose result is lost (only a check tells).

test.describe('M-Pesa Express', () => {
  test('an owner sets it up, staff ask a customer to pay from the device page, and the payment lands with its code', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Akinyi Express');
    const serial = unique('STK');
    const customer = await createCustomer(request, owner, name, '0722 555 111');
    await createItem(request, owner, serial);
    const plan = await createTemplate(request, owner, unique('Express Plan'));
    await onboard(request, owner, customer.customer_id, serial, plan.template_id);

    // Settings: the keys, tried against Safaricom.
    await signIn(page, undefined, '/settings');
    const card = page.getByRole('region', { name: 'M-Pesa Express' });
    await card.getByLabel('Short Code').fill('174379');
    await card.getByLabel('Consumer Key').fill('ck_live_0123456789abcdefghij');
    await card.getByLabel('Consumer Secret').fill('cs_0123456789abcdefghij');
    await card.getByLabel('Passkey').fill('bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919');
    await card.getByRole('button', { name: 'Save M-Pesa Express' }).click();
    await expect(card.getByLabel('Consumer Secret')).toHaveValue(/••••/);
    await card.getByRole('button', { name: 'Test Connection' }).click();
    await expect(card.getByText('Safaricom accepted the consumer key and secret (sandbox)')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: resolve(SCREENSHOTS, 'mpesa-express-settings-card.png') });
    await screenshotBothThemes(page, 'mpesa-express-settings');

    // The device page: Ask to Pay, then the customer pays on their phone.
    await page.goto(`/device-activity/${serial}`);
    await page.getByRole('button', { name: 'Ask to Pay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask to Pay' });
    await expect(dialog.getByLabel('Phone Number')).toHaveValue(/0722 ?555 ?111|254722555111/);
    await dialog.getByLabel(/Amount/).fill('700');
    await screenshotBothThemes(page, 'mpesa-express-ask', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('Waiting for the customer to enter their M-Pesa PIN')).toBeVisible();
    await expect(dialog.getByRole('status').filter({ hasText: 'Paid' })).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByRole('group', { name: 'M-Pesa Receipt' })).toHaveText(/TL[0-9A-Z]{6,}/);
    await expect(dialog.getByTestId('payment-request-token')).toHaveText(/\d{3} \d{3} \d{3}/);
    await screenshotBothThemes(page, 'mpesa-express-paid', { fullPage: false });
    await dialog.getByRole('button', { name: /Close|Done/ }).first().click();

    // The request is in the device's list, and the payment in its history like any M-Pesa payment.
    const requests = page.getByRole('region', { name: 'Payment Requests' });
    await expect(requests.getByRole('row').filter({ hasText: /KES 700/ }).getByText('Paid', { exact: true })).toBeVisible();
    await expect(page.getByText(/TL[0-9A-Z]{6,}/).first()).toBeVisible();

    // And on the customer's page, with the device it was for.
    await page.goto(`/customer-payment-details/${customer.customer_id}`);
    await expect(page.getByRole('region', { name: 'Payment Requests' }).getByRole('link', { name: serial })).toBeVisible();

    // Whoever asked is told in their bell, which leads to the device.
    await page.getByRole('banner').getByRole('button', { name: 'Notifications' }).click();
    const told = page.getByRole('menu').getByRole('menuitem', { name: new RegExp(`^Unread: The customer paid KES 700 for ${serial} by M-Pesa Express \\(receipt TL`) });
    await expect(told).toHaveAttribute('href', `/device-activity/${serial}`);
    await page.keyboard.press('Escape');

    // Collections: a customer who cancels the prompt.
    const late = await createCustomer(request, owner, unique('Otieno Late'), '0711 222 333');
    const lateSerial = unique('STK');
    await createItem(request, owner, lateSerial);
    await onboard(request, owner, late.customer_id, lateSerial, plan.template_id);
    await page.goto('/collections');
    await page.getByRole('button', { name: new RegExp(`^Ask to Pay: .* · ${lateSerial}$`) }).click();
    const ask = page.getByRole('dialog', { name: 'Ask to Pay' });
    await ask.getByLabel(/Amount/).fill('13');
    await ask.getByRole('button', { name: 'Send' }).click();
    await expect(ask.getByText('The customer cancelled the prompt')).toBeVisible({ timeout: 15_000 });
    await expect(ask.getByRole('button', { name: 'Ask Again' })).toBeVisible();
    await screenshotBothThemes(page, 'mpesa-express-cancelled', { fullPage: false });

    // Asked again, the customer pays, and M-Pesa's result is lost: Check with M-Pesa tells, and says the receipt is to come.
    await ask.getByRole('button', { name: 'Ask Again' }).click();
    await ask.getByLabel(/Amount/).fill('14');
    await ask.getByRole('button', { name: 'Send' }).click();
    await expect(ask.getByText('Waiting for the customer to enter their M-Pesa PIN')).toBeVisible();
    await expect(async () => {
      await ask.getByRole('button', { name: 'Check with M-Pesa' }).click();
      await expect(ask.getByText('Paid', { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(ask.getByText(/M-Pesa says the customer paid, but its receipt has not reached Kidogo yet/).first()).toBeVisible();
    await screenshotBothThemes(page, 'mpesa-express-checked', { fullPage: false });

    // The Ask to Pay report: what each sender asked for, with what, and what came of it.
    await ask.getByRole('button', { name: 'Done' }).click();
    await page.goto('/reports');
    await page.getByRole('button', { name: 'Generate Ask to Pay Report' }).click();
    const report = page.getByRole('region', { name: 'Ask to Pay Report' });
    const table = report.getByRole('table', { name: 'payment requests report' });
    await expect(table.getByRole('row').filter({ hasText: 'demo' }).first()).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Paid %' })).toBeVisible();
    await report.scrollIntoViewIfNeeded();
    await report.screenshot({ path: resolve(SCREENSHOTS, 'mpesa-express-report.png') });
  });
});
