import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  buildDeviceSwap,
  buildStockDevice,
  buildSwapReply,
  productsReply,
  queryOf,
  swapListCalls,
  swapsReply,
} from '@/features/device-swaps/testing/mock-device-swaps-api';
import { deviceSwapKeys } from '@/features/device-swaps/api/keys';
import type { DeviceSwap, ItemSwapReply } from '@/features/device-swaps/api/types';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { buildTicket } from '@/features/tickets/testing/mock-tickets-api';
import { buildDeviceWarranty } from '@/features/warranties/testing/mock-warranties-api';
import type { Ticket } from '@/features/tickets/api/types';
import { renderApp } from '@/testing/render';

/** SHS-0001, Amina Wanjiru's, given from Kisumu Shop. */
const activity = (overrides: Record<string, unknown> = {}) => ({
  data: {
    device_info: {
      serial_number: 'SHS-0001',
      product_name: 'Solar Home 50W',
      product_oem: 'SunKing',
      status: 'assigned',
      customer_name: 'Amina Wanjiru',
      customer_id: 11,
      token_count: 6,
      is_assigned: true,
      assigned_at: '2026-11-01T10:00:00Z',
      location_name: 'Kisumu Shop',
      warranty: null,
      ...overrides,
    },
    token_history: { items: [], total: 0 },
    payment_history: { items: [], total: 0 },
    message_history: { items: [], total: 0 },
  },
});

const place = (location_id: number, name: string) => ({
  location_id,
  name,
  description: null,
  created_at: '2026-11-01T10:00:00Z',
  counts: { available: 0, maintenance: 0, retired: 0, given_out: 0, in_stock: 0 },
  products: [],
});

/**
 * Devices in stock as GET /products lists them for `status=unassigned`: SHS-0042 and SHS-0043 are available,
 * SHS-0050 is in maintenance (unassigned too, but no replacement), and the device itself is never offered.
 */
const STOCK = [
  buildStockDevice(),
  buildStockDevice({ item_id: 43, serial_number: 'SHS-0043', product_name: 'Lantern', location_id: null, location_name: null }),
  buildStockDevice({ item_id: 50, serial_number: 'SHS-0050', status: 'maintenance' }),
  buildStockDevice({ item_id: 1, serial_number: 'SHS-0001' }),
];

/** The device page over the API: `swap` answers POST /items/swap, `swaps` GET /device-swaps; stock, places and the rest as above. */
function mockDevicePage({
  device = {},
  swap = () => jsonResponse(201, buildSwapReply()),
  swaps = [],
  tickets = [],
}: { device?: Record<string, unknown>; swap?: (c: RecordedCall) => Response; swaps?: DeviceSwap[]; tickets?: Ticket[] } = {}) {
  return mockFetch((c) => {
    if (c.url.startsWith('/payg/tickets?')) {
      return jsonResponse(200, { data: { items: tickets, pagination: { total: tickets.length, total_pages: 1, page: 1, limit: 25 }, counts: { open: tickets.length, in_progress: 0, resolved: 0 } } });
    }
    if (c.method === 'POST' && c.url === '/payg/items/swap') return swap(c);
    if (c.url.startsWith('/payg/devices/')) return jsonResponse(200, activity(device));
    if (c.url.startsWith('/payg/device-swaps?')) return swapsReply(c, swaps);
    if (c.url.startsWith('/payg/products?')) {
      const search = (queryOf(c).get('search') ?? '').toLowerCase();
      return productsReply(STOCK.filter((d) => `${d.serial_number} ${d.product_name}`.toLowerCase().includes(search)));
    }
    if (c.url === '/payg/stock-locations') return jsonResponse(200, { data: [place(3, 'Kisumu Shop'), place(7, 'Nairobi Workshop')], unplaced: { counts: {}, products: [] } });
    return jsonResponse(200, { data: [] });
  });
}

async function openDevicePage(role: 'owner' | 'admin' | 'staff' = 'owner') {
  seedSession({ user: buildUser({ role }) });
  const view = renderApp('/device-activity/SHS-0001');
  await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
  return view;
}

const user = () => userEvent.setup();

/** Opens Swap Device and picks `serial` as the replacement, once the server has searched what is typed in its box. */
async function openSwap(u: ReturnType<typeof userEvent.setup>, calls: RecordedCall[], search: string, serial: string) {
  await u.click(screen.getByRole('button', { name: 'Swap Device' }));
  const dialog = await screen.findByRole('dialog', { name: 'Swap Device' });
  await u.type(within(dialog).getByRole('combobox', { name: /Replacement device/ }), search);
  await waitFor(() => expect(calls.some((c) => c.url.startsWith('/payg/products?') && queryOf(c).get('search') === search)).toBe(true));
  await u.click(await screen.findByRole('option', { name: new RegExp(`^${serial}`) }, { timeout: 3000 }));
  return dialog;
}

const sentSwaps = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/payg/items/swap').map((c) => JSON.parse(c.body!) as unknown);

describe('Device Activity: Swap Device', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("answers the device's one open fault ticket, chosen for the user among its open tickets: its id goes with the swap", async () => {
    const u = user();
    const fault = buildTicket({ ticket_id: 31, serial_number: 'SHS-0001', category: 'device_fault', status: 'open', description: 'Does not charge' });
    const install = buildTicket({ ticket_id: 32, serial_number: 'SHS-0001', category: 'installation', status: 'in_progress', description: 'Panel on the roof' });
    const { calls } = mockDevicePage({ tickets: [fault, install] });
    await openDevicePage();
    const dialog = await openSwap(u, calls, 'SHS-0042', 'SHS-0042');
    expect(calls.some((c) => c.url.startsWith('/payg/tickets?') && queryOf(c).get('serial_number') === 'SHS-0001' && queryOf(c).get('status') === 'active')).toBe(true);
    const ticket = await within(dialog).findByRole('combobox', { name: 'Service ticket' });
    await waitFor(() => expect(ticket).toHaveValue('#31 · Device fault: Does not charge'));
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Battery gone');
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    await screen.findByRole('dialog', { name: 'Device Swapped' });
    expect(sentSwaps(calls)).toEqual([
      { item_serial_number: 'SHS-0001', new_serial_number: 'SHS-0042', reason: 'Battery gone', lock: true, status: 'maintenance', ticket_id: 31 },
    ]);
  });

  it('offers Swap Device to owners and admins for a device someone has, not to staff nor for a device in stock', async () => {
    mockDevicePage();
    await openDevicePage('owner');
    expect(screen.getByRole('button', { name: 'Swap Device' })).toBeInTheDocument();
    cleanup();

    mockDevicePage();
    await openDevicePage('admin');
    expect(screen.getByRole('button', { name: 'Swap Device' })).toBeInTheDocument();
    cleanup();

    mockDevicePage();
    await openDevicePage('staff');
    expect(screen.queryByRole('button', { name: 'Swap Device' })).not.toBeInTheDocument();
    cleanup();

    mockDevicePage({ device: { is_assigned: false, status: 'available', customer_name: null, customer_id: null } });
    await openDevicePage('owner');
    expect(screen.queryByRole('button', { name: 'Swap Device' })).not.toBeInTheDocument();
  });

  it('asks for a replacement in stock and a reason, sends the swap, and shows both codes and what moved', async () => {
    const u = user();
    const { calls, fn } = mockDevicePage();
    const { router } = await openDevicePage();
    await u.click(screen.getByRole('button', { name: 'Swap Device' }));
    const dialog = await screen.findByRole('dialog', { name: 'Swap Device' });
    expect(dialog).toHaveTextContent(/Amina Wanjiru's account moves to the replacement: what they paid and the days they have left/);
    expect(within(dialog).getByRole('checkbox', { name: /Lock the old device with a code/ })).toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Stock location' })).toHaveValue('Kisumu Shop (given from there)');

    // Nothing is sent without a replacement and a reason.
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    expect(within(dialog).getByText('Choose the device that replaces it')).toBeInTheDocument();
    expect(within(dialog).getByText('Say why this device is swapped')).toBeInTheDocument();
    expect(sentSwaps(calls)).toEqual([]);

    // Only devices available and given to nobody are offered, the device itself never; the server searches as the user types.
    const box = within(dialog).getByRole('combobox', { name: /Replacement device/ });
    await u.type(box, 'SHS-00');
    await waitFor(() => expect(calls.some((c) => c.url === '/payg/products?page=1&limit=20&search=SHS-00&status=unassigned')).toBe(true));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['SHS-0042Solar Home 50W · Kisumu Shop', 'SHS-0043Lantern']));
    await u.click(screen.getByRole('option', { name: /^SHS-0042/ }));
    expect(box).toHaveValue('SHS-0042');
    expect(within(dialog).queryByText('Choose the device that replaces it')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Solar Home 50W · at Kisumu Shop')).toBeInTheDocument();

    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Battery fails after an hour');
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    const done = await screen.findByRole('dialog', { name: 'Device Swapped' });
    // Where the old device was given from, it stays: location_id is left out.
    expect(sentSwaps(calls)).toEqual([
      { item_serial_number: 'SHS-0001', new_serial_number: 'SHS-0042', reason: 'Battery fails after an hour', lock: true, status: 'maintenance' },
    ]);
    expect(done).toHaveTextContent("SHS-0042 is now Amina Wanjiru's, with their account. SHS-0001 is in maintenance.");
    const code = within(done).getByText('Enter this code on SHS-0042').closest('.mantine-Alert-root') as HTMLElement;
    expect(within(code).getByText('111 222 333')).toBeInTheDocument();
    expect(within(code).getByText('Set Time: 13 days')).toBeInTheDocument();
    const lock = within(done).getByText('Enter this code on SHS-0001 to lock it').closest('.mantine-Alert-root') as HTMLElement;
    expect(within(lock).getByText('444 555 666')).toBeInTheDocument();
    expect(within(done).getByRole('group', { name: 'Total Paid Moved' })).toHaveTextContent(/2,400\.00/);
    expect(within(done).getByRole('group', { name: 'Days Moved' })).toHaveTextContent('13 days');

    // The replacement's page is one click away; going there closes the result.
    const open = within(done).getByRole('link', { name: 'Open SHS-0042' });
    expect(open).toHaveAttribute('href', '/device-activity/SHS-0042');
    const reads = fn.mock.calls.length;
    await u.click(open);
    await waitFor(() => expect(router.state.location.pathname).toBe('/device-activity/SHS-0042'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Device Swapped' })).not.toBeInTheDocument());
    expect(fn.mock.calls.length).toBeGreaterThan(reads);
  });

  it('sends lock false, Retired and the chosen place, and says when the old device was not locked and the replacement was unlocked', async () => {
    const u = user();
    const { calls } = mockDevicePage({
      swap: () =>
        jsonResponse(
          201,
          buildSwapReply({
            new_serial_number: 'SHS-0043',
            token: { token: '777888999', token_count: 1, token_type: 'unlock', days: 0 },
            lock_token: null,
            paid_off: true,
            days_moved: 0,
            status: 'retired',
            location_id: 7,
            location_name: 'Nairobi Workshop',
          }),
        ),
    });
    await openDevicePage();
    const dialog = await openSwap(u, calls, 'lantern', 'SHS-0043');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Panel cracked in transport');
    await u.click(within(dialog).getByRole('checkbox', { name: /Lock the old device with a code/ }));
    await u.click(within(dialog).getByText('Retired'));
    await u.click(within(dialog).getByRole('combobox', { name: 'Stock location' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Kisumu Shop (given from there)', 'Nairobi Workshop', 'Not placed']);
    await u.click(screen.getByRole('option', { name: 'Nairobi Workshop' }));
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    const done = await screen.findByRole('dialog', { name: 'Device Swapped' });
    expect(sentSwaps(calls)).toEqual([
      { item_serial_number: 'SHS-0001', new_serial_number: 'SHS-0043', reason: 'Panel cracked in transport', lock: false, status: 'retired', location_id: 7 },
    ]);
    expect(done).toHaveTextContent('SHS-0001 is retired at Nairobi Workshop.');
    expect(within(done).getByText('777 888 999')).toBeInTheDocument();
    expect(within(done).getByText('Unlock (paid off)')).toBeInTheDocument();
    expect(within(done).getByText('SHS-0001 was not locked.')).toBeInTheDocument();
    expect(within(done).getByRole('group', { name: 'Days Moved' })).toHaveTextContent('Paid off');

    await u.click(within(done).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Device Swapped' })).not.toBeInTheDocument());
  });

  it("sends location_id null for Not placed, and says no code was needed when the account had no days left", async () => {
    const u = user();
    const reply: ItemSwapReply = buildSwapReply({ token: null, days_moved: 0, credit_until: null });
    const { calls } = mockDevicePage({ swap: () => jsonResponse(201, reply) });
    await openDevicePage();
    const dialog = await openSwap(u, calls, '42', 'SHS-0042');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Does not charge');
    await u.click(within(dialog).getByRole('combobox', { name: 'Stock location' }));
    await u.click(screen.getByRole('option', { name: 'Not placed' }));
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    const done = await screen.findByRole('dialog', { name: 'Device Swapped' });
    expect(sentSwaps(calls)).toEqual([
      { item_serial_number: 'SHS-0001', new_serial_number: 'SHS-0042', reason: 'Does not charge', lock: true, status: 'maintenance', location_id: null },
    ]);
    expect(within(done).getByText('No code needed')).toBeInTheDocument();
    expect(done).toHaveTextContent('The account had no days left: SHS-0042 stays off until the next payment.');
    expect(within(done).getByText('444 555 666')).toBeInTheDocument();
  });

  it("says the faulty device's warranty before the swap and in its result, and nothing of one when its product has none", async () => {
    const u = user();
    const warranty = buildDeviceWarranty();
    const { calls } = mockDevicePage({ device: { warranty }, swap: () => jsonResponse(201, buildSwapReply({ warranty })) });
    await openDevicePage();
    const dialog = await openSwap(u, calls, 'SHS-0042', 'SHS-0042');
    const before = within(dialog).getByRole('group', { name: 'Warranty of SHS-0001' });
    expect(before).toHaveTextContent(`In warranty until ${formatDate(warranty.until)}`);
    expect(before).toHaveTextContent(`12 months from ${formatDate(warranty.starts_at)}`);
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Battery fails after an hour');
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    const done = await screen.findByRole('dialog', { name: 'Device Swapped' });
    expect(within(done).getByRole('group', { name: 'Warranty of SHS-0001' })).toHaveTextContent(`In warranty until ${formatDate(warranty.until)}`);
    cleanup();

    const none = mockDevicePage();
    await openDevicePage();
    const plain = await openSwap(u, none.calls, 'SHS-0042', 'SHS-0042');
    expect(within(plain).queryByRole('group', { name: /^Warranty of/ })).not.toBeInTheDocument();
    await u.type(within(plain).getByRole('textbox', { name: 'Reason' }), 'Battery fails after an hour');
    await u.click(within(plain).getByRole('button', { name: 'Swap Device' }));
    const result = await screen.findByRole('dialog', { name: 'Device Swapped' });
    expect(within(result).queryByRole('group', { name: /^Warranty of/ })).not.toBeInTheDocument();
    expect(result).not.toHaveTextContent(/warranty/i);
  });

  it("shows the API's refusal in the modal, and keeps what was entered", async () => {
    const u = user();
    const refusal = 'Device SHS-0042 is assigned to Brian Otieno: the replacement must be a device in stock';
    const { calls } = mockDevicePage({ swap: () => jsonResponse(409, { detail: refusal, message: refusal }) });
    await openDevicePage();
    const dialog = await openSwap(u, calls, 'SHS-0042', 'SHS-0042');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Battery fails after an hour');
    await u.click(within(dialog).getByRole('button', { name: 'Swap Device' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByRole('dialog', { name: 'Device Swapped' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveValue('Battery fails after an hour');
    expect(within(dialog).getByRole('combobox', { name: /Replacement device/ })).toHaveValue('SHS-0042');
  });
});

describe('Device Activity: Device Swaps card', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the device's swaps, either side, newest first: the other device and the customer linked, this one not", async () => {
    const { calls } = mockDevicePage({
      swaps: [
        buildDeviceSwap({ swap_id: 6, old_serial_number: 'SHS-0042', new_serial_number: 'SHS-0001', swapped_at: '2026-11-28T09:30:00Z', days_moved: 1, paid_off: true, old_status: 'retired', lock_token_count: null, swapped_by: null, reason: 'Replacement faulty too' }),
        buildDeviceSwap(),
      ],
    });
    await openDevicePage();
    const card = await screen.findByRole('region', { name: 'Device Swaps' });
    expect(swapListCalls(calls)[0]).toBe('/payg/device-swaps?page=1&limit=10&serial_number=SHS-0001');
    expect(within(card).getByText(/^2 swaps/)).toBeInTheDocument();
    const table = within(card).getByRole('table', { name: 'Device Swaps' });
    const [head, newer, older] = within(table).getAllByRole('row');
    expect(within(head!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Date', 'Old → New', 'Customer', 'Days Moved', 'Paid Off', 'Warranty', 'By', 'Reason']);

    expect(within(older!).getByRole('link', { name: 'SHS-0042' })).toHaveAttribute('href', '/device-activity/SHS-0042');
    expect(within(older!).queryByRole('link', { name: 'SHS-0001' })).not.toBeInTheDocument();
    expect(within(older!).getByText('SHS-0001')).toBeInTheDocument();
    expect(within(older!).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/11');
    expect(older).toHaveTextContent(/Old one to maintenance · locked.*13 days.*No.*amina.*Battery fails after an hour/);
    expect(within(older!).getByText(formatDate('2026-11-25T09:30:00Z', true))).toBeInTheDocument();

    expect(within(newer!).getByRole('link', { name: 'SHS-0042' })).toHaveAttribute('href', '/device-activity/SHS-0042');
    expect(newer).toHaveTextContent(/Old one retired · not locked.*1 day.*Paid off.*—.*Replacement faulty too/);
  });

  it('says whether the old device was in warranty on the day of the swap, and nothing when its product had none set', async () => {
    mockDevicePage({
      swaps: [
        buildDeviceSwap({ swap_id: 7, swapped_at: '2026-11-28T09:30:00Z', warranty_until: '2027-11-01T10:00:00Z', in_warranty: true, reason: 'Inverter dead' }),
        buildDeviceSwap({ swap_id: 6, swapped_at: '2026-11-27T09:30:00Z', warranty_until: '2026-06-01T10:00:00Z', in_warranty: false, reason: 'Panel cracked' }),
        buildDeviceSwap(),
      ],
    });
    await openDevicePage();
    const table = within(await screen.findByRole('region', { name: 'Device Swaps' })).getByRole('table', { name: 'Device Swaps' });
    const [head, covered, ended, none] = within(table).getAllByRole('row');
    const warrantyCell = (row: HTMLElement) => within(row).getAllByRole('cell')[within(head!).getAllByRole('columnheader').findIndex((h) => h.textContent === 'Warranty')]!;
    const inWarranty = within(warrantyCell(covered!)).getByText('In warranty');
    expect(inWarranty.closest('.mantine-Badge-root')).toHaveAttribute('data-variant', 'light');
    expect(inWarranty.closest('.mantine-Badge-root')!.getAttribute('style')).toMatch(/green/);
    expect(warrantyCell(covered!)).toHaveTextContent(`In warrantyuntil ${formatDate('2027-11-01T10:00:00Z')}`);
    expect(within(warrantyCell(ended!)).getByText('Out of warranty').closest('.mantine-Badge-root')!.getAttribute('style')).toMatch(/gray/);
    expect(warrantyCell(ended!)).toHaveTextContent(`Out of warrantysince ${formatDate('2026-06-01T10:00:00Z')}`);
    expect(warrantyCell(none!)).toHaveTextContent(/^$/);
  });

  it('is not there when the device was never swapped', async () => {
    const { calls } = mockDevicePage();
    const { queryClient } = await openDevicePage();
    // The list has answered, with no swap: the page stays without the card.
    await waitFor(() => expect(queryClient.getQueriesData({ queryKey: deviceSwapKeys.lists() }).some(([, data]) => data !== undefined)).toBe(true));
    expect(swapListCalls(calls)).toEqual(['/payg/device-swaps?page=1&limit=10&serial_number=SHS-0001']);
    expect(screen.queryByRole('region', { name: 'Device Swaps' })).not.toBeInTheDocument();
  });
});
