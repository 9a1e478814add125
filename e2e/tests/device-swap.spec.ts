import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

test.describe('device swaps', () => {
  test("a customer's faulty device is swapped for one from stock: the account and the days left move to it", async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Swap Wambui');
    const faulty = unique('SWAPOLD');
    const spare = unique('SWAPNEW');
    const customer = await createCustomer(request, owner, name, '0711000444');
    await createItem(request, owner, faulty);
    await createItem(request, owner, spare, 'Solar Home 80W');
    const template = await createTemplate(request, owner, unique('Swap plan'));
    await onboard(request, owner, customer.customer_id, faulty, template.template_id);
    // 500 activates the device; 500 more buys 10 days.
    const key = await receiverKey(request, owner);
    expect((await postMpesa(request, key, { code: mpesaCode(), amount: '1,000.00', account: faulty })).status).toBe('processed');

    // The customer reported the fault.
    const ticket = await apiCall<{ data: { ticket_id: number } }>(request, owner, 'POST', '/tickets', {
      serial_number: faulty,
      category: 'device_fault',
      description: 'Battery empty by evening',
    });

    await signIn(page, undefined, `/device-activity/${faulty}`);
    await page.getByRole('button', { name: 'Swap Device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Swap Device' });
    await dialog.getByRole('combobox', { name: 'Replacement device' }).fill(spare);
    await page.getByRole('option', { name: new RegExp(spare) }).click();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Battery does not hold a charge');
    // The device's one open fault ticket is the one the swap answers.
    await expect(dialog.getByRole('combobox', { name: 'Service ticket' })).toHaveValue(`#${ticket.data.ticket_id} · Device fault: Battery empty by evening`);
    await screenshotBothThemes(page, 'device-swap');
    await dialog.getByRole('button', { name: 'Swap Device' }).click();

    const done = page.getByRole('dialog', { name: 'Device Swapped' });
    await expect(done.getByText(`Enter this code on ${spare}`)).toBeVisible();
    await expect(done.getByText(`Enter this code on ${faulty} to lock it`)).toBeVisible();
    await expect(done).toContainText('KES 1,000.00');
    await screenshotBothThemes(page, 'device-swapped');
    await done.getByRole('link', { name: `Open ${spare}` }).click();

    // The replacement carries the account: assigned to the customer, with what they paid and the days left.
    await expect(page).toHaveURL(new RegExp(`/device-activity/${spare}$`));
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info).toContainText(name);
    const swaps = page.getByRole('region', { name: 'Device Swaps' });
    await expect(swaps).toContainText(faulty);
    await expect(swaps).toContainText('Battery does not hold a charge');
    await screenshotBothThemes(page, 'device-swap-history');
    await swaps.screenshot({ path: resolve(SCREENSHOTS, 'device-swaps-card.png') });
    const status = await apiCall<{ devices: { serial_number: string }[] }>(request, owner, 'GET', `/customers/${customer.customer_id}/status`);
    expect(status.devices.map((d) => d.serial_number)).toEqual([spare]);

    // The ticket's history says what was done about the fault.
    const history = await apiCall<{ data: { action: string }[] }>(request, owner, 'GET', `/tickets/${ticket.data.ticket_id}/history`);
    expect(history.data.map((e) => e.action)).toContain('ticket.device_swapped');

    // Paid to the old serial out of habit: it reaches the replacement.
    const paid = await postMpesa(request, key, { code: mpesaCode(), amount: '100.00', account: faulty });
    expect(paid.status).toBe('processed');
    expect(paid.reply_message ?? '').toContain(spare);

    // The customer's page lists the swap too.
    await page.goto(`/customer-payment-details/${customer.customer_id}`);
    await expect(page.getByRole('region', { name: 'Device Swaps' })).toContainText(spare);

    // The Device Swap report: the faulty devices with their maker, for a warranty claim.
    await page.goto('/reports');
    await page.getByRole('button', { name: 'Generate Device Swap Report' }).click();
    const report = page.getByRole('table', { name: 'swaps report' });
    const row = report.getByRole('row', { name: new RegExp(faulty) });
    await expect(row).toContainText('Battery does not hold a charge');
    await expect(row.getByRole('link', { name: spare })).toBeVisible();
    await screenshotBothThemes(page, 'device-swap-report');
  });
});
