import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCall, openSignedIn, seedPayingCustomer } from '../support/api.js';
import { expect, screenshotBothThemes, test } from '../support/fixtures.js';

interface Hit {
  signature: string;
  raw: string;
  body: { id: string; type: string; data: Record<string, unknown> };
}

/** The organization's own server: records each event Kidogo posts and answers 200. */
async function startReceiver() {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      hits.push({ signature: String(req.headers['kidogo-signature']), raw, body: JSON.parse(raw) });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { hits, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/kidogo/events`, close: () => server.close() };
}

const signedBy = (secret: string, hit: Hit) => {
  const [t, v1] = hit.signature.split(',').map((p) => p.split('=')[1]);
  return createHmac('sha256', secret).update(`${t}.${hit.raw}`).digest('hex') === v1;
};

test.describe('webhooks', () => {
  test('an owner adds an endpoint, tests it, and the next payment reaches it signed', async ({ page }) => {
    const receiver = await startReceiver();
    try {
      await openSignedIn(page, '/settings');
      const card = page.getByRole('region', { name: 'Webhooks' });
      await card.getByRole('button', { name: 'Add Endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Endpoint' });
      await dialog.getByLabel('Endpoint URL').fill(receiver.url);
      await dialog.getByLabel('Description').fill('Accounting (ERPNext)');
      await dialog.getByRole('checkbox', { name: /token\.issued/ }).check();
      await dialog.getByRole('button', { name: 'Add Endpoint' }).click();

      const shown = page.getByRole('dialog', { name: 'Endpoint Added' });
      const secret = await shown.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      await shown.getByRole('button', { name: 'Done' }).click();
      await expect(shown).toBeHidden();

      await card.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
      await expect(page.getByText(new RegExp(`Test event delivered to ${receiver.url.replace(/[.]/g, '\\.')}: HTTP 200`))).toBeVisible();
      expect(receiver.hits.map((h) => h.body.type)).toEqual(['webhook.test']);

      // Money in: the pipeline's events go out on their own (the outbox worker).
      const { device } = await seedPayingCustomer(page);
      await apiCall(page, 'POST', '/generate-token-by-days', { serial_number: device.serial_number, number_of_days: 3 });
      await expect.poll(() => receiver.hits.map((h) => h.body.type).sort(), { timeout: 15_000 }).toEqual(
        ['payment.applied', 'payment.applied', 'token.issued', 'webhook.test'].sort(),
      );
      for (const hit of receiver.hits) expect(signedBy(secret, hit)).toBe(true);
      const applied = receiver.hits.filter((h) => h.body.type === 'payment.applied').map((h) => h.body.data);
      expect(applied.map((d) => [d.serial_number, d.amount])).toEqual([
        [device.serial_number, '1000.00'],
        [device.serial_number, '350.00'],
      ]);

      await page.reload();
      await expect(card.getByText(/Delivered .*\(HTTP 200\)/)).toBeVisible();
      await card.scrollIntoViewIfNeeded();
      await screenshotBothThemes(page, 'settings-webhooks');

      await card.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
      const drawer = page.getByRole('dialog', { name: `Deliveries to ${receiver.url}` });
      await expect(drawer.getByRole('button', { name: /: token\.issued, Delivered$/ })).toBeVisible();
      await expect(drawer.getByRole('button', { name: /: payment\.applied, Delivered$/ })).toHaveCount(2);
      await drawer.getByRole('button', { name: /: token\.issued, Delivered$/ }).click();
      await expect(drawer.getByText(`"serial_number": "${device.serial_number}"`, { exact: false }).first()).toBeVisible();
      await screenshotBothThemes(page, 'webhook-deliveries', { fullPage: false });
    } finally {
      receiver.close();
    }
  });
});
