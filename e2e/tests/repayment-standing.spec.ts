import { readFileSync } from 'node:fs';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

test.describe('repayment standing', () => {
  test("the customer's page says how they repay against what the plan expects by today, and so does each device", async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Standing Wairimu');
    const serial = unique('STAND');
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await createCustomer(request, owner, name, phone);
    await createItem(request, owner, serial);
    // 500 upfront (the activation price), 50 a day after 2 grace days: on the first day the plan expects 500.
    const template = await createTemplate(request, owner, unique('Standing Plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    await postMpesa(request, await receiverKey(request, owner), { code: mpesaCode(), amount: '450.00', account: serial, payer: `${name.toUpperCase()} 254${phone.slice(1)}` });

    await signIn(page, undefined, `/customer-payment-details/${customer.customer_id}`);
    const standing = page.getByRole('group', { name: 'Repayment standing' });
    await expect(standing.getByText('On track')).toBeVisible();
    await expect(standing).toContainText('Paid KES 450.00 of the KES 500.00 the plan expects by today: 90%.');
    const row = page.getByRole('region', { name: 'Devices' }).getByRole('row').filter({ hasText: serial });
    await expect(row.getByText('On track')).toBeVisible();
    await expect(row).toContainText('90%');
    await standing.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'repayment-standing-customer');

    // The device's own page says the same of the device.
    await row.getByRole('link', { name: serial }).click();
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info.getByText('On track')).toBeVisible();
    await expect(info).toContainText('Paid KES 450.00 of the KES 500.00 the plan expects by today: 90%.');
    await screenshotBothThemes(page, 'repayment-standing-device', { fullPage: false });

    // The customer report of the demo's customers, whose devices were given two months ago: each with its standing.
    await page.goto('/reports?report=customers');
    const report = page.getByRole('region', { name: 'Customer Report' });
    const table = report.getByRole('table', { name: 'customers report' });
    await expect(table.getByRole('columnheader', { name: 'Standing' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Expected by Today' })).toBeVisible();
    // The first page is the demo's customers (the other browser tests add theirs after them).
    await expect(table.getByText(/^(Behind|Far behind)$/).first()).toBeVisible();
    // The table scrolls sideways on a laptop's screen: show its last columns, the standing among them.
    await table.evaluate((el) => {
      for (let box = el.parentElement; box; box = box.parentElement) {
        if (box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== 'visible') {
          box.scrollLeft = box.scrollWidth;
          return;
        }
      }
    });
    await screenshotBothThemes(page, 'repayment-standing-report');

    // The customers to offer a second product to: Paid off and On track only, the totals theirs.
    await report.getByRole('combobox', { name: 'Standing' }).click();
    await page.getByRole('option', { name: 'Paid off' }).click();
    await page.getByRole('option', { name: 'On track' }).click();
    await page.keyboard.press('Escape');
    await expect(table.getByText(/^(Behind|Far behind)$/)).toHaveCount(0);
    await expect(table.getByText(/^(On track|Paid off)$/).first()).toBeVisible();
    const [csv] = await Promise.all([page.waitForEvent('download'), report.getByRole('button', { name: 'Download CSV' }).click()]);
    const lines = readFileSync((await csv.path())!, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toContain('Standing');
    expect(lines.slice(1, -1).every((line) => /,(On track|Paid off),/.test(line))).toBe(true);
    // The whole report: this customer too, wherever the other browser tests' customers put them in the pages.
    expect(lines.find((line) => line.includes(name))).toMatch(/,On track,/);
    await screenshotBothThemes(page, 'repayment-standing-eligible');
  });
});
