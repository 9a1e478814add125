import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

test.describe('device activity and customer payment details', () => {
  test("a payment from the gateway shows as the device's payment, token and outgoing message, and in the customer's progress", async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Activity Chebet');
    const serial = unique('ACT');
    const customer = await createCustomer(request, owner, name, '0711222333');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Activity plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);

    // The SMS gateway forwards the M-Pesa confirmation, the account being the device serial.
    const code = mpesaCode();
    const outcome = await postMpesa(request, await receiverKey(request, owner), { code, amount: '1,500.00', account: serial });
    expect(outcome.status).toBe('processed');
    expect(outcome.token).toMatch(/^\d{9,}$/);

    await signIn(page, undefined, `/device-activity/${serial}`);
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info.getByText(serial)).toBeVisible();
    await expect(info.getByText(`Assigned to ${name}`)).toBeVisible();
    await expect(page.getByRole('tab', { name: /Token History/ })).toContainText('1');
    await expect(page.getByRole('tab', { name: /Payment History/ })).toContainText('1');
    await expect(page.getByRole('tab', { name: /Message History/ })).toContainText('1');

    const grouped = outcome.token!.replace(/(\d{3})(?=\d)/g, '$1 ');
    await expect(page.getByRole('table', { name: 'Token History' }).getByText(grouped)).toBeVisible();
    await screenshotBothThemes(page, 'device-activity');

    await page.getByRole('tab', { name: /Payment History/ }).click();
    const payments = page.getByRole('table', { name: 'Payment History' });
    await expect(payments.getByText(code)).toBeVisible();
    await expect(payments.getByText('KES 1,500.00')).toBeVisible();
    await expect(payments.getByText('Completed')).toBeVisible();

    await page.getByRole('tab', { name: /Message History/ }).click();
    const messages = page.getByRole('table', { name: 'Message History' });
    await expect(messages.getByText(new RegExp(`${code} Confirmed`))).toBeVisible();
    await expect(messages.getByText(new RegExp(`received for device ${serial}`))).toBeVisible();

    // The customer's payment details from the device card.
    await info.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/customer-payment-details/${customer.customer_id}$`));
    await expect(page.getByRole('region', { name: 'Customer Information' }).getByText(serial)).toBeVisible();
    await expect(page.getByRole('group', { name: 'Total Paid' })).toContainText('KES 1,500.00');
    await expect(page.getByRole('group', { name: 'Free Code Price' })).toContainText('KES 12,000.00');
    await expect(page.getByRole('group', { name: 'Remaining Balance' })).toContainText('KES 10,500.00');
    await expect(page.getByRole('group', { name: 'Progress' })).toContainText('12.5%');
    await expect(page.getByRole('region', { name: 'Payment Template' }).getByText(template.template_name)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Payment History' }).getByText(code)).toBeVisible();
    await screenshotBothThemes(page, 'customer-payment-details');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(new RegExp(`/device-activity/${serial}$`));
  });

  test('a payment sent to the wrong device is reversed there, held, and matched to the right one', async ({ page, request }) => {
    const owner = await apiToken(request);
    const template = await createTemplate(request, owner, unique('Reversal plan'));
    const [wrongSerial, rightSerial] = [unique('WRONG'), unique('RIGHT')];
    for (const [serial, name, phone] of [
      [wrongSerial, unique('Wrong Holder'), '0711000111'],
      [rightSerial, unique('Right Payer'), '0711000222'],
    ] as const) {
      const customer = await createCustomer(request, owner, name, phone);
      await createItem(request, owner, serial);
      await onboard(request, owner, customer.customer_id, serial, template.template_id);
    }
    // The right customer types the other device's serial number.
    const code = mpesaCode();
    const outcome = await postMpesa(request, await receiverKey(request, owner), { code, amount: '1,500.00', account: wrongSerial });
    expect(outcome).toMatchObject({ status: 'processed', serial_number: wrongSerial });

    await signIn(page, undefined, `/device-activity/${wrongSerial}`);
    await page.getByRole('tab', { name: /Payment History/ }).click();
    await page.getByRole('button', { name: `Reverse payment #${outcome.payment_id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reverse Payment' });
    await expect(dialog.getByText(code)).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Customer typed the wrong account number');
    await screenshotBothThemes(page, 'reverse-payment');
    await dialog.getByRole('button', { name: 'Reverse Payment' }).click();
    await expect(page.getByText(new RegExp(`Payment #${outcome.payment_id} reversed from ${wrongSerial}, \\d+ days taken back`))).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('tab', { name: /Payment History/ })).toContainText('0');

    // Held for matching, with why; matched to the right device.
    await page.goto('/messages');
    const held = page.getByRole('table', { name: 'Held Payments' }).getByRole('row', { name: new RegExp(code) });
    await expect(held).toContainText(`Reversed from ${wrongSerial} by`);
    await held.getByRole('button', { name: 'Match' }).click();
    const match = page.getByRole('dialog', { name: 'Match Payment to a Device' });
    await match.getByRole('textbox', { name: 'Find the device' }).fill(rightSerial);
    await match.getByRole('radio', { name: rightSerial }).click();
    await match.getByRole('button', { name: 'Match Payment' }).click();
    await expect(page.getByText(new RegExp(`Payment matched to ${rightSerial}\\. Token \\d+`))).toBeVisible();
    await page.goto(`/device-activity/${rightSerial}`);
    await expect(page.getByRole('tab', { name: /Payment History/ })).toContainText('1');
  });

  test('a device whose customer stopped paying is repossessed: locked, taken back, the rest written off', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Defaulting Otieno');
    const serial = unique('REPO');
    const customer = await createCustomer(request, owner, name, '0711000333');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Repossession plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    expect((await postMpesa(request, await receiverKey(request, owner), { code: mpesaCode(), amount: '1,500.00', account: serial })).status).toBe('processed');

    await signIn(page, undefined, `/device-activity/${serial}`);
    await page.getByRole('button', { name: 'Repossess' }).click();
    const dialog = page.getByRole('dialog', { name: 'Repossess Device' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('No payment for 120 days');
    await screenshotBothThemes(page, 'repossess-device');
    await dialog.getByRole('button', { name: 'Repossess' }).click();
    const done = page.getByRole('dialog', { name: 'Device Repossessed' });
    await expect(done.getByText('Enter this code on the device to lock it')).toBeVisible();
    await expect(done.getByText('KES 10,500.00')).toBeVisible();
    await screenshotBothThemes(page, 'device-repossessed');
    await done.getByRole('button', { name: 'Done' }).click();
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info.getByText('Unassigned')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Repossess' })).toHaveCount(0);

    // The write-off is in the Repossession report.
    await page.goto('/reports');
    await page.getByRole('button', { name: 'Generate Repossession Report' }).click();
    const report = page.getByRole('table', { name: 'repossessions report' });
    const row = report.getByRole('row', { name: new RegExp(serial) });
    await expect(row).toContainText('No payment for 120 days');
    await expect(row).toContainText('10,500.00');
    await expect(row).toContainText('Yes');
    await screenshotBothThemes(page, 'repossession-report');
  });

  test('a device that was not recovered is written off and retired, at no stock location', async ({ page, request }) => {
    const owner = await apiToken(request);
    const serial = unique('LOST');
    const customer = await createCustomer(request, owner, unique('Vanished Kiprop'), '0711000334');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Lost plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);

    await signIn(page, undefined, `/device-activity/${serial}`);
    await page.getByRole('button', { name: 'Repossess' }).click();
    const dialog = page.getByRole('dialog', { name: 'Repossess Device' });
    await dialog.getByText('Not recovered').click();
    await expect(dialog).toContainText('Lost, stolen or gone with the customer');
    await expect(dialog.getByRole('combobox', { name: 'Stock location' })).toHaveCount(0);
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Stolen from the house, reported to the police');
    await dialog.getByRole('checkbox', { name: /Lock the device/ }).uncheck();
    await screenshotBothThemes(page, 'repossess-not-recovered');
    await dialog.getByRole('button', { name: 'Repossess' }).click();
    const done = page.getByRole('dialog', { name: 'Device Repossessed' });
    await expect(done).toContainText('it was not recovered: written off and retired.');
    await done.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('region', { name: 'Device Information' })).toContainText(/retired/i);

    await page.goto('/reports');
    await page.getByRole('button', { name: 'Generate Repossession Report' }).click();
    const row = page.getByRole('table', { name: 'repossessions report' }).getByRole('row', { name: new RegExp(serial) });
    await expect(row).toContainText('Stolen from the house');
    await expect(row.getByRole('cell', { name: 'No', exact: true })).toBeVisible();
  });

  test('an unknown device or customer replaces the screen with the error', async ({ page }) => {
    await signIn(page, undefined, '/device-activity/NO-SUCH-DEVICE');
    await expect(page.getByRole('alert')).toContainText('not found');
    await expect(page.getByRole('tab')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to Products' })).toBeVisible();
    await page.goto('/customer-payment-details/999999');
    await expect(page.getByRole('alert')).toContainText('not found');
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
  });
});
