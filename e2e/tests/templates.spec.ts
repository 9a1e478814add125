import { openSignedIn, seedCustomer, unique } from '../support/api.js';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';

test.describe('payment templates', () => {
  test('create a template, assign it to a customer, and see it in Performance and Assignments', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const customer = await seedCustomer(page, `Chebet ${unique('T')}`);
    await page.goto('/payments');
    await expect(page.getByRole('tab', { name: 'Templates' })).toBeVisible();

    const name = `Solar ${unique('TPL')}`;
    await page.getByRole('button', { name: 'Create Template' }).click();
    const create = page.getByRole('dialog', { name: 'Create Template' });
    await create.getByRole('button', { name: 'Create Template' }).click();
    await expect(create.getByText('Template Name is required')).toBeVisible();
    await expect(create.getByText('Daily Price is required')).toBeVisible();
    await create.getByRole('textbox', { name: 'Template Name', exact: true }).fill(name);
    await create.getByRole('textbox', { name: 'Deposit Made', exact: true }).fill('1500');
    await create.getByRole('textbox', { name: 'Daily Price', exact: true }).fill('45.50');
    await create.getByRole('textbox', { name: 'Activation Price', exact: true }).fill('200');
    await create.getByRole('textbox', { name: 'Grace Period (days)', exact: true }).fill('2');
    await create.getByRole('button', { name: 'Create Template' }).click();
    await expect(page.getByText(`Template ${name} created successfully`)).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('KES 45.50');
    await expect(row).toContainText('KES 1,500.00');
    await expect(page.getByText(/^Showing \d+ of \d+ templates$/)).toBeVisible();
    await screenshotBothThemes(page, 'payment-templates');

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await edit.getByRole('textbox', { name: 'Daily Price', exact: true }).fill('50');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Template updated successfully')).toBeVisible();
    await expect(row).toContainText('KES 50.00');

    await page.getByRole('button', { name: `Assign ${name}` }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Template' });
    await assign.getByRole('textbox', { name: 'Customer', exact: true }).fill(customer.customer_name);
    await assign.getByRole('option', { name: new RegExp(customer.customer_name) }).click();
    await assign.getByRole('textbox', { name: 'Notes', exact: true }).fill('Deposit paid in cash');
    await assign.getByRole('button', { name: 'Assign Template' }).click();
    await expect(page.getByText(`Template assigned to ${customer.customer_name}`)).toBeVisible();
    await expect(assign).toBeHidden();

    await page.getByRole('button', { name: `View performance of ${name}` }).click();
    const perf = page.getByRole('dialog', { name: 'Template Performance' });
    await expect(perf.getByText('Customers on template')).toBeVisible();
    await expect(perf.getByText('Failed to load performance data')).toHaveCount(0);
    await perf.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('tab', { name: 'Performance' }).click();
    await expect(page.getByRole('table', { name: 'Template performance' }).getByRole('row', { name: new RegExp(name) })).toBeVisible();
    await screenshotBothThemes(page, 'template-performance');

    await page.getByRole('tab', { name: 'Assignments' }).click();
    const assignment = page.getByRole('table', { name: 'Template assignments' }).getByRole('row', { name: new RegExp(customer.customer_name) });
    await expect(assignment).toContainText(name);
    await expect(assignment).toContainText('Active');
    await expect(assignment).toContainText('Deposit paid in cash');
    await screenshotBothThemes(page, 'template-assignments');
  });

  test('Assign Template does nothing until a customer and a template are chosen', async ({ page }) => {
    await openSignedIn(page, '/payments');
    await page.getByRole('button', { name: 'Assign Template' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Template' });
    let posted = false;
    page.on('request', (r) => {
      if (r.url().includes('/payg/payments/templates/assign')) posted = true;
    });
    await assign.getByRole('button', { name: 'Assign Template' }).click();
    await expect(assign).toBeVisible();
    await expect(assign.getByRole('alert')).toHaveCount(0);
    expect(posted).toBe(false);
  });
});
