import { readFile } from 'node:fs/promises';
import { apiCall, openSignedIn, seedCustomer, seedDevice, unique } from '../support/api.js';
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
    await perf.getByRole('button', { name: 'Close', exact: true }).click();

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

  test("gives one of a customer's devices a plan of its own, shown on the device's page", async ({ page }) => {
    await openSignedIn(page, '/payments');
    const customer = await seedCustomer(page, `Akinyi ${unique('DP')}`);
    const [lamp, phone] = [await seedDevice(page), await seedDevice(page)];
    for (const d of [lamp, phone]) {
      await apiCall(page, 'POST', '/items/assign', { customer_id: customer.customer_id, item_serial_number: d.serial_number, organization_id: '' });
    }
    const plan = (name: string, daily: number) =>
      apiCall<{ template_id: number; template_name: string }>(page, 'POST', '/payments/templates/create', { template_name: name, deposit_made: 500, daily_price: daily, currency: 'KES' });
    const lampPlan = await plan(`Lamp ${unique('P')}`, 50);
    const phonePlan = await plan(`Phone ${unique('P')}`, 40);
    await apiCall(page, 'POST', '/payments/templates/assign', { customer_id: customer.customer_id, template_id: lampPlan.template_id });
    await page.reload();

    await page.getByRole('button', { name: `Assign ${phonePlan.template_name}` }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Template' });
    await assign.getByRole('textbox', { name: 'Customer', exact: true }).fill(customer.customer_name);
    await assign.getByRole('option', { name: new RegExp(customer.customer_name) }).click();
    const devices = assign.getByRole('combobox', { name: 'Devices' });
    await expect(devices).toHaveValue("All of the customer's devices (the customer's plan)");
    await devices.click();
    await page.getByRole('option', { name: new RegExp(phone.serial_number) }).click();
    await screenshotBothThemes(page, 'assign-template-device');
    await assign.getByRole('button', { name: 'Assign Template' }).click();
    await expect(page.getByText(`Template assigned to ${customer.customer_name}'s device ${phone.serial_number}`)).toBeVisible();

    await page.getByRole('tab', { name: 'Assignments' }).click();
    const own = page.getByRole('table', { name: 'Template assignments' }).getByRole('row', { name: new RegExp(phone.serial_number) });
    await expect(own).toContainText(phonePlan.template_name);
    await expect(own).toContainText('Active');

    await page.goto(`/device-activity/${phone.serial_number}`);
    const card = page.getByRole('region', { name: 'Device Information' });
    await expect(card).toContainText(`${phonePlan.template_name} · KES 40.00/day`);
    await expect(card.getByText('This device only')).toBeVisible();
    await screenshotBothThemes(page, 'device-activity-own-plan');
    await page.goto(`/device-activity/${lamp.serial_number}`);
    await expect(card).toContainText(`${lampPlan.template_name} · KES 50.00/day`);
    await expect(card.getByText("Customer's plan")).toBeVisible();

    // The customer's page lists both devices, each with its plan.
    await page.goto(`/customer-payment-details/${customer.customer_id}`);
    const devicesCard = page.getByRole('region', { name: 'Devices' });
    const rowOf = (serial: string) => devicesCard.getByRole('row', { name: new RegExp(serial) });
    await expect(rowOf(phone.serial_number)).toContainText(`${phonePlan.template_name} · KES 40.00/day`);
    await expect(rowOf(phone.serial_number).getByText('This device only')).toBeVisible();
    await expect(rowOf(lamp.serial_number)).toContainText(`${lampPlan.template_name} · KES 50.00/day`);
    await screenshotBothThemes(page, 'customer-payment-details-devices');
    // Their statement of account, as a PDF.
    await page.getByRole('button', { name: 'Statement' }).click();
    const [statement] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'All time' }).click()]);
    expect(statement.suggestedFilename()).toMatch(new RegExp(`^statement-${customer.customer_id}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    const bytes = await readFile((await statement.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // In Kiswahili for a customer who reads it better.
    await page.getByRole('button', { name: 'Statement' }).click();
    await page.getByRole('menu').getByText('Kiswahili', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Kiswahili' })).toBeChecked();
    await screenshotBothThemes(page, 'customer-statement-menu');
    const [kiswahili] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`/payg/customers/${customer.customer_id}/statement?language=sw`)),
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'All time' }).click(),
    ]);
    expect(kiswahili.url()).toContain('language=sw');

    // Ended, the phone is paid on the customer's plan again.
    await page.goto('/payments');
    await page.getByRole('tab', { name: 'Assignments' }).click();
    await page.getByRole('button', { name: `End the plan of ${phone.serial_number}` }).click();
    const confirm = page.getByRole('dialog', { name: 'End Device Plan' });
    await expect(confirm).toContainText(`End ${phonePlan.template_name} for device ${phone.serial_number}?`);
    await confirm.getByRole('button', { name: 'End Plan' }).click();
    await expect(page.getByText(`Device ${phone.serial_number} is back on ${customer.customer_name}'s plan, ${lampPlan.template_name}`)).toBeVisible();
    await expect(page.getByRole('button', { name: `End the plan of ${phone.serial_number}` })).toHaveCount(0);
    await page.goto(`/device-activity/${phone.serial_number}`);
    await expect(card).toContainText(`${lampPlan.template_name} · KES 50.00/day`);
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
