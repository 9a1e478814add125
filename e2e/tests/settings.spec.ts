import { openSignedIn } from '../support/api.js';
import { expect, screenshotBothThemes, test } from '../support/fixtures.js';

test.describe('settings', () => {
  test('the system configuration reads live health', async ({ page }) => {
    await openSignedIn(page, '/settings');
    const config = page.getByRole('region', { name: 'System Configuration' });
    await expect(config.getByText('Online')).toBeVisible();
    await expect(config.getByText('Connected')).toBeVisible();
    await expect(config.getByText(/\/payg$/)).toBeVisible();
    await expect(config.getByText('Production')).toBeVisible();
    await screenshotBothThemes(page, 'settings');
  });

  test('the API key is masked, reveals, and rotates after confirmation; the old key stops working', async ({ page }) => {
    await openSignedIn(page, '/settings');
    const card = page.getByRole('region', { name: 'API Key' });
    const key = card.getByTestId('api-key');
    await expect(key).toHaveValue(/^kdg_•+.{4}$/);
    await card.getByRole('button', { name: 'Reveal key' }).click();
    await expect(key).toHaveValue(/^kdg_[A-Za-z0-9_-]{20,}$/);
    const oldKey = await key.inputValue();

    await card.getByRole('button', { name: 'Rotate Key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the API key?' });
    await expect(confirm).toContainText('stops working immediately');
    await confirm.getByRole('button', { name: 'Rotate Key' }).click();
    await expect(confirm).toBeHidden();
    await expect(key).not.toHaveValue(oldKey);
    await expect(key).toHaveValue(/^kdg_[A-Za-z0-9_-]{20,}$/);
    const newKey = await key.inputValue();

    const receive = (apiKey: string) =>
      page.request.post('/payg/external/receive-phoneteletalk', { headers: { 'X-API-Key': apiKey }, data: { message: 'hello' } });
    expect((await receive(oldKey)).status()).toBe(401);
    expect((await receive(newKey)).ok()).toBe(true);
  });

  test('the SMS provider settings save', async ({ page }) => {
    await openSignedIn(page, '/settings');
    const card = page.getByRole('region', { name: 'SMS Provider' });
    await card.getByText('SMS Webhook', { exact: true }).click();
    await card.getByRole('textbox', { name: 'Webhook URL', exact: true }).fill('https://sms.example.com/send');
    await card.getByRole('textbox', { name: 'Signing Secret', exact: true }).fill('s3cret-value');
    await card.getByRole('button', { name: 'Save SMS Settings' }).click();
    await expect(page.getByText('SMS provider settings saved')).toBeVisible();
    await page.reload();
    await expect(card.getByRole('textbox', { name: 'Webhook URL', exact: true })).toHaveValue('https://sms.example.com/send');
    await expect(card.getByText('Leave empty to keep the saved secret')).toBeVisible();
  });

  test('the receiver instructions name the endpoint and header', async ({ page }) => {
    await openSignedIn(page, '/settings');
    const card = page.getByRole('region', { name: 'Receiving Payments' });
    await expect(card.getByText(/\/payg\/external\/receive-phoneteletalk$/).first()).toBeVisible();
    await expect(card.getByText('X-API-Key: <your API key>', { exact: true })).toBeVisible();
  });
});

