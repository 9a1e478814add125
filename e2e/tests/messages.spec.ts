import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiToken, createCustomer, createItem, createTemplate, mpesaCode, onboard, postMpesa, receiverKey, unique } from './ops/api.js';

test.describe('message history', () => {
  test('a forwarded M-Pesa confirmation and the token reply appear; an unmatched payment is matched to its device', async ({ page, request }) => {
    const owner = await apiToken(request);
    const key = await receiverKey(request, owner);
    const name = unique('Message Daudi');
    const serial = unique('MSG');
    const customer = await createCustomer(request, owner, name, '0722333444');
    await createItem(request, owner, serial);
    const template = await createTemplate(request, owner, unique('Message plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);

    const paid = mpesaCode();
    const processed = await postMpesa(request, key, { code: paid, amount: '1,500.00', account: serial });
    expect(processed.status).toBe('processed');
    // A payment whose account matches nothing stays unmatched until someone says which device it is for.
    const stray = mpesaCode();
    const unmatched = await postMpesa(request, key, { code: stray, amount: '1,000.00', account: unique('TYPO'), payer: 'MARY AUMA 254799000111' });
    expect(unmatched.status).toBe('unmatched');

    await signIn(page, undefined, '/messages');
    await expect(page.getByRole('heading', { name: 'Message History' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Messages' });
    for (const h of ['Incoming', 'Outgoing', 'Recipient Number', 'Amount', 'Date']) {
      await expect(table.getByRole('columnheader', { name: h, exact: true })).toBeVisible();
    }
    // The payment no device was found for waits in Held Payments too.
    await expect(page.getByRole('table', { name: 'Held Payments' }).getByRole('row', { name: new RegExp(stray) })).toBeVisible();
    const row = table.getByRole('row', { name: new RegExp(paid) });
    await expect(row).toBeVisible();
    await expect(row.getByText(new RegExp(`received for device ${serial}`))).toBeVisible();
    await expect(row.getByText('KES 1,500.00', { exact: true })).toBeVisible();
    await expect(row.getByText('Processed')).toBeVisible();
    // Each held payment says why it waits; each incoming text says who sent it.
    await expect(page.getByRole('table', { name: 'Held Payments' }).getByRole('row', { name: new RegExp(stray) })).toContainText(
      'No single device matches the account reference',
    );
    await expect(row.getByText('From MPESA')).toBeVisible();
    await screenshotBothThemes(page, 'messages');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('heading', { name: 'Message History' })).toBeVisible();
    await screenshotBothThemes(page, 'messages-phone');
    await page.setViewportSize({ width: 1366, height: 850 });

    // Search narrows the list; a search with no hit says so.
    await page.getByRole('textbox', { name: 'Search messages' }).fill(stray);
    const strayRow = table.getByRole('row', { name: new RegExp(stray) });
    await expect(strayRow).toBeVisible();
    await expect(table.getByRole('row', { name: new RegExp(paid) })).toHaveCount(0);
    await expect(strayRow.getByText('Unmatched')).toBeVisible();

    await strayRow.getByRole('button', { name: 'Match' }).click();
    const dialog = page.getByRole('dialog', { name: 'Match Payment to a Device' });
    await dialog.getByRole('textbox', { name: 'Find the device' }).fill(serial);
    await dialog.getByRole('radio', { name: serial }).click();
    await dialog.getByRole('button', { name: 'Match Payment' }).click();
    await expect(page.getByText(new RegExp(`Payment matched to ${serial}\\. Token \\d+`))).toBeVisible();
    await expect(strayRow.getByText('Unmatched')).toHaveCount(0);

    await page.getByRole('textbox', { name: 'Search messages' }).fill(`${stray}-none`);
    await expect(page.getByText('No messages found')).toBeVisible();
    await expect(page.getByText('Try adjusting your search terms')).toBeVisible();

    // Money sent to the business by mistake and refunded: an owner rejects it, with the reason.
    const refunded = mpesaCode();
    expect((await postMpesa(request, key, { code: refunded, amount: '640.00', account: unique('WRONG'), payer: 'OTIENO ODHIAMBO 254733000999' })).status).toBe('unmatched');
    await page.getByRole('textbox', { name: 'Search messages' }).fill('');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: `Reject ${refunded}` }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Payment' });
    await reject.getByRole('textbox', { name: 'Reason' }).fill('Refunded to the sender');
    await screenshotBothThemes(page, 'reject-payment');
    await reject.getByRole('button', { name: 'Reject Payment' }).click();
    await expect(page.getByText(`Payment ${refunded} rejected.`)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Held Payments' }).getByRole('row', { name: new RegExp(refunded) })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Search messages' }).fill(refunded);
    const rejectedRow = table.getByRole('row', { name: new RegExp(refunded) });
    await expect(rejectedRow.getByText('Rejected', { exact: true })).toBeVisible();
    await expect(rejectedRow.getByText(/Rejected by demo: Refunded to the sender/)).toBeVisible();

    // The device now shows both payments.
    await page.goto(`/device-activity/${serial}`);
    await expect(page.getByRole('tab', { name: /Payment History/ })).toContainText('2');
  });
});
