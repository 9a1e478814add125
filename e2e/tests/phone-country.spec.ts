import { resolve } from 'node:path';
import { apiCall, openSignedIn, seedCustomer, unique } from '../support/api.js';
import { expect, SCREENSHOTS, screenshotBothThemes, test } from '../support/fixtures.js';

// The demo organization moves to Uganda and back (the suite runs one test at a time): a customer typed 07… is then
// found by the number with +256, and the Add Customer form shows a Ugandan number as its example.
test.describe('phone numbers of the organization country', () => {
  test.afterEach(async ({ page }) => {
    await apiCall(page, 'PUT', '/settings/phone-country', { phone_country_code: '254' });
  });

  test('an owner reads numbers as Ugandan: told what it does, told how many, and search finds +256', async ({ page }) => {
    await openSignedIn(page, '/settings');
    const customer = await seedCustomer(page, `Nakato ${unique('UG')}`);
    const { phone_contact: phone } = await apiCall<{ phone_contact: string }>(page, 'GET', `/customers/${customer.customer_id}`);
    const card = page.getByRole('region', { name: 'Phone Numbers' });
    await expect(card.getByTestId('phone-country-example')).toHaveText('0712 345 678 is read as +254712345678');
    await expect(card.getByRole('button', { name: 'Save Country' })).toBeDisabled();

    await card.getByRole('combobox', { name: /^Country/ }).selectOption({ label: 'Uganda (+256)' });
    await expect(card.getByText("Read numbers as Uganda's?")).toBeVisible();
    await screenshotBothThemes(page, 'settings-phone-country');
    await card.screenshot({ path: resolve(SCREENSHOTS, 'settings-phone-country-card.png') });
    await card.getByRole('button', { name: 'Save Country' }).click();
    await expect(page.getByText(/^Phone numbers are read as Uganda's: [\d,]+ customers' numbers read again(, [\d,]+ not readable as a phone)?$/)).toBeVisible();
    await expect(card.getByTestId('phone-country-example')).toHaveText('0772 123 456 is read as +256772123456');
    await expect(card.getByText("Read numbers as Uganda's?")).toBeHidden();

    // The customer typed 07… is now +256…: searched that way, found.
    await page.goto('/customers');
    await page.getByRole('combobox', { name: 'Search field' }).click();
    await page.getByRole('option', { name: 'Phone Contact' }).click();
    await page.getByRole('textbox', { name: 'Search customers' }).fill(`+256 ${phone.slice(1)}`);
    await expect(page.getByRole('row', { name: new RegExp(customer.customer_name) })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row')).toHaveCount(2);

    await page.getByRole('button', { name: 'Add Customer' }).click();
    const add = page.getByRole('dialog', { name: 'Add Customer' });
    await expect(add.getByRole('textbox', { name: 'Phone Contact', exact: true })).toHaveAttribute('placeholder', '0772 123 456');
  });
});
