import { readFileSync } from 'node:fs';
import { openSignedIn, seedCustomer, unique, uniquePhone } from '../support/api.js';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';

test.describe('customers', () => {
  test('add a customer with the full form, then edit and save it', async ({ page }) => {
    await openSignedIn(page, '/customers');
    await expect(page.getByRole('table', { name: 'Customers' })).toBeVisible();
    await screenshotBothThemes(page, 'customers');

    const name = `Amina ${unique('E2E')}`;
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const add = page.getByRole('dialog', { name: 'Add Customer' });
    await add.getByRole('textbox', { name: 'Customer Name', exact: true }).fill(name);
    await add.getByRole('textbox', { name: 'ID Number', exact: true }).fill(unique('ID'));
    await add.getByRole('textbox', { name: 'Phone Contact', exact: true }).fill(uniquePhone());
    await add.getByRole('textbox', { name: 'Email', exact: true }).fill('amina@example.com');
    await add.getByRole('textbox', { name: 'County', exact: true }).fill('Nakuru');
    await add.getByRole('textbox', { name: 'Occupation', exact: true }).fill('Farmer');
    // Agent ID offers the demo's agents in use, so one agent is not written two ways.
    const agent = add.getByRole('combobox', { name: 'Agent ID' });
    await agent.fill('agt');
    await page.getByRole('option', { name: 'AGT-002' }).click();
    await expect(agent).toHaveValue('AGT-002');
    await screenshotBothThemes(page, 'customers-add');
    await add.getByRole('button', { name: 'Add Customer' }).click();
    await expect(page.getByText(`Customer ${name} added successfully`)).toBeVisible();
    await expect(add).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Nakuru' })).toBeVisible();

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await expect(edit.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue('amina@example.com');
    await edit.getByRole('textbox', { name: 'County', exact: true }).fill('Kisumu');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Customer updated successfully')).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Kisumu' })).toBeVisible();

    await page.getByRole('button', { name: `View details of ${name}` }).click();
    const details = page.getByRole('dialog', { name: 'Customer Details' });
    await expect(details.getByText('No items assigned.')).toBeVisible();
    await expect(details.getByText('No payments found.')).toBeVisible();
    await expect(details.getByText('Remaining Balance')).toBeVisible();
    await screenshotBothThemes(page, 'customer-details');
    await details.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: `View payment details of ${name}` }).click();
    await expect(page).toHaveURL(/\/customer-payment-details\/\d+$/);
  });

  test('search by a chosen field finds the customer; a miss says so', async ({ page }) => {
    await openSignedIn(page, '/customers');
    const name = `Baraka ${unique('S')}`;
    const id = unique('ID');
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const add = page.getByRole('dialog', { name: 'Add Customer' });
    await add.getByRole('textbox', { name: 'Customer Name', exact: true }).fill(name);
    await add.getByRole('textbox', { name: 'ID Number', exact: true }).fill(id);
    await add.getByRole('textbox', { name: 'Phone Contact', exact: true }).fill(uniquePhone());
    await add.getByRole('button', { name: 'Add Customer' }).click();
    await expect(add).toBeHidden();

    await page.getByRole('combobox', { name: 'Search field' }).click();
    await page.getByRole('option', { name: 'ID Number' }).click();
    await page.getByRole('textbox', { name: 'Search customers' }).fill(id.toLowerCase());
    // no Enter: the search runs 500 ms after typing stops
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row')).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Search customers' }).fill('no-such-id-anywhere');
    await page.getByRole('textbox', { name: 'Search customers' }).press('Enter');
    await expect(page.getByText('No customers found matching your search')).toBeVisible();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Search customers' })).toHaveValue('');
  });

  test('delete a customer registered by mistake, after confirming', async ({ page }) => {
    await openSignedIn(page, '/customers');
    const customer = await seedCustomer(page, `Duplicate ${unique('D')}`);
    await page.getByRole('textbox', { name: 'Search customers' }).fill(customer.customer_name);
    await page.getByRole('button', { name: `Delete ${customer.customer_name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Customer' });
    await expect(dialog).toContainText(`Are you sure you want to delete customer ${customer.customer_name}`);
    await screenshotBothThemes(page, 'delete-customer');
    await dialog.getByRole('button', { name: 'Delete Customer' }).click();
    await expect(page.getByText(`Customer ${customer.customer_name} deleted successfully`)).toBeVisible();
    await expect(page.getByText('No customers found matching your search')).toBeVisible();
  });

  test('import a CSV with a progress bar and a report of what was imported', async ({ page }) => {
    await openSignedIn(page, '/customers');
    const tag = unique('CSV');
    const csv = [
      'customer_name,id_number,phone_contact,county',
      `Chebet ${tag},${tag}-1,0711000001,Kericho`,
      `"Otieno, David ${tag}",${tag}-2,0711000002,Kisumu`,
      `No Phone ${tag},${tag}-3,,Nairobi`,
    ].join('\n');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Customers from CSV' });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const report = dialog.getByLabel('Import report');
    await expect(report).toBeVisible();
    await expect(report.getByText('2 imported, 1 skipped', { exact: false })).toBeVisible();
    const errors = report.getByRole('table', { name: 'Import errors' });
    // The third data row is line 4 of the file, as a spreadsheet numbers it.
    await expect(errors.getByRole('row', { name: /^4 phone_contact/ }).first()).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: '2 customers imported, 1 skipped' })).toContainText('Imported with rows skipped');
    await screenshotBothThemes(page, 'customers-import');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('textbox', { name: 'Search customers' }).fill(tag);
    await page.getByRole('textbox', { name: 'Search customers' }).press('Enter');
    await expect(page.getByRole('row', { name: new RegExp(`Otieno, David ${tag}`) })).toBeVisible();
  });

  test('export downloads customers.csv with the customer columns', async ({ page }) => {
    await openSignedIn(page, '/customers');
    await expect(page.getByRole('table', { name: 'Customers' })).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('customers.csv');
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const header = text.split(/\r?\n/)[0]!.split(',');
    expect(header).toEqual(expect.arrayContaining(['customer_name', 'id_number', 'phone_contact', 'county', 'status']));
  });

  test('a 401 ends the session: garbage tokens send the user to /login and clear authToken', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.evaluate(() => {
      localStorage.setItem('authToken', 'garbage');
      localStorage.setItem('refreshToken', 'garbage');
    });
    await page.goto('/customers');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  });
});
