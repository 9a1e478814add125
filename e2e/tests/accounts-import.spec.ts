import { readFileSync } from 'node:fs';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createTemplate, unique } from './ops/api.js';

test.describe('bringing accounts over from another system', () => {
  test('an owner checks the file, imports the accounts, and the device page says what was paid before', async ({ page, request }) => {
    const owner = await apiToken(request);
    const tag = unique('MIG');
    // What the other system's export gives: customers and devices first (a device that took 30 codes there).
    const people = [
      { customer_name: `Wairimu ${tag}`, id_number: `${tag}-A`, phone_contact: '0712000101' },
      { customer_name: `Odhiambo ${tag}`, id_number: `${tag}-B`, phone_contact: '0712000102' },
    ];
    for (const p of people) await apiCall(request, owner, 'POST', '/register-customer', p);
    for (const n of [1, 2]) {
      await apiCall(request, owner, 'POST', '/items/add', { serial_number: `${tag}-${n}`, product_name: 'Solar Home 50W', price: 12000, token_count: 30 });
    }
    const plan = await createTemplate(request, owner, unique('Migrated plan'));
    const csv = [
      'serial_number,id_number,template,start_date,paid,credit_until',
      `${tag}-1,${tag}-A,${plan.template_name},01/06/2026,4500,2099-12-31`,
      `${tag}-2,${tag}-B,${plan.template_name},2026-02-01,12000,`,
      `${tag}-9,${tag}-B,,2026-02-01,100,`,
    ].join('\n');

    await signIn(page, undefined, '/products');
    await page.getByRole('button', { name: 'Accounts' }).click();
    await page.getByRole('menuitem', { name: 'Import Accounts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Accounts' });
    await expect(dialog.getByRole('table', { name: 'Columns' })).toContainText('start_date');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'accounts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(dialog.getByRole('button', { name: 'Import Accounts' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Check File' }).click();
    const check = dialog.getByLabel('Check report');
    await expect(check).toContainText('2 accounts can be imported (1 paid off, 1 in credit)');
    await expect(check).toContainText('1 row has problems');
    await expect(check.getByRole('table', { name: 'Import errors' })).toContainText(`no device ${tag}-9 (import the devices first)`);
    await screenshotBothThemes(page, 'products-import-accounts-check', { fullPage: false });
    // The check kept nothing.
    const before = await apiCall<{ data: { device_info: { is_assigned: boolean } } }>(request, owner, 'GET', `/devices/${tag}-1/activity`);
    expect(before.data.device_info.is_assigned).toBe(false);

    await dialog.getByRole('button', { name: 'Import 2 Accounts' }).click();
    await expect(dialog.getByLabel('Import report')).toContainText('Imported 2 accounts');
    await screenshotBothThemes(page, 'products-import-accounts-done', { fullPage: false });
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.goto(`/device-activity/${tag}-1`);
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info).toContainText('Brought over from another system');
    await expect(info).toContainText('KES 4,500.00 paid before');
    await expect(info).toContainText(people[0]!.customer_name);
    // 12,000 − 4,500 left to pay.
    await expect(info).toContainText('KES 7,500.00');
    await screenshotBothThemes(page, 'device-brought-over');
    const paidOff = await apiCall<{ data: { device_info: { remaining: string | null } } }>(request, owner, 'GET', `/devices/${tag}-2/activity`);
    expect(paidOff.data.device_info.remaining).toBe('0.00');

    // The book goes out in the same columns: both accounts, as they are now.
    await page.goto('/products');
    await page.getByRole('button', { name: 'Accounts' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export Accounts' }).click()]);
    expect(download.suggestedFilename()).toBe('accounts.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text).toContain(`${tag}-1,${tag}-A,${plan.template_name},2026-06-01,4500.00,2100-01-01 00:00:00`);
    expect(text).toContain(`${tag}-2,${tag}-B,${plan.template_name},2026-02-01,12000.00,,`);
  });
});
