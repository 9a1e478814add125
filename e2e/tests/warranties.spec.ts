import { resolve } from 'node:path';
import { expect, SCREENSHOTS, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, onboard, unique } from './ops/api.js';

interface WarrantySettings {
  warranties: { product_name: string; months: number; devices: number }[];
  other_products: string[];
}

interface DeviceWarranty {
  months: number;
  starts_at: string;
  until: string;
  in_warranty: boolean;
}

/** A demo lamp given to a customer on the Lamp plan (the seed's); no other browser test changes it. */
const SERIAL = 'LMP-2002';
const PRODUCT = 'Solar Lamp Pro';

test.describe('warranties', () => {
  test("the owner gives a product 12 months of warranty: its devices' pages and a swap say they are in warranty", async ({ page, request }) => {
    const owner = await apiToken(request);
    const before = await apiCall<WarrantySettings>(request, owner, 'GET', '/settings/warranties');
    const rules = (s: WarrantySettings) => s.warranties.map(({ product_name, months }) => ({ product_name, months }));
    // Whatever the demo gives the lamp, the owner starts from none for it.
    await apiCall(request, owner, 'PUT', '/settings/warranties', { warranties: rules(before).filter((w) => w.product_name.toLowerCase() !== PRODUCT.toLowerCase()) });

    try {
      const device = await apiCall<{ data: { device_info: { product_name: string; is_assigned: boolean; warranty: DeviceWarranty | null } } }>(
        request,
        owner,
        'GET',
        `/devices/${SERIAL}/activity?limit=1`,
      );
      expect(device.data.device_info).toMatchObject({ product_name: PRODUCT, is_assigned: true, warranty: null });

      await signIn(page, undefined, '/settings');
      const card = page.getByRole('region', { name: 'Warranties' });
      await card.getByRole('button', { name: 'Add Product' }).click();
      const rows = card.getByRole('combobox', { name: /^Product \d+$/ });
      const n = await rows.count();
      await rows.nth(n - 1).click();
      await page.getByRole('option', { name: PRODUCT, exact: true }).click();
      await card.getByRole('textbox', { name: `Months ${n}` }).fill('12');
      await card.getByRole('button', { name: 'Save Warranties' }).click();
      await expect(page.getByText('Warranties saved')).toBeVisible();
      // The list as saved, by name, with the lamp's devices counted.
      await expect(card.getByRole('button', { name: 'Save Warranties' })).toBeDisabled();
      const names = await card.getByRole('combobox', { name: /^Product \d+$/ }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      const at = names.indexOf(PRODUCT) + 1;
      expect(at).toBeGreaterThan(0);
      await expect(card.getByRole('textbox', { name: `Months ${at}` })).toHaveValue('12');
      await expect(card.getByRole('group', { name: `Warranty ${at}` })).toContainText(/[1-9]\d* devices?$/);
      await screenshotBothThemes(page, 'warranties-settings');
      // The card alone, readable: the settings page is long.
      await card.screenshot({ path: resolve(SCREENSHOTS, 'warranties-card.png') });
      // On a phone the rows keep their boxes side by side, nothing cut off.
      await page.setViewportSize({ width: 390, height: 844 });
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: resolve(SCREENSHOTS, 'warranties-card-phone.png') });
      await page.setViewportSize({ width: 1366, height: 850 });

      // The lamp's page: in warranty for 12 months from the day its account began.
      const after = await apiCall<{ data: { device_info: { warranty: DeviceWarranty | null } } }>(request, owner, 'GET', `/devices/${SERIAL}/activity?limit=1`);
      const warranty = after.data.device_info.warranty!;
      expect(warranty).toMatchObject({ months: 12, in_warranty: true });
      await page.goto(`/device-activity/${SERIAL}`);
      const info = page.getByRole('region', { name: 'Device Information' });
      const [until, from] = await page.evaluate(
        (dates) => dates.map((d) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(d))),
        [warranty.until, warranty.starts_at],
      );
      await expect(info.getByText(`In warranty until ${until}`)).toBeVisible();
      await expect(info.getByText(`12 months from ${from}`)).toBeVisible();
      await screenshotBothThemes(page, 'warranties-device');
      await info.screenshot({ path: resolve(SCREENSHOTS, 'warranties-device-card.png') });

      // Before a swap the owner sees whether the maker stands behind the fault (nothing is swapped here).
      await page.getByRole('button', { name: 'Swap Device' }).click();
      const dialog = page.getByRole('dialog', { name: 'Swap Device' });
      await expect(dialog.getByRole('group', { name: `Warranty of ${SERIAL}` })).toContainText(`In warranty until ${until}`);
      await screenshotBothThemes(page, 'warranties-swap', { fullPage: false });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();

      // A lamp of this test's own, swapped within its warranty: the swap keeps it, and its replacement carries it on.
      const customer = await createCustomer(request, owner, unique('Warranty Njeri'), '0711000555');
      const faulty = unique('WTYOLD');
      const spare = unique('WTYNEW');
      await createItem(request, owner, faulty, PRODUCT, 3500);
      await createItem(request, owner, spare, PRODUCT, 3500);
      await onboard(request, owner, customer.customer_id, faulty, (await createTemplate(request, owner, unique('Warranty plan'))).template_id);
      const swapped = await apiCall<{ warranty: DeviceWarranty | null }>(request, owner, 'POST', '/items/swap', {
        item_serial_number: faulty,
        new_serial_number: spare,
        reason: 'Lamp does not charge',
      });
      expect(swapped.warranty).toMatchObject({ months: 12, in_warranty: true });
      await page.goto(`/device-activity/${spare}`);
      const swaps = page.getByRole('region', { name: 'Device Swaps' });
      const row = swaps.getByRole('row', { name: new RegExp(faulty) });
      await expect(row.getByText('In warranty', { exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Device Information' }).getByText(/^In warranty until /)).toBeVisible();
      await swaps.screenshot({ path: resolve(SCREENSHOTS, 'warranties-swaps-card.png') });

      // A fault reported on the replacement: the technician's ticket says the maker still stands behind it.
      const ticket = await apiCall<{ data: { ticket_id: number; warranty: DeviceWarranty | null } }>(request, owner, 'POST', '/tickets', {
        serial_number: spare,
        category: 'device_fault',
        description: 'Switch is loose',
      });
      expect(ticket.data.warranty).toMatchObject({ months: 12, in_warranty: true });
      await page.goto(`/tickets?ticket=${ticket.data.ticket_id}`);
      const ticketDialog = page.getByRole('dialog', { name: `Ticket #${ticket.data.ticket_id}` });
      await expect(ticketDialog.getByText(/^In warranty until /)).toBeVisible();
      await expect(ticketDialog.getByText(/^When the ticket was opened · 12 months from /)).toBeVisible();
      await screenshotBothThemes(page, 'warranties-ticket', { fullPage: false });
    } finally {
      // The other browser tests see the demo's warranties as the seed left them.
      await apiCall(request, owner, 'PUT', '/settings/warranties', { warranties: rules(before) });
    }
  });
});
