import { DARAJA_KEYS } from '../../apps/api/test/support/fake-daraja.js';
import { expect, screenshotBothThemes, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

// Pay Now on the customer's own page (README "The customer's page"): the customer's phone on file gets M-Pesa Express's
// prompt. The API talks to the fake Safaricom started by the global set-up, whose customers answer each prompt 1.5 s
// later: they pay, except 13 shillings, which they cancel.

interface MpesaExpressSaved {
  configured: boolean;
  is_active: boolean;
  environment: 'sandbox' | 'production';
  short_code: string | null;
  transaction_type: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  till_number: string | null;
}

test.describe("Pay Now on the customer's own page", () => {
  // The customer's phone: the page is meant for cheap phones.
  test.use({ viewport: { width: 390, height: 844 } });

  let found: MpesaExpressSaved | null = null;
  // M-Pesa Express is left on, as the other Ask to Pay tests leave it, unless it was found set up and switched off:
  // mpesa-express.spec.ts sets it up through the Settings card, which keeps a saved switch as it is, so it must not
  // find it switched off by this test (nor on when it had been off).
  test.afterEach(async ({ request }) => {
    if (!found?.configured || found.is_active) return;
    const owner = await apiToken(request);
    await apiCall(request, owner, 'PUT', '/settings/mpesa-express', {
      environment: found.environment,
      short_code: found.short_code,
      transaction_type: found.transaction_type,
      till_number: found.till_number,
      is_active: false,
    });
  });

  test('the customer pays a week from their page with their M-Pesa PIN and sees the code; a cancelled prompt says so', async ({ page, request }) => {
    // Two prompts, each answered a moment later and read every 3 s.
    test.setTimeout(90_000);
    const owner = await apiToken(request);
    found = await apiCall<MpesaExpressSaved>(request, owner, 'GET', '/settings/mpesa-express');
    await apiCall(request, owner, 'PUT', '/settings/mpesa-express', { environment: 'sandbox', short_code: '174379', ...DARAJA_KEYS });

    const name = unique('Pay Wanjiku');
    const serial = unique('PAYNOW');
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await createCustomer(request, owner, name, phone);
    await createItem(request, owner, serial);
    // KES 50 a day, 500 to activate.
    const plan = await createTemplate(request, owner, unique('Pay Now Plan'));
    await onboard(request, owner, customer.customer_id, serial, plan.template_id);
    // Activated by an ordinary paybill payment: what Pay Now pays next buys days straight away.
    await postMpesa(request, await receiverKey(request, owner), { code: mpesaCode(), amount: '700.00', account: serial, payer: `${name.toUpperCase()} 254${phone.slice(1)}` });
    const link = await apiCall<{ token: string }>(request, owner, 'POST', `/customers/${customer.customer_id}/portal-link`);

    // The customer: no session, their own phone.
    await page.goto(`/my/${link.token}`);
    await expect(page.getByRole('heading', { name: `Hello ${name.split(' ')[0]}` })).toBeVisible();
    const device = page.getByRole('region', { name: serial });
    await device.getByRole('button', { name: 'Pay now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay now' });
    const hint = `••• ${phone.slice(-3)}`;
    await expect(dialog.getByText(`M-Pesa Express will send a prompt to your phone (${hint}). Enter your PIN there to pay.`)).toBeVisible();
    // Another way to pay may be ready too (the other tests set some up): this one is about M-Pesa.
    const mpesa = dialog.getByRole('radio', { name: 'M-Pesa Express' });
    if (await mpesa.count()) await dialog.getByText('M-Pesa Express', { exact: true }).click();
    await dialog.getByRole('button', { name: '7 days: KES 350' }).click();
    await expect(dialog.getByLabel('Amount (KES)')).toHaveValue('350');
    await screenshotBothThemes(page, 'customer-page-pay-now', { fullPage: false });

    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('status')).toContainText(`Check your phone (${hint})`);
    await expect(dialog.getByRole('status')).toContainText('Enter your PIN to pay KES 350.');
    await expect(dialog.getByRole('heading', { name: 'Paid: 7 days' })).toBeVisible({ timeout: 15_000 });
    const code = dialog.getByTestId('portal-payment-token');
    await expect(code).toHaveText(/^\d{3}( \d{1,3})+$/);
    const token = (await code.textContent())!.trim();
    await expect(dialog.getByText('Type it into the device. It was also sent to you by SMS.')).toBeVisible();
    await screenshotBothThemes(page, 'customer-page-pay-paid', { fullPage: false });

    // The page behind has read again: the payment and its code are listed.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Your last codes' }).getByText(token, { exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Your last payments' })).toContainText('KES 350.00');

    // The customer cancels the next prompt: nothing is paid, and they can try again.
    await device.getByRole('button', { name: 'Pay now' }).click();
    if (await mpesa.count()) await dialog.getByText('M-Pesa Express', { exact: true }).click();
    await dialog.getByLabel('Amount (KES)').fill('13');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('You cancelled the payment.')).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByText(/Nothing was paid\./)).toBeVisible();
    await screenshotBothThemes(page, 'customer-page-pay-cancelled', { fullPage: false });
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect(dialog.getByLabel('Amount (KES)')).toHaveValue('13');
  });
});
