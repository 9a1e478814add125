import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, onboard, unique } from './ops/api.js';

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
