import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

test.describe('discounts', () => {
  test('an owner takes an amount off what is left to pay, then the rest, and the device is paid off with its unlock code', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Discount Achieng');
    const serial = unique('DISC');
    const customer = await createCustomer(request, owner, name, '0711000555');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Discount plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    // 1,000 paid on a plan paid off at 12,000: 11,000 left.
    const key = await receiverKey(request, owner);
    expect((await postMpesa(request, key, { code: mpesaCode(), amount: '1,000.00', account: serial })).status).toBe('processed');

    await signIn(page, undefined, `/device-activity/${serial}`);
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info).toContainText('KES 11,000.00');
    await page.getByRole('button', { name: 'Give Discount' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give Discount' });
    await expect(dialog).toContainText('At most KES 11,000.00, what is left to pay');
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('1000');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Paying off early this month');
    await expect(dialog).toContainText('Left to pay after: KES 10,000.00');
    await screenshotBothThemes(page, 'device-discount');
    await dialog.getByRole('button', { name: 'Give Discount' }).click();
    await expect(page.getByText(`KES 1,000.00 taken off ${serial}: KES 10,000.00 left to pay`)).toBeVisible();

    // The balance follows at once, and the discount is listed with why and who.
    await expect(info).toContainText('KES 10,000.00');
    const discounts = page.getByRole('region', { name: 'Discounts' });
    await expect(discounts).toContainText('Paying off early this month');
    await expect(discounts).toContainText('1 discount: KES 1,000.00 off on the present account');
    await discounts.screenshot({ path: resolve(SCREENSHOTS, 'device-discounts-card.png') });
    const status = await apiCall<{ balance: string }>(request, owner, 'GET', `/customers/${customer.customer_id}/status`);
    expect(status.balance).toBe('10000.00');

    // All that is left: paid off on the spot, with the code that unlocks the device for good.
    await page.getByRole('button', { name: 'Give Discount' }).click();
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('10000');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Goodwill: the panel was replaced twice');
    await expect(dialog).toContainText('This pays the device off: it unlocks for good, with a code to enter on it.');
    await dialog.getByRole('button', { name: 'Give Discount' }).click();
    const done = page.getByRole('dialog', { name: 'Device Paid Off' });
    await expect(done.getByText('Enter this code on the device to unlock it for good')).toBeVisible();
    await screenshotBothThemes(page, 'device-discount-paid-off');
    await done.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('button', { name: 'Give Discount' })).toHaveCount(0);
    await expect(discounts).toContainText('Paid off');
    const after = await apiCall<{ balance: string; repayment: { standing: string | null } }>(request, owner, 'GET', `/customers/${customer.customer_id}/status`);
    expect(after).toMatchObject({ balance: '0.00', repayment: { standing: 'paid_off' } });
  });

  test('an owner voids a discount given on the wrong device: the amount is back on what is left to pay', async ({ page, request }) => {
    const owner = await apiToken(request);
    const customer = await createCustomer(request, owner, unique('Void Otieno'), '0711000666');
    const serial = unique('DVOID');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Void plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    await apiCall(request, owner, 'POST', '/items/discount', { item_serial_number: serial, amount: 700, reason: 'Meant for the neighbour' });

    await signIn(page, undefined, `/device-activity/${serial}`);
    const discounts = page.getByRole('region', { name: 'Discounts' });
    await discounts.getByRole('button', { name: 'Void discount of KES 700.00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Void Discount' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Given on the wrong device');
    await screenshotBothThemes(page, 'device-discount-void');
    await dialog.getByRole('button', { name: 'Void Discount' }).click();
    await expect(page.getByText(`Discount of KES 700.00 on ${serial} voided: KES 12,000.00 left to pay`)).toBeVisible();
    await expect(discounts.getByText('Voided', { exact: true })).toBeVisible();
    await expect(discounts).toContainText('Given on the wrong device');
    await expect(page.getByRole('region', { name: 'Device Information' })).toContainText('KES 12,000.00');
    await discounts.screenshot({ path: resolve(SCREENSHOTS, 'device-discounts-voided.png') });
  });

  test('staff see what was given but cannot give a discount', async ({ page }) => {
    // The demo's LMP-2002 was given KES 500 off as goodwill.
    await signIn(page, { username: 'baraka', password: 'baraka123' }, '/device-activity/LMP-2002');
    const discounts = page.getByRole('region', { name: 'Discounts' });
    await expect(discounts).toContainText('Goodwill: the lamp was two weeks in the shop with a faulty panel');
    await expect(page.getByRole('button', { name: 'Give Discount' })).toHaveCount(0);
    await expect(discounts.getByRole('button', { name: /^Void discount/ })).toHaveCount(0);
    // The customer's page lists their discounts across their devices.
    await discounts.getByRole('link', { name: 'Gathoni Kariuki' }).click();
    const theirs = page.getByRole('region', { name: 'Discounts' });
    await expect(theirs).toContainText('1 discount: KES 500.00 off on the accounts they hold now');
    await expect(theirs.getByRole('link', { name: 'LMP-2002' })).toBeVisible();
    await theirs.screenshot({ path: resolve(SCREENSHOTS, 'customer-discounts-card.png') });
  });
});
