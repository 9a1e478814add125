import { apiCall, openSignedIn, seedDevice, unique } from '../support/api.js';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';

test.describe('tokens', () => {
  test('generate a token for a device: the result shows the code, its type and days, and the log lists it', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const device = await seedDevice(page, unique('SN'));
    await page.goto('/tokens');
    await expect(page.getByPlaceholder('Search tokens by ID, customer name, status...')).toBeVisible();

    await page.getByRole('button', { name: 'Generate Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Token' });
    await dialog.getByRole('button', { name: 'Generate Token' }).click();
    await expect(dialog.getByText('Serial number is required')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Serial Number' }).fill(device.serial_number);
    const days = dialog.getByRole('textbox', { name: 'Number of Days', exact: true });
    await expect(days).toHaveValue('1');
    await days.fill('7');
    await dialog.getByRole('button', { name: 'Generate Token' }).click();

    const result = page.getByRole('dialog', { name: 'Token Generated' });
    await expect(result).toBeVisible();
    await expect(result.getByTestId('generated-token')).toHaveText(/^\d{3}( \d{1,3})+$/);
    await expect(result).toContainText('7');
    await expect(result).toContainText(device.serial_number);
    await screenshotBothThemes(page, 'token-generated');
    await result.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('table', { name: 'Tokens' }).getByRole('row', { name: new RegExp(device.serial_number) }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText('Success');
    await screenshotBothThemes(page, 'tokens');

    await page.getByPlaceholder('Search tokens by ID, customer name, status...').fill(device.serial_number);
    await expect(page.getByRole('table', { name: 'Tokens' }).getByRole('row')).toHaveCount(2);
  });

  test('a set-time token closes the older ones: they read Expired in the log and in the device history', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const device = await seedDevice(page, unique('SN'));
    const first = await apiCall<{ code_token: string }>(page, 'POST', '/generate-token-by-days', { serial_number: device.serial_number, number_of_days: 3 });
    const grouped = (token: string) => token.replace(/(\d{3})(?=\d)/g, '$1 ');

    // The owner resets the device's clock from the Generate Token form.
    await page.goto('/tokens');
    await page.getByRole('button', { name: 'Generate Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Token' });
    await dialog.getByRole('combobox', { name: 'Token Type' }).selectOption('set_time');
    await dialog.getByRole('combobox', { name: 'Serial Number' }).fill(device.serial_number);
    await dialog.getByRole('textbox', { name: 'Days From Now' }).fill('5');
    await screenshotBothThemes(page, 'token-set-time-form');
    await dialog.getByRole('button', { name: 'Generate Token' }).click();
    const result = page.getByRole('dialog', { name: 'Token Generated' });
    await expect(result).toContainText('Set time');
    await expect(result).toContainText('refuses every older one');
    const reset = { code_token: ((await result.getByTestId('generated-token').textContent()) ?? '').replace(/\s/g, '') };
    await result.getByRole('button', { name: 'Done' }).click();

    await page.getByPlaceholder('Search tokens by ID, customer name, status...').fill(device.serial_number);
    const table = page.getByRole('table', { name: 'Tokens' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row', { name: new RegExp(grouped(reset.code_token)) })).toContainText('Success');
    await expect(table.getByRole('row', { name: new RegExp(grouped(first.code_token)) })).toContainText('Expired');
    await screenshotBothThemes(page, 'tokens-expired');

    await page.goto(`/device-activity/${device.serial_number}`);
    const history = page.getByRole('table', { name: 'Token History' });
    await expect(history.getByRole('row', { name: new RegExp(grouped(first.code_token)) })).toContainText('Expired');
    await expect(history.getByRole('row', { name: new RegExp(grouped(reset.code_token)) })).toContainText('Success');
  });

  test('an unknown serial number shows the error in the modal', async ({ page }) => {
    await openSignedIn(page, '/tokens');
    await page.getByRole('button', { name: 'Generate Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Token' });
    await dialog.getByRole('combobox', { name: 'Serial Number' }).fill(unique('NOPE'));
    await dialog.getByRole('button', { name: 'Generate Token' }).click();
    await expect(dialog.getByText(/^Error generating token: /)).toBeVisible();
  });
});
