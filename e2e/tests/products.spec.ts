import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, unique } from './ops/api.js';

test.describe('product management', () => {
  test('add a product, assign it, fix its token count, edit it, see its activity; an assigned device cannot be deleted', async ({ page, request }) => {
    const owner = await apiToken(request);
    const customerName = unique('Product Otieno');
    await createCustomer(request, owner, customerName);
    const serial = unique('PRD');

    await signIn(page, undefined, '/products');
    await expect(page.getByRole('heading', { name: 'Product Management' })).toBeVisible();
    for (const card of ['Total Products', 'Assigned', 'Unassigned', 'Assignment Rate']) {
      await expect(page.getByRole('group', { name: card, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('group', { name: 'Assignment Rate' })).toContainText(/\d+\.\d%/);

    // Add New Product: the required fields are checked before anything is sent.
    await page.getByRole('button', { name: 'Add Product' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Product' });
    await add.getByRole('button', { name: 'Add Product' }).click();
    await expect(add.getByText('Serial number is required')).toBeVisible();
    await expect(add.getByText('Product name is required')).toBeVisible();
    await add.getByRole('textbox', { name: 'Serial Number' }).fill(serial);
    await add.getByRole('textbox', { name: 'Product Name' }).fill('Lantern Pro');
    await add.getByRole('textbox', { name: 'Product OEM' }).fill('d.light');
    await add.getByRole('textbox', { name: 'Price' }).fill('3500.50');
    await add.getByRole('button', { name: 'Add Product' }).click();
    await expect(page.getByText(`Product ${serial} added successfully`)).toBeVisible();
    await expect(add).toBeHidden();

    await page.getByRole('textbox', { name: 'Search products' }).fill(serial);
    const row = page.getByRole('row', { name: new RegExp(serial) });
    await expect(row).toBeVisible();
    await expect(row.getByText('Available')).toBeVisible();

    // Assign Product: a search term is needed, then a customer.
    await row.getByRole('button', { name: `More actions for ${serial}` }).click();
    await page.getByRole('menuitem', { name: 'Assign Product' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Product' });
    await assign.getByRole('button', { name: 'Search' }).click();
    await expect(assign.getByText('Please enter a search term to find customers.')).toBeVisible();
    await assign.getByRole('textbox', { name: 'Search customers' }).fill(`${customerName}-nobody`);
    await assign.getByRole('button', { name: 'Search' }).click();
    await expect(assign.getByText('No customers found with that search term.')).toBeVisible();
    await assign.getByRole('textbox', { name: 'Search customers' }).fill(customerName);
    await assign.getByRole('textbox', { name: 'Search customers' }).press('Enter');
    await expect(assign.getByRole('radio', { name: customerName })).toBeVisible();
    await assign.getByRole('button', { name: 'Assign Product' }).click();
    await expect(assign.getByText('Please select a customer to assign the product to.')).toBeVisible();
    await assign.getByRole('radio', { name: customerName }).click();
    await assign.getByRole('button', { name: 'Assign Product' }).click();
    await expect(page.getByText(`Product ${serial} assigned to ${customerName}`)).toBeVisible();
    await expect(row.getByRole('link', { name: customerName })).toBeVisible();
    await expect(row.getByText('Assigned', { exact: true })).toBeVisible();

    // Update Token Count confirms with an alert.
    await row.getByRole('button', { name: `More actions for ${serial}` }).click();
    await page.getByRole('menuitem', { name: 'Update Token Count' }).click();
    const count = page.getByRole('dialog', { name: 'Update Token Count' });
    await count.getByRole('button', { name: 'Update Token Count' }).click();
    await expect(count.getByText('Please select a product and enter a new token count.')).toBeVisible();
    await count.getByRole('textbox', { name: 'New Token Count' }).fill('10');
    await count.getByRole('textbox', { name: 'Reason' }).fill('Controller replaced');
    await count.getByRole('button', { name: 'Update Token Count' }).click();
    await expect(count.getByText('Token count updated successfully!')).toBeVisible();
    await count.getByRole('button', { name: 'Close', exact: true }).click();

    // Edit Product saves.
    await row.getByRole('button', { name: `More actions for ${serial}` }).click();
    await page.getByRole('menuitem', { name: 'Edit Product' }).click();
    const edit = page.getByRole('dialog', { name: `Edit Product ${serial}` });
    await edit.getByRole('textbox', { name: 'Product Name' }).fill('Lantern Pro Max');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText(`Product ${serial} updated successfully`)).toBeVisible();
    await expect(row.getByText('Lantern Pro Max')).toBeVisible();
    const item = await apiCall<{ product_name: string; token_count: number; customer_name: string }>(request, owner, 'POST', '/items/fetch', {
      serial_number: serial,
    });
    expect(item).toMatchObject({ product_name: 'Lantern Pro Max', customer_name: customerName });
    expect(item.token_count).toBeGreaterThanOrEqual(10);
    await screenshotBothThemes(page, 'products');

    // Delete Product asks first; the API refuses an assigned device and says why.
    await row.getByRole('button', { name: `More actions for ${serial}` }).click();
    await page.getByRole('menuitem', { name: 'Delete Product' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Product' });
    await expect(del.getByText(/Are you sure you want to delete product/)).toBeVisible();
    await del.getByRole('button', { name: 'Delete Product' }).click();
    await expect(del.getByText('Failed to delete product')).toBeVisible();
    await expect(del.getByRole('alert')).toContainText(/assigned/i);
    await del.getByRole('button', { name: 'Cancel' }).click();

    // View Activity opens the device's history.
    await row.getByRole('link', { name: 'View Activity' }).click();
    await expect(page).toHaveURL(new RegExp(`/device-activity/${serial}$`));
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info.getByText(`Assigned to ${customerName}`)).toBeVisible();
    await expect(info.getByText('Lantern Pro Max')).toBeVisible();
    await page.getByRole('link', { name: 'Back to Products' }).click();
    await expect(page).toHaveURL(/\/products$/);
  });

  test('an unassigned device can be deleted after confirming', async ({ page, request }) => {
    const owner = await apiToken(request);
    const serial = unique('DEL');
    await apiCall(request, owner, 'POST', '/items/add', { serial_number: serial, product_name: 'Spare lamp', price: 0 });
    await signIn(page, undefined, '/products');
    await page.getByRole('textbox', { name: 'Search products' }).fill(serial);
    const row = page.getByRole('row', { name: new RegExp(serial) });
    await row.getByRole('button', { name: `More actions for ${serial}` }).click();
    await page.getByRole('menuitem', { name: 'Delete Product' }).click();
    await page.getByRole('dialog', { name: 'Delete Product' }).getByRole('button', { name: 'Delete Product' }).click();
    await expect(page.getByText(`Product ${serial} deleted successfully`)).toBeVisible();
    await expect(page.getByText('No products match your search')).toBeVisible();
  });

  test("import the device maker's CSV, with a device moved from another system at its token count", async ({ page }) => {
    await signIn(page, undefined, '/products');
    const tag = unique('IMP');
    const csv = [
      'serial_number,product_name,product_oem,token_count',
      `${tag}-1,SunKing Home 60,SunKing,57`,
      `${tag}-2,SunKing Home 60,SunKing,`,
      `${tag}-3,SunKing Home 60,SunKing,-1`,
    ].join('\n');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Devices from CSV' });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'devices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const report = dialog.getByLabel('Import report');
    await expect(report.getByText('2 imported, 1 skipped', { exact: false })).toBeVisible();
    await expect(report.getByRole('table', { name: 'Import errors' }).getByRole('row', { name: /^4 token_count must be at least 0/ })).toBeVisible();
    await screenshotBothThemes(page, 'products-import', { fullPage: false });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('textbox', { name: 'Search products' }).fill(tag);
    await expect(page.getByRole('row', { name: new RegExp(`${tag}-1`) })).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(`${tag}-2`) })).toBeVisible();
    const token = await apiToken(page.request);
    const moved = await apiCall<{ token_count: number }>(page.request, token, 'POST', '/items/fetch', { serial_number: `${tag}-1` });
    expect(moved.token_count).toBe(57);
  });
});
