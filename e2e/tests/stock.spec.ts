import { readFileSync } from 'node:fs';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createItem, unique } from './ops/api.js';

test.describe('stock locations', () => {
  test('add a place, move two devices there from Products, see its counts and the moves, and filter products on it', async ({ page, request }) => {
    const owner = await apiToken(request);
    const tag = unique('STK');
    const serials = [`${tag}-1`, `${tag}-2`];
    const product = `Stock Lamp ${tag}`;
    for (const serial of serials) await createItem(request, owner, serial, product, 2500);
    const place = `Kisumu Shop ${tag}`;

    // Add Location: a name is required; the place shows with nothing in it.
    await signIn(page, undefined, '/stock');
    await expect(page.getByRole('heading', { name: 'Stock Locations' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Location' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Location' });
    await add.getByRole('button', { name: 'Add Location' }).click();
    await expect(add.getByText('Name is required')).toBeVisible();
    await add.getByRole('textbox', { name: 'Name' }).fill(place);
    await add.getByRole('textbox', { name: 'Description' }).fill('Oginga Odinga Street, next to the bus park');
    await add.getByRole('button', { name: 'Add Location' }).click();
    await expect(page.getByText(`Stock location ${place} added`)).toBeVisible();
    await expect(add).toBeHidden();

    // The same name again is refused, and the dialog says why.
    await page.getByRole('button', { name: 'Add Location' }).first().click();
    await add.getByRole('textbox', { name: 'Name' }).fill(place.toLowerCase());
    await add.getByRole('button', { name: 'Add Location' }).click();
    await expect(add.getByRole('alert')).toContainText('already exists');
    await add.getByRole('button', { name: 'Cancel' }).click();
    await expect(add).toBeHidden();

    const locations = page.getByRole('table', { name: 'Stock Locations' });
    // The place's own row (the rows of its products, once opened, name it too).
    const placeRow = locations.getByRole('row').filter({ has: page.getByRole('button', { name: `Edit ${place}` }) });
    await expect(placeRow).toBeVisible();
    await expect(placeRow.getByRole('cell').nth(5)).toHaveText('0');

    // Products: tick both devices (found by their serial numbers), then Move to Location.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Products' }).click();
    await expect(page.getByRole('heading', { name: 'Product Management' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Search products' }).fill(tag);
    const products = page.getByRole('table', { name: 'Products' });
    for (const serial of serials) {
      const row = products.getByRole('row', { name: new RegExp(serial) });
      await expect(row).toBeVisible();
      await row.getByRole('checkbox', { name: `Select ${serial}` }).check();
    }
    await expect(page.getByText('2 devices selected')).toBeVisible();
    await page.getByRole('button', { name: 'Move to Location' }).click();
    const move = page.getByRole('dialog', { name: 'Move to Location' });
    await expect(move.getByText('Moving 2 devices')).toBeVisible();
    await move.getByRole('combobox', { name: 'Move To' }).click();
    await page.getByRole('option', { name: place }).click();
    await move.getByRole('textbox', { name: 'Note' }).fill('Restock for market day');
    await screenshotBothThemes(page, 'stock-move', { fullPage: false });
    await move.getByRole('button', { name: 'Move Devices' }).click();
    await expect(page.getByText(`2 devices moved to ${place}`)).toBeVisible();
    await expect(move).toBeHidden();
    for (const serial of serials) await expect(products.getByRole('row', { name: new RegExp(serial) })).toContainText(place);
    await expect(page.getByText('Tick devices in stock to move them to a stock location.')).toBeVisible();

    // Products filtered on the place: exactly the two devices.
    await page.getByRole('textbox', { name: 'Search products' }).fill('');
    await page.getByRole('combobox', { name: 'Filter by location' }).click();
    await page.getByRole('option', { name: place }).click();
    await expect(products.getByRole('row')).toHaveCount(3);
    for (const serial of serials) await expect(products.getByRole('row', { name: new RegExp(serial) })).toBeVisible();
    await screenshotBothThemes(page, 'stock-products-filtered');

    // Export CSV: the place's devices for a stock take, each with the place.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('products.csv');
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^serial_number,product_name,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(serials);
    for (const line of lines.slice(1)) expect(line).toContain(`,${place},`);

    // Stock Locations: the place holds 2 available; its row opens on the product; the moves are listed.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Stock Locations' }).click();
    await expect(placeRow).toBeVisible();
    const cells = placeRow.getByRole('cell');
    await expect(cells.nth(2)).toHaveText('2'); // Available
    await expect(cells.nth(5)).toHaveText('2'); // In Stock
    await expect(cells.nth(6)).toHaveText('0'); // Given Out
    await placeRow.getByRole('button', { name: `Show products at ${place}` }).click();
    const byProduct = locations.getByRole('row', { name: `${product} at ${place}` });
    await expect(byProduct.getByRole('cell').nth(5)).toHaveText('2');

    const recent = page.getByRole('region', { name: 'Recent Movements' });
    await recent.getByRole('combobox', { name: 'Filter movements by location' }).click();
    await page.getByRole('option', { name: place }).click();
    const moves = recent.getByRole('table', { name: 'Recent Movements' });
    await expect(moves.getByRole('row')).toHaveCount(3);
    for (const serial of serials) {
      const row = moves.getByRole('row', { name: new RegExp(serial) });
      await expect(row).toContainText(`Not placed${place}`);
      await expect(row).toContainText('Restock for market day');
      await expect(row.getByRole('link', { name: serial })).toHaveAttribute('href', `/device-activity/${serial}`);
    }
    await screenshotBothThemes(page, 'stock-locations');

    // A place that still holds devices is not deleted: the dialog says why.
    await placeRow.getByRole('button', { name: `Delete ${place}` }).click();
    const del = page.getByRole('dialog', { name: 'Delete Location' });
    await del.getByRole('button', { name: 'Delete Location' }).click();
    await expect(del.getByRole('alert')).toContainText(`${place} still holds 2 devices: move them to another stock location first`);
    await del.getByRole('button', { name: 'Cancel' }).click();

    // The device's page: where it is kept, its move, and Move for a device in stock.
    await moves.getByRole('link', { name: serials[0] }).click();
    await expect(page).toHaveURL(new RegExp(`/device-activity/${serials[0]}$`));
    const info = page.getByRole('region', { name: 'Device Information' });
    await expect(info.getByText(place)).toBeVisible();
    const history = page.getByRole('region', { name: 'Stock Movements' });
    await expect(history.getByRole('row', { name: /Restock for market day/ })).toBeVisible();
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const moveOne = page.getByRole('dialog', { name: 'Move to Location' });
    await moveOne.getByRole('combobox', { name: 'Move To' }).click();
    await page.getByRole('option', { name: 'Not placed' }).click();
    await moveOne.getByRole('button', { name: 'Move Device' }).click();
    await expect(page.getByText('1 device moved out of every stock location')).toBeVisible();
    await expect(info.getByText('Not placed')).toBeVisible();
    await expect(history.getByRole('row')).toHaveCount(3);
    await screenshotBothThemes(page, 'stock-device-activity');
  });

  test('a stock take finds what is missing and what was counted but kept elsewhere, and moves it here', async ({ page, request }) => {
    const owner = await apiToken(request);
    const tag = unique('TAKE');
    const [a, b, c, stray] = ['A', 'B', 'C', 'D'].map((x) => `${tag}-${x}`) as [string, string, string, string];
    for (const serial of [a, b, c, stray]) await createItem(request, owner, serial, `Take Lamp ${tag}`, 2500);
    const place = `Eldoret Shop ${tag}`;
    const created = await apiCall<{ location: { location_id: number } }>(request, owner, 'POST', '/stock-locations', { name: place });
    await apiCall(request, owner, 'POST', '/stock-locations/move', { serial_numbers: [a, b, c], location_id: created.location.location_id });

    await signIn(page, undefined, '/stock');
    const locations = page.getByRole('table', { name: 'Stock Locations' });
    await locations.getByRole('button', { name: `Stock take at ${place}` }).click();
    const dialog = page.getByRole('dialog', { name: `Stock Take: ${place}` });
    // Scanned: a and b (a twice), the stray device kept in no place, and a label of no device.
    await dialog.getByRole('textbox', { name: 'Serial Numbers Counted' }).fill([a, b, a, stray, `${tag}-NONE`].join('\n'));
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Month-end count');
    await screenshotBothThemes(page, 'stock-take-form', { fullPage: false });
    await dialog.getByRole('button', { name: 'Compare' }).click();

    await expect(dialog.getByRole('alert').first()).toContainText(`Stock take at ${place}: 2 devices of 3 found, 1 missing`);
    await expect(dialog.getByRole('table', { name: 'Missing devices' }).getByRole('row', { name: new RegExp(c) })).toBeVisible();
    const elsewhere = dialog.getByRole('table', { name: 'Devices counted here that Kidogo has elsewhere' });
    await expect(elsewhere.getByRole('row', { name: new RegExp(stray) })).toContainText('Not placed');
    await expect(dialog.getByText(`${tag}-NONE`)).toBeVisible();
    await screenshotBothThemes(page, 'stock-take-result', { fullPage: false });

    // The report as CSV, then the stray device moved here.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download Report' }).click()]);
    const report = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(report.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      `${c},Take Lamp ${tag},Missing`,
      `${stray},Take Lamp ${tag},"Counted here`,
      `${tag}-NONE,,No such device`,
    ]);
    await dialog.getByRole('button', { name: `Move 1 device to ${place}` }).click();
    await expect(page.getByText(`1 device moved to ${place}`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    const placeRow = locations.getByRole('row').filter({ has: page.getByRole('button', { name: `Stock take at ${place}` }) });
    await expect(placeRow.getByRole('cell').nth(5)).toHaveText('4'); // In Stock: a, b, c and the stray one
  });
});

