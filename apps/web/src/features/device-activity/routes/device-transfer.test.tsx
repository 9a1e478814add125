import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ItemTransferReply, Transferred } from '@kidogo/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const plan = { template_id: 4, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false };

/** SHS-0001, Amina Wanjiru's (customer 11): KES 2,400.00 paid, credit until 12 Dec 2026, on Daily 50. */
const activity = (overrides: Record<string, unknown> = {}) => ({
  data: {
    device_info: {
      serial_number: 'SHS-0001',
      product_name: 'Solar Home 50W',
      product_oem: 'SunKing',
      manufacturer: null,
      status: 'assigned',
      customer_name: 'Amina Wanjiru',
      customer_id: 11,
      token_count: 6,
      is_assigned: true,
      assigned_at: '2026-11-01T10:00:00Z',
      price: '20000.00',
      total_paid: '2400.00',
      credit_until: '2026-12-12T10:00:00Z',
      payment_plan: plan,
      location_name: null,
      repayment: { expected_by_today: '2400.00', paid_towards: '2400.00', repaid_share: 100, standing: 'on_track' },
      warranty: null,
      remaining: '17600.00',
      discount: '0.00',
      brought_over: null,
      transferred: null,
      ...overrides,
    },
    token_history: { items: [], total: 0 },
    payment_history: { items: [], total: 0 },
    message_history: { items: [], total: 0 },
  },
});

const customer = (customer_id: number, customer_name: string, phone_contact: string, status = 'active') => ({
  customer_id,
  customer_name,
  phone_contact,
  id_number: `ID-${customer_id}`,
  county: 'Kisumu',
  status,
});

/** The organization's customers: the holder herself, her son, a neighbour, and one whose data was erased. */
const CUSTOMERS = [
  customer(11, 'Amina Wanjiru', '0711000011'),
  customer(12, 'Joseph Heir', '0711000012'),
  customer(13, 'Josephine Otieno', '0711000013'),
  customer(14, 'Erased customer', '', 'erased'),
];

const transferred: Transferred = {
  from_customer_id: 11,
  from_customer_name: 'Amina Wanjiru',
  paid: '2400.00',
  transferred_at: '2026-12-02T09:30:00Z',
  transferred_by: 'demo',
  reason: 'The customer died; his son pays on',
};

const reply = (): ItemTransferReply =>
  ({
    message: "Device SHS-0001's account transferred from Amina Wanjiru to Joseph Heir",
    from: { customer_id: 11, customer_name: 'Amina Wanjiru' },
    to: { customer_id: 12, customer_name: 'Joseph Heir' },
    paid_before: '2400.00',
    template_id: 4,
    template_name: 'Daily 50',
    item: { serial_number: 'SHS-0001' },
  }) as unknown as ItemTransferReply;

const REFUSAL =
  'customer_id: Joseph Heir is Far behind: paid 0.00 of the 7,350.00 expected by today. An owner or admin can give it anyway with a reason (override_reason).';

/**
 * The device page over the API: `transfer` answers POST /items/transfer; once one has succeeded, the device is
 * Joseph Heir's, taken over from Amina Wanjiru.
 */
function mockDevicePage({
  device = {},
  transfer = () => jsonResponse(201, reply()),
}: { device?: Record<string, unknown>; transfer?: (c: RecordedCall, n: number) => Response } = {}) {
  let done = false;
  let posts = 0;
  return mockFetch((c) => {
    if (c.method === 'POST' && c.url === '/payg/items/transfer') {
      const res = transfer(c, ++posts);
      if (res.status === 201) done = true;
      return res;
    }
    if (c.url.startsWith('/payg/devices/')) {
      return jsonResponse(200, activity(done ? { customer_id: 12, customer_name: 'Joseph Heir', transferred, ...device } : device));
    }
    if (c.url.startsWith('/payg/registered-customers?')) {
      const term = (new URL(c.url, 'http://x').searchParams.get('search_term') ?? '').toLowerCase();
      const found = CUSTOMERS.filter((x) => x.customer_name.toLowerCase().includes(term));
      return jsonResponse(200, { data: found, pagination: { total: found.length, total_pages: 1, limit: 50, offset: 0 } });
    }
    if (c.url.startsWith('/payg/payments?')) return jsonResponse(200, { data: [{ currency: 'KES' }] });
    return jsonResponse(200, { data: [] });
  });
}

async function openDevicePage(role: 'owner' | 'admin' | 'staff' = 'owner') {
  seedSession({ user: buildUser({ role }) });
  const view = renderApp('/device-activity/SHS-0001');
  await screen.findByRole('region', { name: 'Device Information' }, { timeout: 10_000 });
  return view;
}

const user = () => userEvent.setup();

const sentTransfers = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/items/transfer').map((c) => JSON.parse(c.body!) as unknown);

async function openTransfer(u: ReturnType<typeof userEvent.setup>) {
  await u.click(await screen.findByRole('button', { name: 'Transfer Account' }));
  return screen.findByRole('dialog', { name: 'Transfer Account' });
}

/** Types `search` in New holder and picks `name` among the customers the server found. */
async function chooseHolder(u: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, calls: RecordedCall[], search: string, name: string) {
  await u.type(within(dialog).getByRole('combobox', { name: /New holder/ }), search);
  await waitFor(() => expect(calls.some((c) => c.url.includes(`search_term=${encodeURIComponent(search)}`))).toBe(true));
  await u.click(await screen.findByRole('option', { name: new RegExp(`^${name}`) }, { timeout: 3000 }));
}

describe('Device Activity: Transfer Account', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers Transfer Account to owners and admins for a device someone has, not to staff nor for a device in stock', async () => {
    mockDevicePage();
    await openDevicePage('owner');
    expect(screen.getByRole('button', { name: 'Transfer Account' })).toBeInTheDocument();
    cleanup();

    mockDevicePage();
    await openDevicePage('admin');
    expect(screen.getByRole('button', { name: 'Transfer Account' })).toBeInTheDocument();
    cleanup();

    mockDevicePage();
    await openDevicePage('staff');
    expect(screen.queryByRole('button', { name: 'Transfer Account' })).not.toBeInTheDocument();
    cleanup();

    mockDevicePage({ device: { is_assigned: false, status: 'available', customer_name: null, customer_id: null, payment_plan: null } });
    await openDevicePage('owner');
    expect(screen.queryByRole('button', { name: 'Transfer Account' })).not.toBeInTheDocument();
  });

  it('says what passes, asks for a new holder other than the one who has it and a reason, and sends nothing without them', async () => {
    const u = user();
    const { calls } = mockDevicePage();
    await openDevicePage();
    const dialog = await openTransfer(u);
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        `Amina Wanjiru's account on SHS-0001 passes to the customer you choose, as it is: KES 2,400.00 paid, its plan Daily 50 and credit until ${formatDate('2026-12-12T10:00:00Z', true)}. No code is needed`,
      ),
    );

    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));
    expect(within(dialog).getByText('Choose the customer who takes the account over')).toBeInTheDocument();
    expect(within(dialog).getByText('Say why the account passes to another customer')).toBeInTheDocument();

    // The holder herself and an erased customer are never offered; the server searches as the user types.
    const box = within(dialog).getByRole('combobox', { name: /New holder/ });
    await u.type(box, 'amina');
    await waitFor(() => expect(calls.some((c) => c.url === '/payg/registered-customers?limit=50&offset=0&search_term=amina&search_field=customer_name')).toBe(true));
    expect(await screen.findByText('No other customer matches')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toEqual([]);
    await u.clear(box);
    await u.type(box, 'e');
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Joseph Heir0711000012 · ID ID-12 · Kisumu', 'Josephine Otieno0711000013 · ID ID-13 · Kisumu']));
    await u.click(screen.getByRole('option', { name: /^Joseph Heir/ }));
    expect(box).toHaveValue('Joseph Heir');
    expect(within(dialog).queryByText('Choose the customer who takes the account over')).not.toBeInTheDocument();
    expect(box).toHaveAccessibleDescription('0711000012 · ID ID-12 · Kisumu');

    // A reason of 2 characters is not one.
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'ok');
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));
    expect(within(dialog).getByText('Say why the account passes to another customer')).toBeInTheDocument();
    expect(sentTransfers(calls)).toEqual([]);
  });

  it('sends the transfer, says so in a green notification, closes and shows the new holder and where the account came from', async () => {
    const u = user();
    const { calls } = mockDevicePage();
    await openDevicePage();
    const dialog = await openTransfer(u);
    await chooseHolder(u, dialog, calls, 'jos', 'Joseph Heir');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'The customer died; his son pays on');
    const reads = calls.filter((c) => c.url.startsWith('/payg/devices/')).length;
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));

    const note = await screen.findByText("Device SHS-0001's account transferred from Amina Wanjiru to Joseph Heir");
    expect(note.closest('.mantine-Notification-root')!.getAttribute('style')).toMatch(/green/);
    expect(sentTransfers(calls)).toEqual([{ item_serial_number: 'SHS-0001', customer_id: 12, reason: 'The customer died; his son pays on' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Transfer Account' })).not.toBeInTheDocument());

    expect(calls.filter((c) => c.url.startsWith('/payg/devices/')).length).toBeGreaterThan(reads);
    const card = screen.getByRole('region', { name: 'Device Information' });
    await waitFor(() => expect(within(card).getByRole('link', { name: 'Joseph Heir' })).toHaveAttribute('href', '/customer-payment-details/12'));
    expect(within(card).getByLabelText('Taken over')).toHaveTextContent('Taken over from Amina Wanjiru');
  });

  it("shows the follow-on sales rule's refusal with an Override reason, and sends it with the second try", async () => {
    const u = user();
    const { calls } = mockDevicePage({
      transfer: (_c, n) => (n === 1 ? jsonResponse(409, { message: REFUSAL, detail: REFUSAL }) : jsonResponse(201, reply())),
    });
    await openDevicePage();
    const dialog = await openTransfer(u);
    await chooseHolder(u, dialog, calls, 'jos', 'Joseph Heir');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'The customer died; his son pays on');
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));

    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent('The follow-on sales rule refuses this customer');
    expect(refusal).toHaveTextContent('Joseph Heir is Far behind: paid 0.00 of the 7,350.00 expected by today.');
    const override = within(refusal).getByRole('textbox', { name: /Override reason/ });

    // Without a reason to override, nothing more is sent.
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));
    expect(within(dialog).getByText('Say why this customer takes the account on anyway')).toBeInTheDocument();
    expect(sentTransfers(calls)).toHaveLength(1);

    await u.type(override, 'The family paid the arrears in cash');
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));
    await screen.findByText("Device SHS-0001's account transferred from Amina Wanjiru to Joseph Heir");
    expect(sentTransfers(calls)).toEqual([
      { item_serial_number: 'SHS-0001', customer_id: 12, reason: 'The customer died; his son pays on' },
      { item_serial_number: 'SHS-0001', customer_id: 12, reason: 'The customer died; his son pays on', override_reason: 'The family paid the arrears in cash' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Transfer Account' })).not.toBeInTheDocument());
  });

  it("shows any other refusal above the form and keeps what was entered; choosing another customer drops a rule's refusal", async () => {
    const u = user();
    const refused = "Customer 12's data was erased: nothing can be given to them";
    const { calls } = mockDevicePage({
      transfer: (c) => {
        const body = JSON.parse(c.body!) as { customer_id: number };
        return body.customer_id === 13 ? jsonResponse(409, { message: refused, detail: refused }) : jsonResponse(409, { message: REFUSAL, detail: REFUSAL });
      },
    });
    await openDevicePage();
    const dialog = await openTransfer(u);
    await chooseHolder(u, dialog, calls, 'jos', 'Joseph Heir');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Sold it to a neighbour');
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));
    await within(dialog).findByRole('textbox', { name: /Override reason/ });

    await u.clear(within(dialog).getByRole('combobox', { name: /New holder/ }));
    await chooseHolder(u, dialog, calls, 'josephine', 'Josephine Otieno');
    expect(within(dialog).queryByRole('textbox', { name: /Override reason/ })).not.toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Transfer Account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refused);
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveValue('Sold it to a neighbour');
    expect(sentTransfers(calls)).toEqual([
      { item_serial_number: 'SHS-0001', customer_id: 12, reason: 'Sold it to a neighbour' },
      { item_serial_number: 'SHS-0001', customer_id: 13, reason: 'Sold it to a neighbour' },
    ]);
  });

  it("says on the device's information when its account was taken over from another customer, with a link to them, and nothing otherwise", async () => {
    mockDevicePage({ device: { customer_id: 12, customer_name: 'Joseph Heir', transferred } });
    const view = await openDevicePage();
    let card = screen.getByRole('region', { name: 'Device Information' });
    const line = within(card).getByLabelText('Taken over');
    expect(line).toHaveTextContent(`Taken over from Amina Wanjiru on ${formatDate(transferred.transferred_at)}: KES 2,400.00 paid before — The customer died; his son pays on`);
    expect(within(line).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/11');
    view.unmount();

    mockDevicePage();
    await openDevicePage();
    card = screen.getByRole('region', { name: 'Device Information' });
    expect(card).not.toHaveTextContent(/taken over/i);
  });
});
