import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, onboard, receiverKey, unique } from './ops/api.js';

test.describe('texting a customer', () => {
  test('staff write an SMS to a customer with the count of messages, and are told when no provider can send it', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Texted Njeri');
    const serial = unique('SMS');
    const customer = await createCustomer(request, owner, name, '0733444555');
    await createItem(request, owner, serial);
    await onboard(request, owner, customer.customer_id, serial);

    await signIn(page, undefined, `/customer-payment-details/${customer.customer_id}`);
    await page.getByRole('button', { name: 'Send SMS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send SMS' });
    await expect(dialog.getByText(`To ${name} · 0733444555 · about ${serial}`)).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Message' }).fill(`Habari ${name}! We called about your device ${serial}. Please pay KES 150 to paybill 123456 by Friday.`);
    await expect(dialog.getByText(/characters · 1 SMS/)).toBeVisible();
    await screenshotBothThemes(page, 'send-sms');
    // The demo organization has no SMS provider: the text is refused, not left queued for ever.
    await dialog.getByRole('button', { name: 'Send SMS' }).click();
    await expect(dialog.getByText(/No SMS provider is set up to send it/)).toBeVisible();
  });
});

test.describe('texts a customer can stop', () => {
  test('a customer who texts STOP is shown as such, cannot be texted, and an owner lets texts through again when asked', async ({ page, request }) => {
    const owner = await apiToken(request);
    const name = unique('Stopped Achieng');
    const serial = unique('STOP');
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await createCustomer(request, owner, name, phone);
    await createItem(request, owner, serial);
    await onboard(request, owner, customer.customer_id, serial);
    // The customer texts STOP to the business line; the forwarder posts it.
    const key = await receiverKey(request, owner);
    const res = await request.post('/payg/external/receive-phoneteletalk', { headers: { 'X-API-Key': key }, data: { from: phone, message: 'STOP' } });
    expect(await res.json()).toMatchObject({ status: 'processed', request: 'sms_opt_out', customers: 1 });

    await signIn(page, undefined, `/customer-payment-details/${customer.customer_id}`);
    const info = page.getByRole('region', { name: 'Customer Information' });
    await expect(info.getByText(/^No texts · Texted STOP on /)).toBeVisible();
    await page.getByRole('button', { name: 'Send SMS' }).hover();
    await expect(page.getByText('Asked for no texts (STOP): call instead')).toBeVisible();
    await screenshotBothThemes(page, 'customer-texts-stopped');

    await info.getByRole('button', { name: 'Allow Texts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Allow texts again' });
    await expect(dialog.getByText(new RegExp(`Only when ${name} asks for texts again`))).toBeVisible();
    await dialog.getByRole('button', { name: 'Allow Texts' }).click();
    await expect(page.getByText(`${name} takes reminders and texts again`)).toBeVisible();
    await expect(info.getByText('Takes texts')).toBeVisible();

    // And staff record it when a customer asks on the phone.
    await info.getByRole('button', { name: 'Stop Texts' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop texts' });
    await expect(stop.getByText('no payment reminders,')).toBeVisible();
    await screenshotBothThemes(page, 'customer-texts-stop-dialog');
    await stop.getByRole('button', { name: 'Stop Texts' }).click();
    await expect(info.getByText(/^No texts · Asked staff on /)).toBeVisible();
  });
});
