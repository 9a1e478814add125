import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildLocation, buildMovement, counts, mockStockApi, refusal, sent } from '../testing/mock-stock-api';

async function openStock(role: 'admin' | 'staff' = 'admin') {
  seedSession({ user: buildUser({ role }) });
  const view = renderApp('/stock');
  await screen.findByRole('heading', { name: 'Stock Locations' });
  return { ...view, user: userEvent.setup() };
}

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

describe('Stock Locations', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists each place with its devices by status, the devices in none last, and opens a place on its products', async () => {
    const { calls } = mockStockApi();
    const { user } = await openStock();
    const table = await screen.findByRole('table', { name: 'Stock Locations' });
    for (const h of ['Name', 'Available', 'Maintenance', 'Retired', 'In Stock', 'Given Out', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    const [, kisumu, warehouse, unplaced] = within(table).getAllByRole('row');
    expect(cellsOf(kisumu!).slice(1, 7)).toEqual(['Kisumu ShopOginga Odinga Street', '3', '1', '0', '4', '2']);
    expect(within(kisumu!).getByText('Oginga Odinga Street')).toBeInTheDocument();
    expect(cellsOf(warehouse!).slice(1, 7)).toEqual(['Nairobi Warehouse', '0', '0', '0', '0', '0']);
    expect(cellsOf(unplaced!).slice(1, 7)).toEqual(['Not placedDevices in no stock location', '4', '0', '0', '4', '0']);
    // The devices in none are not a place: nothing to edit or delete.
    expect(within(unplaced!).queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/payg/stock-locations')).toHaveLength(1);

    const open = within(kisumu!).getByRole('button', { name: 'Show products at Kisumu Shop' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    // Under the place's row, in its columns, most in stock first as the API gives them.
    const rows = within(table).getAllByRole('row');
    const solar = within(table).getByRole('row', { name: 'Solar Home 50W at Kisumu Shop' });
    const lantern = within(table).getByRole('row', { name: 'Lantern at Kisumu Shop' });
    expect(rows.indexOf(solar)).toBe(rows.indexOf(kisumu!) + 1);
    expect(rows.indexOf(lantern)).toBe(rows.indexOf(kisumu!) + 2);
    expect(cellsOf(solar).slice(1)).toEqual(['Solar Home 50W', '2', '1', '0', '3', '2', '']);
    expect(cellsOf(lantern).slice(1)).toEqual(['Lantern', '1', '0', '0', '1', '0', '']);
    expect(within(kisumu!).getByRole('button', { name: 'Hide products at Kisumu Shop' })).toHaveAttribute('aria-expanded', 'true');

    // A click anywhere on the row opens it too; an empty place says how to fill it.
    await user.click(within(warehouse!).getByText('Nairobi Warehouse'));
    expect(screen.getByText('No devices here yet. Move devices here from Products.')).toBeInTheDocument();
  });

  it('leaves out Not placed when every device is in a place', async () => {
    mockStockApi({ unplaced: { counts: counts(), products: [] } });
    await openStock();
    const table = await screen.findByRole('table', { name: 'Stock Locations' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).queryByText('Not placed')).not.toBeInTheDocument();
  });

  it('lists the recent movements with the device linked, from and to ("Not placed" for none), by whom and why; a place filters them', async () => {
    const { calls } = mockStockApi({
      movements: (q) =>
        q.get('location_id') === '5'
          ? []
          : [buildMovement(), buildMovement({ movement_id: 20, serial_number: 'SHS-0002', from_location: 'Kisumu Shop', to_location: null, note: null })],
    });
    const { user } = await openStock();
    const card = screen.getByRole('region', { name: 'Recent Movements' });
    const table = await within(card).findByRole('table', { name: 'Recent Movements' });
    for (const h of ['When', 'Serial Number', 'Product', 'From → To', 'By', 'Note']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText(formatDate('2026-11-20T09:00:00Z', true))).toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(cellsOf(first!).slice(2)).toEqual(['Solar Home 50W', 'Not placedKisumu Shop', 'amina', 'Restock for market day']);
    expect(cellsOf(second!).slice(3)).toEqual(['Kisumu ShopNot placed', 'amina', '—']);
    expect(calls.find((c) => c.url.startsWith('/payg/stock-movements'))?.url).toBe('/payg/stock-movements?page=1&limit=20');

    await user.click(within(card).getByRole('combobox', { name: 'Filter movements by location' }));
    await user.click(await screen.findByRole('option', { name: 'Nairobi Warehouse' }));
    expect(await within(card).findByText('No movements to or from this location')).toBeInTheDocument();
    expect(calls.at(-1)?.url).toBe('/payg/stock-movements?page=1&limit=20&location_id=5');
  });

  it('pages the movements 20 at a time', async () => {
    const { calls } = mockStockApi({ movements: (q) => [buildMovement({ movement_id: Number(q.get('page')) })], total: 45 });
    const { user } = await openStock();
    const card = screen.getByRole('region', { name: 'Recent Movements' });
    expect(await within(card).findByText('Showing 1 to 20 of 45 movements')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/payg/stock-movements?page=3&limit=20'));
  });

  it('explains stock locations when there are none, with Add Location for an owner or admin', async () => {
    mockStockApi({ locations: [], movements: () => [] });
    await openStock();
    expect(await screen.findByText('No stock locations yet')).toBeInTheDocument();
    expect(screen.getByText(/warehouses, shops and field agents that keep your devices/)).toBeInTheDocument();
    // The header's button and the empty state's.
    expect(screen.getAllByRole('button', { name: 'Add Location' })).toHaveLength(2);
    expect(screen.queryByRole('table', { name: 'Stock Locations' })).not.toBeInTheDocument();
    expect(await screen.findByText('No movements yet')).toBeInTheDocument();
  });

  it('shows staff the places without Add Location, Edit or Delete, and with Stock Take', async () => {
    mockStockApi();
    await openStock('staff');
    const table = await screen.findByRole('table', { name: 'Stock Locations' });
    expect(within(table).getByRole('button', { name: 'Stock take at Kisumu Shop' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Edit Kisumu Shop' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Location' })).not.toBeInTheDocument();
  });

  it('tells staff with no place that an owner or admin adds them', async () => {
    mockStockApi({ locations: [] });
    await openStock('staff');
    expect(await screen.findByText('An owner or admin of your organization adds them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Location' })).not.toBeInTheDocument();
  });

  it("shows the server's message when the places cannot be read, with Retry", async () => {
    mockStockApi({ extra: (c) => (c.url === '/payg/stock-locations' ? jsonResponse(500, {}) : undefined) });
    await openStock();
    expect(await screen.findByText('HTTP error! status: 500')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  describe('Add Location', () => {
    it('requires a name, shows a name taken in the dialog, then adds the place and reads the list again', async () => {
      let taken = true;
      const { calls } = mockStockApi({
        extra: (c) => {
          if (c.method !== 'POST' || c.url !== '/payg/stock-locations') return undefined;
          if (taken) return refusal(409, 'A stock location named Kisumu Shop already exists');
          return jsonResponse(201, { message: 'Stock location Eldoret Agent added', location: buildLocation({ location_id: 9, name: 'Eldoret Agent' }) });
        },
      });
      const { user } = await openStock();
      await screen.findByRole('table', { name: 'Stock Locations' });
      await user.click(screen.getByRole('button', { name: 'Add Location' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Location' });
      await user.click(within(dialog).getByRole('button', { name: 'Add Location' }));
      expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
      expect(sent(calls, 'POST', '/payg/stock-locations')).toEqual([]);

      await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Kisumu Shop');
      await user.click(within(dialog).getByRole('button', { name: 'Add Location' }));
      expect(await within(dialog).findByText('A stock location named Kisumu Shop already exists')).toBeInTheDocument();
      expect(within(dialog).getByText('Failed to add the stock location')).toBeInTheDocument();

      taken = false;
      const reads = calls.filter((c) => c.url === '/payg/stock-locations' && c.method === 'GET').length;
      await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '  Eldoret Agent ');
      await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Kiprono, rides the Iten route');
      await user.click(within(dialog).getByRole('button', { name: 'Add Location' }));
      expect(await screen.findByText('Stock location Eldoret Agent added')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(sent(calls, 'POST', '/payg/stock-locations').at(-1)).toEqual({ name: 'Eldoret Agent', description: 'Kiprono, rides the Iten route' });
      await waitFor(() => expect(calls.filter((c) => c.url === '/payg/stock-locations' && c.method === 'GET').length).toBeGreaterThan(reads));
    });

    it('opens from the empty state too', async () => {
      mockStockApi({ locations: [] });
      const { user } = await openStock();
      const empty = (await screen.findByText('No stock locations yet')).parentElement!;
      await user.click(within(empty).getByRole('button', { name: 'Add Location' }));
      expect(await screen.findByRole('dialog', { name: 'Add Location' })).toBeInTheDocument();
    });
  });

  it('Edit saves the name and description through PUT /stock-locations/{id}', async () => {
    const { calls } = mockStockApi({
      extra: (c) =>
        c.method === 'PUT' ? jsonResponse(200, { message: 'Stock location saved', location: buildLocation({ name: 'Kisumu Central Shop' }) }) : undefined,
    });
    const { user } = await openStock();
    await user.click(await screen.findByRole('button', { name: 'Edit Kisumu Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Kisumu Shop' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Kisumu Shop');
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue('Oginga Odinga Street');
    await user.clear(name);
    await user.type(name, 'Kisumu Central Shop');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Description' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Stock location saved')).toBeInTheDocument();
    expect(sent(calls, 'PUT', '/payg/stock-locations/3')).toEqual([{ name: 'Kisumu Central Shop', description: null }]);
  });

  it("Delete asks first and shows the API's reason when the place still holds devices", async () => {
    let holds = true;
    const { calls } = mockStockApi({
      extra: (c) =>
        c.method === 'DELETE'
          ? holds
            ? refusal(409, 'Kisumu Shop still holds 4 devices: move them to another stock location first')
            : jsonResponse(200, { message: 'Stock location Kisumu Shop deleted' })
          : undefined,
    });
    const { user } = await openStock();
    await user.click(await screen.findByRole('button', { name: 'Delete Kisumu Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Location' });
    expect(within(dialog).getByText(/Are you sure you want to delete the stock location/)).toHaveTextContent('Kisumu Shop');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Location' }));
    expect(await within(dialog).findByText('Kisumu Shop still holds 4 devices: move them to another stock location first')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/payg/stock-locations/3');

    holds = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete Location' }));
    expect(await screen.findByText('Stock location Kisumu Shop deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  describe('Stock Take', () => {
    const REPLY = {
      message: 'Stock take at Kisumu Shop: 2 devices of 4 found, 2 missing, 2 devices counted that Kidogo has elsewhere, 1 serial number of no device',
      location_id: 3,
      location_name: 'Kisumu Shop',
      expected: 4,
      counted: 5,
      duplicates: 1,
      found: 2,
      missing: [
        { serial_number: 'SHS-0003', product_name: 'Solar Home 50W', status: 'available', location_name: 'Kisumu Shop', with_customer: false },
        { serial_number: 'SHS-0004', product_name: 'Solar Home 50W', status: 'maintenance', location_name: 'Kisumu Shop', with_customer: false },
      ],
      missing_count: 2,
      elsewhere: [
        { serial_number: 'LNT-0009', product_name: 'Lantern', status: 'available', location_name: 'Nairobi Warehouse', with_customer: false },
        { serial_number: 'SHS-0100', product_name: 'Solar Home 50W', status: 'assigned', location_name: null, with_customer: true },
      ],
      elsewhere_count: 2,
      unknown: ['XYZ-1'],
      unknown_count: 1,
    };

    it('sends the serials counted, typed or scanned one per line, and shows what is missing, elsewhere and of no device', async () => {
      const { calls } = mockStockApi({
        extra: (c) => {
          if (c.method === 'POST' && c.url === '/payg/stock-locations/3/stock-take') return jsonResponse(200, REPLY);
          if (c.method === 'POST' && c.url === '/payg/stock-locations/move') {
            return jsonResponse(200, { message: '1 device moved to Kisumu Shop', moved: 1, unchanged: 0, location_id: 3, location_name: 'Kisumu Shop' });
          }
          return undefined;
        },
      });
      const { user } = await openStock('staff');
      await user.click(await screen.findByRole('button', { name: 'Stock take at Kisumu Shop' }));
      const dialog = await screen.findByRole('dialog', { name: 'Stock Take: Kisumu Shop' });
      await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
      expect(await within(dialog).findByText('Enter or load the serial numbers you counted.')).toBeInTheDocument();
      expect(calls.some((c) => c.url.endsWith('/stock-take'))).toBe(false);

      const box = within(dialog).getByRole('textbox', { name: 'Serial Numbers Counted' });
      await user.type(box, 'SHS-0001{enter}SHS-0002{enter}SHS-0001{enter}LNT-0009, SHS-0100 XYZ-1{enter}');
      expect(within(dialog).getByText('6 entered')).toBeInTheDocument();
      await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Month-end');
      await user.click(within(dialog).getByRole('button', { name: 'Compare' }));

      expect(await within(dialog).findByText(/2 devices of 4 found, 2 missing/)).toHaveTextContent('(1 counted twice, taken once).');
      expect(sent(calls, 'POST', '/payg/stock-locations/3/stock-take')).toEqual([
        { serial_numbers: ['SHS-0001', 'SHS-0002', 'SHS-0001', 'LNT-0009', 'SHS-0100', 'XYZ-1'], note: 'Month-end' },
      ]);
      const missing = within(dialog).getByRole('table', { name: 'Missing devices' });
      expect(within(missing).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
        ['SHS-0003', 'Solar Home 50W', 'available'],
        ['SHS-0004', 'Solar Home 50W', 'maintenance'],
      ]);
      const elsewhere = within(dialog).getByRole('table', { name: 'Devices counted here that Kidogo has elsewhere' });
      expect(within(elsewhere).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
        ['LNT-0009', 'Lantern', 'available', 'Nairobi Warehouse'],
        ['SHS-0100', 'Solar Home 50W', 'assigned', 'With a customer'],
      ]);
      expect(within(dialog).getByText('XYZ-1')).toBeInTheDocument();

      // Only the device in stock elsewhere is moved here, with a note saying why.
      await user.click(within(dialog).getByRole('button', { name: 'Move 1 device to Kisumu Shop' }));
      expect(await screen.findByText('1 device moved to Kisumu Shop')).toBeInTheDocument();
      expect(sent(calls, 'POST', '/payg/stock-locations/move')).toEqual([
        { serial_numbers: ['LNT-0009'], location_id: 3, note: 'Found at Kisumu Shop in a stock take' },
      ]);
      await waitFor(() => expect(within(dialog).queryByRole('button', { name: /^Move 1 device/ })).not.toBeInTheDocument());

      // Count Again goes back to the form; Done closes.
      await user.click(within(dialog).getByRole('button', { name: 'Count Again' }));
      expect(within(dialog).getByRole('textbox', { name: 'Serial Numbers Counted' })).toBeInTheDocument();
    });

    it('loads the Serial Number column of a CSV file, and shows the reason the API refused', async () => {
      const { calls } = mockStockApi({
        extra: (c) => (c.method === 'POST' && c.url.endsWith('/stock-take') ? refusal(400, 'serial_numbers.0: must be at most 100 characters') : undefined),
      });
      const { user } = await openStock();
      await user.click(await screen.findByRole('button', { name: 'Stock take at Kisumu Shop' }));
      const dialog = await screen.findByRole('dialog', { name: 'Stock Take: Kisumu Shop' });
      const file = new File(['Product Name,Serial Number,Status\nLantern,LNT-1,available\n"Solar, 50W",SHS-9,available\n'], 'products.csv', { type: 'text/csv' });
      const input = dialog.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
      await user.upload(input, file);
      await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Serial Numbers Counted' })).toHaveValue('LNT-1\nSHS-9'));
      await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
      expect(await within(dialog).findByText('serial_numbers.0: must be at most 100 characters')).toBeInTheDocument();
      expect(sent(calls, 'POST', '/payg/stock-locations/3/stock-take')).toEqual([{ serial_numbers: ['LNT-1', 'SHS-9'] }]);
    });

    it('says when everything counted is where Kidogo has it', async () => {
      mockStockApi({
        extra: (c) =>
          c.method === 'POST' && c.url.endsWith('/stock-take')
            ? jsonResponse(200, {
                ...REPLY,
                message: 'Stock take at Kisumu Shop: 2 devices of 2 found, none missing',
                expected: 2,
                counted: 2,
                duplicates: 0,
                missing: [],
                missing_count: 0,
                elsewhere: [],
                elsewhere_count: 0,
                unknown: [],
                unknown_count: 0,
              })
            : undefined,
      });
      const { user } = await openStock();
      await user.click(await screen.findByRole('button', { name: 'Stock take at Kisumu Shop' }));
      const dialog = await screen.findByRole('dialog', { name: 'Stock Take: Kisumu Shop' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Serial Numbers Counted' }), 'SHS-0001{enter}SHS-0002');
      await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
      expect(await within(dialog).findByText('Stock take at Kisumu Shop: 2 devices of 2 found, none missing.')).toBeInTheDocument();
      expect(within(dialog).queryByRole('table')).not.toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Download Report' })).toBeDisabled();
      await user.click(within(dialog).getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });
  });
});
