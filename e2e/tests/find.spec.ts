import type { Page } from '@playwright/test';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

/** The Find dialog and its search box. */
const finder = (page: Page) => {
  const dialog = page.getByRole('dialog', { name: 'Find' });
  return { dialog, box: dialog.getByRole('combobox', { name: 'Find a customer, device or payment' }) };
};

test.describe('find', () => {
  test('one box finds a customer by name or phone, a device by serial and a payment by code, and opens their pages', async ({ page, request }) => {
    // One token in both the customer's name and the device's serial: typing it finds the two, and nothing of other runs.
    const owner = await apiToken(request);
    const token = unique('FND');
    const name = `Nyambura Wairimu ${token}`;
    const serial = `SN-${token}`;
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await createCustomer(request, owner, name, phone);
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Find plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    const key = await receiverKey(request, owner);
    const paid = mpesaCode();
    expect((await postMpesa(request, key, { code: paid, amount: '1,500.00', account: serial })).status).toBe('processed');
    // Paid to an account that is no device: held for staff to match.
    const stray = mpesaCode();
    expect((await postMpesa(request, key, { code: stray, amount: '700.00', account: unique('TYPO') })).status).toBe('unmatched');

    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    // In the header, with its shortcut.
    const findButton = page.getByRole('button', { name: 'Find' });
    await expect(findButton).toContainText('Ctrl K');
    const { dialog, box } = finder(page);

    // Ctrl+K opens it with the box focused; under 3 characters it asks nothing and says so.
    await page.keyboard.press('Control+k');
    await expect(box).toBeFocused();
    await expect(box).toHaveAttribute('placeholder', 'Name, phone, ID number, serial or transaction code');
    await box.fill('ny');
    await expect(dialog.getByText('Type at least 3 characters')).toBeVisible();

    // Part of the name: the customer, and the device whose serial holds the same token.
    await box.fill(`wairimu ${token.toLowerCase()}`);
    const customerRow = dialog.getByRole('group', { name: 'Customers' }).getByRole('option', { name: new RegExp(name) });
    await expect(customerRow).toBeVisible();
    await expect(customerRow).toContainText('1 device');
    await expect(customerRow).toHaveAttribute('aria-selected', 'true');
    await box.fill(token);
    const deviceRow = dialog.getByRole('group', { name: 'Devices' }).getByRole('option', { name: new RegExp(serial) });
    await expect(deviceRow).toContainText(`Solar Home 50W · ${name}`);
    await expect(deviceRow).toContainText('Assigned');
    await expect(customerRow).toBeVisible();
    await screenshotBothThemes(page, 'find-results', { fullPage: false });

    // Enter opens the active row, the customer, and closes Find.
    await expect(customerRow).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/customer-payment-details/${customer.customer_id}$`));
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Customer Information' }).getByText(serial)).toBeVisible();

    // The header's button; it opens empty. The arrow moves to the device, Enter opens its page.
    await findButton.click();
    await expect(box).toHaveValue('');
    await box.fill(token);
    await expect(customerRow).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(deviceRow).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/device-activity/${serial}$`));
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Device Information' }).getByText(serial)).toBeVisible();

    // The phone number in its international form finds the customer, and says it was by phone; a click opens them.
    await page.keyboard.press('Control+k');
    await box.fill(`+254${phone.slice(1)}`);
    const byPhone = dialog.getByRole('group', { name: 'Customers' }).getByRole('option', { name: new RegExp(name) });
    await expect(byPhone).toContainText('Phone');
    await byPhone.click();
    await expect(page).toHaveURL(new RegExp(`/customer-payment-details/${customer.customer_id}$`));
    await expect(dialog).toBeHidden();

    // A transaction code: the payment, on its device.
    await page.keyboard.press('Control+k');
    await box.fill(paid.toLowerCase());
    const payment = dialog.getByRole('group', { name: 'Payments' }).getByRole('option', { name: new RegExp(paid) });
    await expect(payment).toContainText('KES 1,500.00');
    await expect(payment).toContainText(`${name} · ${serial}`);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/device-activity/${serial}$`));
    await expect(dialog).toBeHidden();

    // A held payment on no device: why it is held, and Enter leads to Held Payments.
    await page.keyboard.press('Control+k');
    await box.fill(stray);
    const held = dialog.getByRole('group', { name: 'Payments' }).getByRole('option', { name: new RegExp(stray) });
    await expect(held).toContainText('Held:');
    await expect(held).toContainText('KES 700.00');
    await screenshotBothThemes(page, 'find-held-payment', { fullPage: false });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/messages$/);
    await expect(dialog).toBeHidden();
    // (Not the row itself: other tests hold payments too, and the table shows ten at a time.)
    await expect(page.getByRole('table', { name: 'Held Payments' })).toBeVisible();

    // Nothing found.
    await page.keyboard.press('Control+k');
    await box.fill(unique('NOBODY'));
    await expect(dialog.getByText(/^Nothing found for “NOBODY-/)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // On a phone: an icon in the header, and "/" opens it too.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('button', { name: 'Find' })).toBeVisible();
    // The header still fits: the user menu at its right end is wholly on screen.
    await expect(page.getByRole('button', { name: 'User menu' })).toBeInViewport({ ratio: 1 });
    await page.keyboard.press('/');
    await expect(box).toBeFocused();
    await box.fill(token);
    await expect(customerRow).toBeVisible();
    // Long names are cut short with an ellipsis, not scrolled sideways: the device count stays in view.
    await expect(customerRow.getByText('1 device')).toBeInViewport({ ratio: 1 });
    const results = dialog.getByRole('listbox', { name: 'Results' });
    expect(await results.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await screenshotBothThemes(page, 'find-results-phone', { fullPage: false });
    await page.setViewportSize({ width: 1366, height: 850 });
  });
});
