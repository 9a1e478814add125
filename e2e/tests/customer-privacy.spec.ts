import { readFileSync } from 'node:fs';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { unzip } from './ops/zip.js';
import { apiCall, apiToken, createCustomer, createItem, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

const PHONE = { width: 390, height: 844 };
/** A 1×1 PNG: the customer's ID card, as far as the copy is concerned. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const DESKTOP = { width: 1366, height: 850 };

test.describe("a customer's personal data", () => {
  test('an owner hands a customer their data, then erases it once the device is back, keeping the payment', async ({ page, request }) => {
    test.setTimeout(90_000);
    const owner = await apiToken(request);
    const name = unique('Private Wambui');
    const serial = unique('PRIV');
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await createCustomer(request, owner, name, phone);
    await createItem(request, owner, serial);
    await onboard(request, owner, customer.customer_id, serial);
    const code = mpesaCode();
    await postMpesa(request, await receiverKey(request, owner), { code, amount: '100.00', account: serial, payer: `${name.toUpperCase()} 254${phone.slice(1)}` });

    const upload = await request.post(`/payg/customers/${customer.customer_id}/documents`, {
      headers: { Authorization: `Bearer ${owner}` },
      multipart: { kind: 'id_front', file: { name: 'id-card.png', mimeType: 'image/png', buffer: PNG } },
    });
    expect(upload.status()).toBe(201);
    const idCard = ((await upload.json()) as { data: { document_id: number } }).data;

    await signIn(page, undefined, `/customer-payment-details/${customer.customer_id}`);
    const card = page.getByRole('region', { name: 'Personal Data' });
    await expect(card).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'customer-personal-data');

    // The copy: one ZIP file with everything, the payment and its payer included, and the customer's ID card.
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download Personal Data' }).click()]);
    expect(download.suggestedFilename()).toBe(`customer-${customer.customer_id}-personal-data.zip`);
    const files = await unzip(readFileSync(await download.path()));
    const data = JSON.parse(files.get('personal-data.json')!.toString('utf8'));
    expect(data.customer).toMatchObject({ customer_id: customer.customer_id, customer_name: name, phone_contact: phone });
    expect(data.payments).toEqual([expect.objectContaining({ transaction_code: code, amount: '100.00', payer_name: name.toUpperCase() })]);
    expect(data.devices).toEqual([expect.objectContaining({ serial_number: serial, current: true })]);
    expect(data.documents).toEqual([expect.objectContaining({ document_id: idCard.document_id, kind: 'id_front', file: `documents/${idCard.document_id}-id_front-id-card.png` })]);
    expect(files.get(data.documents[0].file)).toEqual(PNG);
    expect(files.get('README.txt')!.toString()).toContain(`about ${name}`);

    // Not while the customer still pays for the device.
    await card.getByRole('button', { name: 'Erase Personal Data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase personal data?' });
    const confirm = dialog.getByRole('button', { name: 'Erase Personal Data' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The customer asked in writing on 12 Nov');
    await expect(confirm).toBeDisabled();
    await dialog.getByRole('textbox', { name: "Type the customer's name to confirm" }).fill(name.toLowerCase());
    await expect(confirm).toBeEnabled();
    await screenshotBothThemes(page, 'customer-erase-confirm', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshotBothThemes(page, 'customer-erase-confirm-phone', { fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);
    await confirm.click();
    await expect(dialog.getByRole('alert')).toContainText(`${name} still pays for device ${serial}: take it back (Unassign or Repossess)`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The device comes back; now it goes.
    await apiCall(request, owner, 'POST', '/items/unassign', { item_serial_number: serial });
    await page.reload();
    await card.getByRole('button', { name: 'Erase Personal Data' }).click();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The customer asked in writing on 12 Nov');
    await dialog.getByRole('textbox', { name: "Type the customer's name to confirm" }).fill(name);
    await confirm.click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(`The personal data of customer ${customer.customer_id} was erased`)).toBeVisible();
    await expect(card.getByText('Personal data erased')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Erase Personal Data' })).toHaveCount(0);
    await expect(page.getByText(name)).toHaveCount(0);
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'customer-personal-data-erased');

    // The books keep the payment, without the payer; the customer list no longer finds them.
    const left = await apiCall<{ payments: { transaction_code: string; payer_name: string | null; amount: string }[] }>(
      request,
      owner,
      'GET',
      `/customers/${customer.customer_id}/personal-data`,
    );
    expect(left.payments).toEqual([expect.objectContaining({ transaction_code: code, amount: '100.00', payer_name: null })]);
    await page.goto('/customers');
    await page.getByRole('textbox', { name: /search/i }).first().fill(name);
    await expect(page.getByText(/No customers|No results|Nothing/i).first()).toBeVisible();
  });
});
