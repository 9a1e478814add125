import { readFile } from 'node:fs/promises';
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

  test('exports what the filters match as a CSV file a spreadsheet opens', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Exported Wanjiku');
    await createCustomer(request, owner, name, '0722333555');

    await signIn(page, undefined, '/activity-log');
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Customers' }).click();
    await expect(page.getByRole('table', { name: 'Activity Log' }).getByRole('row', { name: new RegExp(name) })).toBeVisible();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(file.suggestedFilename()).toMatch(/^activity-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const [header, ...lines] = text.trim().split('\r\n');
    expect(header).toBe('time,kind,action,user,description,entity_type,entity_id,ip,details');
    expect(lines.some((l) => l.includes(name))).toBe(true);
    // Only the kind chosen.
    expect(lines.every((l) => l.split(',')[1] === 'customers')).toBe(true);
    await expect(page.getByText(/^Downloaded activity-log-/)).toBeVisible();
  });
});
