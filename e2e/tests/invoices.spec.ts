import { readFileSync } from 'node:fs';
import { DEMO_ADMIN, expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, unique } from './ops/api.js';
import { mailTo } from '../support/mail.js';

test.describe('invoices', () => {
  test('a super admin bills an organization with line items and changes the invoice status', async ({ page }) => {
    const description = unique('Subscription');
    await signIn(page, DEMO_ADMIN, '/invoices');
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Invoice' });
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(dialog.getByText('Organization is required')).toBeVisible();
    await expect(dialog.getByText('Due date is required')).toBeVisible();

    await dialog.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'Demo Solar Ltd (demo)' }).click();
    await dialog.getByRole('textbox', { name: 'Due Date' }).fill('2027-01-31');
    await dialog.getByRole('textbox', { name: 'Due Date' }).press('Enter');
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill(description);
    await dialog.getByRole('textbox', { name: 'Description of line 1' }).fill('Platform subscription');
    await dialog.getByRole('textbox', { name: 'Unit price of line 1' }).fill('49');
    await dialog.getByRole('button', { name: 'Add Line Item' }).click();
    await dialog.getByRole('textbox', { name: 'Description of line 2' }).fill('SMS bundle');
    await dialog.getByRole('textbox', { name: 'Quantity of line 2' }).fill('2');
    await dialog.getByRole('textbox', { name: 'Unit price of line 2' }).fill('12.5');
    await expect(dialog.getByLabel('Total of line 2')).toHaveText('25.00');
    // A row without a description is left off the invoice.
    await dialog.getByRole('button', { name: 'Add Line Item' }).click();
    await dialog.getByRole('textbox', { name: 'Unit price of line 3' }).fill('1000');
    await expect(dialog.getByLabel('Invoice amount')).toHaveText('Amount: 74.00');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(page.getByText('Invoice created successfully')).toBeVisible();

    await page.getByRole('combobox', { name: 'Search by' }).click();
    await page.getByRole('option', { name: 'Description' }).click();
    await page.getByRole('textbox', { name: 'Search invoices' }).fill(description);
    const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row').nth(1);
    await expect(row).toContainText('Demo Solar Ltd (demo)');
    await expect(row).toContainText('Pending');
    await expect(row.getByText(/^[0-9a-f]{8}…$/)).toBeVisible();

    await row.getByRole('button', { name: /More actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Update Status' }).click();
    const status = page.getByRole('dialog', { name: 'Update Invoice Status' });
    await status.getByRole('combobox', { name: 'New status' }).click();
    await page.getByRole('option', { name: 'Sent' }).click();
    await status.getByRole('button', { name: 'Update Status' }).click();
    await expect(page.getByText('Invoice status updated to sent')).toBeVisible();
    await expect(row).toContainText('Sent');

    // Settings really save: the platform's defaults.
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Invoice Settings' });
    await expect(settings.getByRole('textbox', { name: 'Invoice Prefix' })).toHaveValue(/\S/);
    await settings.getByRole('textbox', { name: 'Default Payment Terms (days)' }).fill('30');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Invoice settings updated successfully')).toBeVisible();
  });

  test('the billed owner downloads the PDF, reads the invoice, and deletes it after confirming', async ({ page, request }) => {
    const admin = await apiToken(request, DEMO_ADMIN);
    const description = unique('Setup fee');
    const invoice = await apiCall<{ invoice_id: string; invoice_number: string }>(request, admin, 'POST', '/admin/invoices', {
      organization_id: 'demo',
      due_date: '2027-02-28',
      description,
      line_items: JSON.stringify([{ description: 'Onboarding and training', quantity: 1, unit_price: 150 }]),
    });

    await signIn(page, undefined, '/invoices');
    await page.getByRole('textbox', { name: 'Search invoices' }).fill(invoice.invoice_id.slice(0, 8));
    const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row', { name: new RegExp(invoice.invoice_number) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(`${invoice.invoice_id.slice(0, 8)}…`);
    await expect(row).toContainText('150.00');
    await screenshotBothThemes(page, 'invoices');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download PDF of ${invoice.invoice_number}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`invoice-${invoice.invoice_id}.pdf`);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');

    await row.getByRole('button', { name: `More actions for ${invoice.invoice_number}` }).click();
    await page.getByRole('menuitem', { name: 'View Invoice' }).click();
    const view = page.getByRole('dialog', { name: `Invoice ${invoice.invoice_number}` });
    // The server's HTML, shown in a frame that may run nothing (so the test reads it rather than entering it).
    await expect(view.locator('iframe[title="Invoice preview"]')).toHaveAttribute('srcdoc', /Onboarding and training/);
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: `More actions for ${invoice.invoice_number}` }).click();
    await page.getByRole('menuitem', { name: 'Delete Invoice' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Invoice' });
    await expect(del.getByText('Are you sure you want to delete this invoice? This action cannot be undone.')).toBeVisible();
    await del.getByRole('button', { name: 'Delete Invoice' }).click();
    await expect(page.getByText('Invoice deleted successfully')).toBeVisible();
    await expect(page.getByText('No invoices match your search')).toBeVisible();
  });

  test('the owner emails an invoice with its PDF to the billing address, and it reads as sent', async ({ page, request }) => {
    const admin = await apiToken(request, DEMO_ADMIN);
    const billing = `${unique('billing').toLowerCase()}@demo.kidogo.local`;
    const invoice = await apiCall<{ invoice_id: string; invoice_number: string }>(request, admin, 'POST', '/admin/invoices', {
      organization_id: 'demo',
      customer_name: 'Demo Solar Accounts',
      customer_email: billing,
      amount: 320,
      due_date: '2027-03-31',
      description: unique('Support plan'),
    });

    await signIn(page, undefined, '/invoices');
    await page.getByRole('textbox', { name: 'Search invoices' }).fill(invoice.invoice_id.slice(0, 8));
    const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row', { name: new RegExp(invoice.invoice_number) });
    await expect(row).toContainText('Pending');
    await row.getByRole('button', { name: `More actions for ${invoice.invoice_number}` }).click();
    await page.getByRole('menuitem', { name: 'Email Invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Email Invoice' });
    await expect(dialog.getByRole('textbox', { name: /^Email address/ })).toHaveValue(billing);
    await dialog.getByRole('textbox', { name: /^Message/ }).fill('Thank you for your business.');
    await screenshotBothThemes(page, 'invoice-email', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send Email' }).click();
    await expect(page.getByText(`Invoice ${invoice.invoice_number} emailed to ${billing}`)).toBeVisible();
    await expect(row).toContainText('Sent');

    const mail = await mailTo(billing);
    expect(mail.subject).toMatch(new RegExp(`^Invoice ${invoice.invoice_number} from `));
    expect(mail.text).toContain('Thank you for your business.');
    expect(mail.text).toContain('Please pay USD 320.00 by 2027-03-31.');
    expect(mail.attachments.map((a) => a.filename)).toEqual([`invoice-${invoice.invoice_number}.pdf`]);
    expect(mail.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
