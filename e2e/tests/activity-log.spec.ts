import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, unique } from './ops/api.js';

test.describe('activity log', () => {
  test("an owner sees who did what, and filters it by kind and by user", async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Logged Achieng');
    await createCustomer(request, owner, name, '0722333444');

    await signIn(page, undefined, '/dashboard');
    await page.getByRole('link', { name: 'Activity Log' }).click();
    await expect(page).toHaveURL(/\/activity-log$/);
    const table = page.getByRole('table', { name: 'Activity Log' });
    const created = table.getByRole('row', { name: new RegExp(name) });
    await expect(created).toBeVisible();
    await expect(created.getByText('Customers')).toBeVisible();
    await expect(table.getByRole('row', { name: /signed in/ }).first()).toBeVisible();
    await screenshotBothThemes(page, 'activity-log');

    // Only customers' entries; then only another user's, which is none of these.
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Customers' }).click();
    await expect(created).toBeVisible();
    await expect(table.getByRole('row', { name: /signed in/ })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'User' }).fill('nobody-at-all');
    await expect(page.getByText('Nothing matches these filters')).toBeVisible();
  });
});
