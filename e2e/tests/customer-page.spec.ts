import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

const PHONE = { width: 390, height: 844 };

test.describe("the customer's own page", () => {
  test('staff make a link; the customer opens it on a phone without signing in and sees credit, balance, codes and payments', async ({ page, browser, request }) => {
    const owner = await apiToken(request);
    const name = unique('Page Achieng');
    const serial = unique('PAGE');
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await createCustomer(request, owner, name, phone);
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Page Plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    await postMpesa(request, await receiverKey(request, owner), { code: mpesaCode(), amount: '700.00', account: serial, payer: `${name.toUpperCase()} 254${phone.slice(1)}` });

    await signIn(page, undefined, `/customer-payment-details/${customer.customer_id}`);
    await page.getByRole('button', { name: "Customer's Page" }).click();
    const dialog = page.getByRole('dialog', { name: "Customer's Page" });
    await expect(dialog.getByText(`${name} has no link yet.`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Make Link' }).click();
    const shown = dialog.getByTestId('portal-url');
    await expect(shown).toContainText('/my/');
    await expect(dialog.getByLabel('Current link')).toContainText('Not opened yet.');
    await screenshotBothThemes(page, 'customer-page-link', { fullPage: false });
    const url = (await shown.textContent())!.trim();

    // The customer: another browser, no session, a phone's screen.
    const phoneContext = await browser.newContext({ viewport: PHONE });
    const customerPage = await phoneContext.newPage();
    await customerPage.goto(url);
    await expect(customerPage.getByRole('heading', { name: `Hello ${name.split(' ')[0]}` })).toBeVisible();
    const device = customerPage.getByRole('region', { name: serial });
    await expect(device.getByText('On', { exact: true })).toBeVisible();
    await expect(device.getByText(/^Credit until /)).toBeVisible();
    const codes = customerPage.getByRole('region', { name: 'Your last codes' });
    await expect(codes.getByText(/^\d{3}( \d{1,3})+$/).first()).toBeVisible();
    await expect(customerPage.getByRole('table', { name: 'Your last payments' })).toContainText('KES 700.00');
    await screenshotBothThemes(customerPage, 'customer-page');
    const [statement] = await Promise.all([customerPage.waitForEvent('download'), customerPage.getByRole('link', { name: 'Download my statement (PDF)' }).click()]);
    expect(statement.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-\d{2}\.pdf$/);
    await phoneContext.close();

    // Staff see it was opened, then stop it: the customer's page says so.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: "Customer's Page" }).click();
    await expect(dialog.getByLabel('Current link')).toContainText('Opened 2 times');
    await dialog.getByRole('button', { name: 'Stop Link' }).click();
    await expect(page.getByText('Link stopped: it no longer opens the page')).toBeVisible();
    const later = await browser.newContext({ viewport: PHONE });
    const again = await later.newPage();
    await again.goto(url);
    await expect(again.getByText('This page is not available: the link may have expired. Ask for a new one.')).toBeVisible();
    await later.close();
  });
});
