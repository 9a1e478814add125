import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

test.describe('account transfers', () => {
  test("another customer takes over a device's payments: the account passes to them as it is", async ({ page, request }) => {
    const owner = await apiToken(request);
    const holder = await createCustomer(request, owner, unique('Transfer Amina'), '0711000555');
    const heir = await createCustomer(request, owner, unique('Transfer Joseph'), '0711000556');
    const serial = unique('XFER');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Transfer plan'));
    await onboard(request, owner, holder.customer_id, serial, template.template_id);
    // 500 activates the device; 500 more buys 10 days.
    const key = await receiverKey(request, owner);
    expect((await postMpesa(request, key, { code: mpesaCode(), amount: '1,000.00', account: serial })).status).toBe('processed');

    await signIn(page, undefined, `/device-activity/${serial}`);
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info).toContainText(holder.customer_name);
    await page.getByRole('button', { name: 'Transfer Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Account' });
    await expect(dialog).toContainText(`${holder.customer_name}'s account on ${serial} passes to the customer you choose, as it is: KES 1,000.00 paid`);
    await expect(dialog).toContainText(`paid, its plan ${template.template_name} and credit until`);
    await expect(dialog).toContainText('No code is needed');
    await dialog.getByRole('combobox', { name: 'New holder' }).fill(heir.customer_name);
    await page.getByRole('option', { name: new RegExp(heir.customer_name) }).click();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The customer died; his son pays on');
    await screenshotBothThemes(page, 'device-transfer-account', { fullPage: false });
    await dialog.getByRole('button', { name: 'Transfer Account' }).click();

    await expect(page.getByText(`Device ${serial}'s account transferred from ${holder.customer_name} to ${heir.customer_name}`)).toBeVisible();
    await expect(dialog).toBeHidden();
    // The page shows the new holder, and whose account it continues.
    await expect(info.getByRole('link', { name: heir.customer_name })).toHaveAttribute('href', `/customer-payment-details/${heir.customer_id}`);
    const takenOver = info.getByLabel('Taken over');
    await expect(takenOver).toContainText(`Taken over from ${holder.customer_name} on`);
    await expect(takenOver).toContainText('KES 1,000.00 paid before — The customer died; his son pays on');
    await expect(takenOver.getByRole('link', { name: holder.customer_name })).toHaveAttribute('href', `/customer-payment-details/${holder.customer_id}`);
    await expect(info).toContainText('KES 1,000.00');
    // The notification has gone: the screenshot shows the page as it stays.
    await expect(page.getByText(`Device ${serial}'s account transferred`)).toBeHidden({ timeout: 15_000 });
    await screenshotBothThemes(page, 'device-transferred');

    // The device moved from one customer to the other.
    const before = await apiCall<{ devices: { serial_number: string }[] }>(request, owner, 'GET', `/customers/${holder.customer_id}/status`);
    expect(before.devices.map((d) => d.serial_number)).toEqual([]);
    const after = await apiCall<{ devices: { serial_number: string }[] }>(request, owner, 'GET', `/customers/${heir.customer_id}/status`);
    expect(after.devices.map((d) => d.serial_number)).toEqual([serial]);

    // The new holder's page: what was paid before they had the device is under their Total Paid.
    await page.goto(`/customer-payment-details/${heir.customer_id}`);
    await expect(page.getByRole('group', { name: 'Total Paid' })).toContainText('+ KES 1,000.00 paid before they had these devices');
  });
});
