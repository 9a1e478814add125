import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, unique } from './ops/api.js';

test.describe('customer onboarding', () => {
  test('a customer gets a device and a payment template in one step, then the form starts over', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Onboard Wanjiru');
    const serial = unique('ONB');
    const templateName = unique('Daily plan');
    const customer = await createCustomer(request, owner, name);
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, templateName);

    await signIn(page, undefined, '/onboarding');
    await expect(page.getByRole('heading', { name: 'Customer Onboarding' })).toBeVisible();
    const complete = page.getByRole('button', { name: 'Complete Onboarding' });
    await expect(complete).toBeDisabled();
    await expect(page.getByText('Please select a customer first.')).toBeVisible();

    await page.getByRole('textbox', { name: 'Search customers by name' }).fill(name);
    await page.getByRole('radio', { name }).click();
    await expect(page.getByText('Please select an item to assign.')).toBeVisible();
    await expect(complete).toBeDisabled();

    await page.getByRole('textbox', { name: 'Search items' }).fill(serial);
    await page.getByRole('radio', { name: serial }).click();
    await expect(complete).toBeEnabled();

    await page.getByRole('button', { name: 'Load Payment Templates' }).click();
    await page.getByRole('textbox', { name: 'Search payment templates' }).fill(templateName);
    await page.getByRole('radio', { name: templateName }).click();
    await expect(page.getByText(`Template: ${templateName}`)).toBeVisible();
    await screenshotBothThemes(page, 'onboarding');

    await complete.click();
    await expect(page.getByText('Customer onboarding completed successfully!')).toBeVisible();
    await expect(page.getByText(`${serial} is now assigned to ${name} on ${templateName}.`)).toBeVisible();
    // Shown for 3 s, then everything starts over.
    await expect(page.getByText('Customer onboarding completed successfully!')).toBeHidden({ timeout: 6000 });
    await expect(page.getByText('Customer: —')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Search customers by name' })).toHaveValue('');

    const status = await apiCall<{ devices: { serial_number: string }[]; template: { template_id: number } | null }>(
      request,
      owner,
      'GET',
      `/customers/${customer.customer_id}/status`,
    );
    expect(status.devices.map((d) => d.serial_number)).toContain(serial);
    expect(status.template?.template_id).toBe(template.template_id);

    // The device is no longer offered: only available devices are listed.
    await page.getByRole('textbox', { name: 'Search items' }).fill(serial);
    await expect(page.getByText('No available items match your search')).toBeVisible();
  });
});
