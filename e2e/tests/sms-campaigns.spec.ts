import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, unique } from './ops/api.js';

interface Campaign {
  campaign_id: number;
  audience_text: string;
  recipients: number;
  status: string;
  delivery: { queued: number; sent: number; failed: number; cancelled: number };
}

/** A 10-digit Kenyan mobile number no demo customer has. */
const phone = () => `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

test.describe('bulk SMS', () => {
  test('the owner previews a text to the customers of a county, sends it, sees it going out and cancels what is left', async ({ page, request }) => {
    const owner = await apiToken(request);
    // The texts need an SMS provider: one that refuses every message, so that none leaves and each waits to be tried again.
    const before = await apiCall<{ provider: string; config: Record<string, unknown>; reply_language: string }>(request, owner, 'GET', '/settings/sms-provider');
    await apiCall(request, owner, 'PUT', '/settings/sms-provider', { provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } });
    // A county of this test's own: two customers, one of them on the other's phone, and one who texted STOP.
    const county = unique('Nyandarua');
    const shared = phone();
    const register = (customer_name: string, phone_contact: string) =>
      apiCall<{ customer_id: number }>(request, owner, 'POST', '/register-customer', { customer_name, id_number: unique('ID'), phone_contact, county });
    await register('Wairimu Ndungu', shared);
    await register('Kamau Ndungu', shared);
    await register('Njoki Mwangi', phone());
    const stopped = await register('Gitau Kariuki', phone());
    await apiCall(request, owner, 'POST', `/customers/${stopped.customer_id}/sms-opt-out`);

    try {
      await signIn(page, undefined, '/sms-campaigns');
      await expect(page.getByRole('heading', { name: 'Bulk SMS', exact: true })).toBeVisible();
      const form = page.getByRole('region', { name: 'New Bulk SMS' });
      await form.getByRole('combobox', { name: 'Customers' }).click();
      await page.getByRole('option', { name: 'All customers' }).click();
      await form.getByRole('textbox', { name: 'County' }).fill(county);
      await form.getByRole('textbox', { name: 'Message' }).fill('Habari {name}, our Ol Kalou shop opens on Monday next to the market. Karibu!');
      await form.getByRole('button', { name: 'Preview' }).click();

      const preview = form.getByRole('region', { name: 'Preview' });
      await expect(preview).toContainText(`Preview: All customers, of ${county} county`);
      await expect(preview).toContainText('2 texts');
      await expect(preview.getByLabel('Passed over')).toContainText('1 texted STOP');
      await expect(preview.getByLabel('Passed over')).toContainText('1 on a phone number texted already');
      await expect(preview).toContainText('Habari Wairimu, our Ol Kalou shop opens on Monday next to the market. Karibu!');
      await expect(preview).toContainText('Habari Njoki, our Ol Kalou shop opens on Monday next to the market. Karibu!');
      await screenshotBothThemes(page, 'sms-campaigns-preview');

      await form.getByRole('button', { name: 'Send', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Send Bulk SMS' });
      await expect(confirm).toContainText(`Send 2 texts to All customers, of ${county} county?`);
      await confirm.getByRole('button', { name: 'Send 2 texts' }).click();
      await expect(page.getByText(`2 SMS to All customers, of ${county} county queued`)).toBeVisible();

      // The list: the new bulk SMS at the top, its texts waiting (the provider refuses them) or failed.
      const list = page.getByRole('region', { name: 'Sent and scheduled' });
      const row = list.getByRole('row').filter({ hasText: county }).first();
      await expect(row).toContainText('Sending');
      await screenshotBothThemes(page, 'sms-campaigns-list');
      const mine = (await apiCall<{ data: Campaign[] }>(request, owner, 'GET', '/sms-campaigns?limit=5')).data.find((c) => c.audience_text.includes(county))!;
      expect(mine).toMatchObject({ recipients: 2, status: 'sending' });

      // Its texts: to whom, and what became of each (waiting: the provider refuses them).
      await row.getByRole('button', { name: /^Texts of the bulk SMS of / }).click();
      const drawer = page.getByRole('dialog', { name: 'Texts of the bulk SMS' });
      await expect(drawer.getByRole('radio', { name: 'All (2)' })).toBeChecked();
      const texts = drawer.getByRole('table', { name: 'Texts' });
      await expect(texts.getByRole('link', { name: 'Wairimu Ndungu' })).toBeVisible();
      await expect(texts.getByRole('link', { name: 'Njoki Mwangi' })).toBeVisible();
      await expect(texts).toContainText('Habari Njoki, our Ol Kalou shop opens on Monday next to the market. Karibu!');
      await screenshotBothThemes(page, 'sms-campaigns-texts');
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();

      await row.getByRole('button', { name: /^Cancel the bulk SMS of / }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancel Bulk SMS' });
      await cancel.getByRole('button', { name: 'Cancel Bulk SMS' }).click();
      await expect(page.getByText(/^Bulk SMS cancelled: [12] texts? not sent$/)).toBeVisible();
      await expect(row).toContainText('Cancelled');
      const after = await apiCall<Campaign>(request, owner, 'GET', `/sms-campaigns/${mine.campaign_id}`);
      expect(after.status).toBe('cancelled');
      expect(after.delivery.queued + after.delivery.sent).toBe(0);

      // On a phone the form stacks and the list scrolls sideways, nothing cut off.
      await page.setViewportSize({ width: 390, height: 844 });
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: resolve(SCREENSHOTS, 'sms-campaigns-phone.png'), fullPage: true });
    } finally {
      await apiCall(request, owner, 'PUT', '/settings/sms-provider', { provider: before.provider, config: before.config, reply_language: before.reply_language });
    }
  });

  test('staff do not see Bulk SMS', async ({ page, request }) => {
    const owner = await apiToken(request);
    const who = { username: unique('clerk').toLowerCase(), password: 'bulk-sms-staff-1' };
    await apiCall(request, owner, 'POST', '/users', { username: who.username, email: `${who.username}@demo.kidogo.local`, password: who.password, role: 'staff' });
    await signIn(page, who, '/sms-campaigns');
    await expect(page.getByText('Only owners and admins can send bulk SMS.')).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Bulk SMS' })).toHaveCount(0);
  });
});
