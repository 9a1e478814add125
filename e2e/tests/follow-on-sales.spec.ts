import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, onboard, unique } from './ops/api.js';

test.describe('follow-on sales rule', () => {
  test('a customer behind on their first device gets a second only from an owner with a reason', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('FollowOn Akinyi');
    const first = unique('FOS1');
    const second = unique('FOS2');
    const customer = await createCustomer(request, owner, name);
    await createItem(request, owner, first);
    await createItem(request, owner, second);
    // The plan asks 500 upfront from the first day; nothing is paid: 0 %, far behind.
    const template = await createTemplate(request, owner, unique('FollowOn Plan'));
    await onboard(request, owner, customer.customer_id, first, template.template_id);

    try {
      // The owner sets the rule in Settings.
      await signIn(page, undefined, '/settings');
      const card = page.getByRole('region', { name: 'Follow-on Sales' });
      await card.getByRole('radio', { name: 'Only to customers On track or Paid off' }).check();
      await card.getByRole('button', { name: 'Save Rule' }).click();
      await expect(page.getByText('Follow-on sales rule saved')).toBeVisible();
      await screenshotBothThemes(page, 'follow-on-sales-settings');
      // The card alone, readable: the settings page is long.
      await card.screenshot({ path: resolve(SCREENSHOTS, 'follow-on-sales-card.png') });

      // Onboarding says why the customer is refused, and waits for the owner's reason.
      await page.goto('/onboarding');
      await page.getByRole('textbox', { name: 'Search customers by name' }).fill(name);
      await page.getByRole('radio', { name }).click();
      await page.getByRole('textbox', { name: 'Search items' }).fill(second);
      await page.getByRole('radio', { name: second }).click();
      const refused = page.getByRole('alert', { name: 'The follow-on sales rule refuses this customer' });
      await expect(refused).toContainText(`${name} is Far behind: paid 0.00 of the 500.00 their plans expect by today (0%).`);
      await expect(refused).toContainText('This organization gives another device only to customers Paid off or On track.');
      const complete = page.getByRole('button', { name: 'Complete Onboarding' });
      await expect(complete).toBeDisabled();
      await refused.getByRole('textbox', { name: /Reason to give it anyway/ }).fill('Paid the deposit of both in cash at the shop');
      await expect(complete).toBeEnabled();
      await screenshotBothThemes(page, 'follow-on-sales-onboarding');
      await refused.screenshot({ path: resolve(SCREENSHOTS, 'follow-on-sales-refused.png') });
      await complete.click();
      await expect(page.getByText('Customer onboarding completed successfully!')).toBeVisible();

      // The customer holds both; the activity log keeps who gave the second against the rule, and why.
      const status = await apiCall<{ devices: { serial_number: string }[] }>(request, owner, 'GET', `/customers/${customer.customer_id}/status`);
      expect(status.devices.map((d) => d.serial_number).sort()).toEqual([first, second].sort());
      const log = await apiCall<{ data: { action: string; description: string }[] }>(request, owner, 'GET', '/audit-log?category=devices&limit=20');
      expect(log.data.find((e) => e.action === 'item.assigned_against_rule')?.description).toBe(
        `Gave device ${second} to ${name} against the follow-on sales rule: Paid the deposit of both in cash at the shop`,
      );

      // The customer's page says it too, under their repayment standing.
      await page.goto(`/customer-payment-details/${customer.customer_id}`);
      const line = page.getByRole('group', { name: 'Another device on credit' });
      await expect(line).toContainText('The follow-on sales rule refuses another device');
      await expect(line).toContainText(`${name} is Far behind: paid 0.00 of the 1,000.00 their plans expect by today (0%).`);
      await line.screenshot({ path: resolve(SCREENSHOTS, 'follow-on-sales-customer.png') });
    } finally {
      // The other browser tests give devices to customers of every standing.
      await apiCall(request, owner, 'PUT', '/settings/follow-on-sales', { rule: 'any', refuse_repossessed: false });
    }
  });
});
