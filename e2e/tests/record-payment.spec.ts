import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { mpesaCode, unique } from './ops/api.js';

/** A token as the screens show it: digits in groups of three. */
const GROUPED_TOKEN = /^\d{3}( \d{1,3})+$/;

/** A full-page capture shows a modal only as far as the window reaches: this one shows the end of its content. */
async function screenshotModalEnd(page: Page, name: string, last: ReturnType<Page['getByRole']>) {
  await last.scrollIntoViewIfNeeded();
  await page.screenshot({ path: resolve(SCREENSHOTS, `${name}-light.png`) });
}

test.describe('recording payments', () => {
  test('staff record payments for a demo device and get its token; an owner reconciles an M-Pesa statement', async ({ page }) => {
    // LMP-2003 is a demo lamp on the Lamp Lite plan (15 a day, activated by its 300 deposit).
    await signIn(page, undefined, '/device-activity/LMP-2003');
    await expect(page.getByRole('region', { name: 'Device Information' }).getByText('LMP-2003')).toBeVisible();
    await expect(page.getByRole('tab', { name: /Payment History/ })).toContainText('1');

    await page.getByRole('button', { name: 'Record Payment' }).click();
    let dialog = page.getByRole('dialog', { name: 'Record Payment' });
    await expect(dialog.getByRole('textbox', { name: 'Device' })).toHaveValue('LMP-2003');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await expect(dialog.getByText('Amount is required')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('150');
    const receipt = unique('CASH');
    await dialog.getByRole('textbox', { name: 'Reference' }).fill(receipt);
    await dialog.getByRole('button', { name: 'Record Payment' }).click();

    let result = page.getByRole('dialog', { name: 'Payment Recorded' });
    await expect(result.getByText(/applied to LMP-2003/)).toBeVisible();
    const token = result.getByTestId('payment-token');
    await expect(token).toHaveText(GROUPED_TOKEN);
    await expect(result.getByText('Add time · 10 days')).toBeVisible();
    await expect(result.getByRole('group', { name: 'Remaining Balance' })).toContainText('3,050.00');
    await expect(result.getByRole('button', { name: 'Copy token' })).toBeVisible();
    const code = (await token.textContent())!;
    await screenshotBothThemes(page, 'record-payment-result');
    await result.getByRole('button', { name: 'Done' }).click();

    // The page read itself again: the payment and its token are in the device's history.
    await expect(page.getByRole('tab', { name: /Payment History/ })).toContainText('2');
    await expect(page.getByRole('table', { name: 'Token History' }).getByText(code)).toBeVisible();

    // On a phone, from the customer's payment details: the device comes chosen among the customer's devices.
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshotBothThemes(page, 'device-activity-phone');
    await page.getByRole('region', { name: 'Device Information' }).getByRole('link').click();
    await expect(page.getByRole('heading', { name: 'Customer Payment Details' })).toBeVisible();
    await screenshotBothThemes(page, 'customer-payment-details-phone');
    const paidBefore = await page.getByRole('group', { name: 'Total Paid' }).textContent();
    await page.getByRole('button', { name: 'Record Payment' }).click();
    dialog = page.getByRole('dialog', { name: 'Record Payment' });
    await expect(dialog.getByRole('combobox', { name: 'Device' })).toHaveValue(/^LMP-2003 · /);
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('30');
    await dialog.getByText('Mobile money', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: 'Mobile money' })).toBeChecked();
    await screenshotBothThemes(page, 'record-payment-form-phone');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    result = page.getByRole('dialog', { name: 'Payment Recorded' });
    await expect(result.getByTestId('payment-token')).toHaveText(GROUPED_TOKEN);
    await expect(result.getByText('Add time · 2 days')).toBeVisible();
    await screenshotBothThemes(page, 'record-payment-result-phone');
    await result.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('group', { name: 'Total Paid' })).not.toHaveText(paidBefore!);

    // Reports: a statement with one payment for the lamp, one for no device, a withdrawal, a repeat and an unreadable row.
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.goto('/reports');
    await page.getByRole('button', { name: 'Upload M-Pesa Statement' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload M-Pesa Statement' });
    const paid = mpesaCode();
    const stray = mpesaCode();
    const row = (receipt: string, paidIn: string, withdrawn: string, account: string) =>
      [receipt, '2024-06-05 10:15:32', 'Pay Bill Online', 'Completed', paidIn, withdrawn, '45300.00', '254712345678 - JOHN KAMAU', account].join(',');
    const csv = [
      'Receipt No.,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Other Party Info,A/C No.',
      row(paid, '45.00', '', 'LMP-2003'),
      row(stray, '250.00', '', unique('TYPO')),
      row(mpesaCode(), '', '-4000.00', ''),
      row(paid, '45.00', '', 'LMP-2003'),
      row('', '80.00', '', 'LMP-2003'),
    ].join('\r\n');
    await upload.locator('input[type="file"]').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(upload.getByRole('button', { name: 'Upload' })).toBeEnabled();
    await screenshotBothThemes(page, 'statement-upload-form');
    await upload.getByRole('button', { name: 'Upload' }).click();

    const summary = upload.getByLabel('Statement summary');
    await expect(summary).toContainText('2 new payments recorded (1 applied, 1 held), 2 skipped, 1 rejected.');
    const flagged = summary.getByRole('table', { name: 'Rows to look at' });
    const held = flagged.getByRole('row', { name: /^3 Held/ });
    await expect(held).toContainText('No single device matches the account reference');
    await expect(held).toContainText(`Receipt ${stray} · KES 250.00`);
    await expect(flagged.getByRole('row', { name: /^6 Rejected/ })).toContainText('No receipt number');
    await screenshotBothThemes(page, 'statement-upload');
    await screenshotModalEnd(page, 'statement-upload-end', upload.getByRole('button', { name: 'Done' }));
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(summary).toBeVisible();
    await screenshotBothThemes(page, 'statement-upload-phone');
    await screenshotModalEnd(page, 'statement-upload-phone-end', upload.getByRole('button', { name: 'Done' }));
    await upload.getByRole('button', { name: 'Done' }).click();
    await expect(upload).toBeHidden();
    await screenshotBothThemes(page, 'reports-phone');
  });
});
