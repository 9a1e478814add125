import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceDiscount, ItemDiscountReply } from '@kidogo/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const plan = { template_id: 4, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false };

/** SHS-0001, Amina Wanjiru's, KES 17,600.00 left to pay on it. */
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
      credit_until: null,
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

const buildDiscount = (overrides: Partial<DeviceDiscount> = {}): DeviceDiscount => ({
  discount_id: 1,
  serial_number: 'SHS-0001',
  customer_id: 11,
  customer_name: 'Amina Wanjiru',
  amount: '2600.00',
  currency: 'KES',
  reason: 'Paying off early this month',
  remaining_before: '17600.00',
  remaining_after: '15000.00',
  unlock_token_count: null,
  given_by: 'amina',
  given_at: '2026-12-01T09:30:00Z',
  voided_at: null,
  voided_by: null,
  void_reason: null,
  ...overrides,
});

const partReply: ItemDiscountReply = {
  message: 'KES 2,600.00 taken off SHS-0001: KES 15,000.00 left to pay',
  discount: buildDiscount(),
  payoff: '17400.00',
  remaining: '15000.00',
  paid_off: false,
  unlock_token: null,
};

const allReply: ItemDiscountReply = {
  message: 'KES 17,600.00 taken off SHS-0001: it is paid off; enter the unlock code on the device',
  discount: buildDiscount({ amount: '17600.00', remaining_after: '0.00', unlock_token_count: 7 }),
  payoff: '2400.00',
  remaining: '0.00',
  paid_off: true,
  unlock_token: { token: '123456789', token_count: 7 },
};

/** The device page over the API: `discount` answers POST /items/discount; the list answers `discounts()` (what was given so far). */
function mockDevicePage({
  device = {},
  discount = () => jsonResponse(201, partReply),
  discounts = () => [],
  voided = () => jsonResponse(200, {}),
}: {
  /** The device's fields over the defaults; a function for a device that changes (read on each call). */
  device?: Record<string, unknown> | (() => Record<string, unknown>);
  discount?: (c: RecordedCall) => Response;
  discounts?: () => DeviceDiscount[];
  voided?: (c: RecordedCall) => Response;
} = {}) {
  return mockFetch((c) => {
    if (c.method === 'POST' && c.url === '/payg/items/discount') return discount(c);
    if (c.method === 'POST' && c.url.startsWith('/payg/items/discounts/')) return voided(c);
    if (c.url === '/payg/items/SHS-0001/discounts') {
      const data = discounts();
      return jsonResponse(200, { data, total: data.reduce((sum, d) => sum + Number(d.amount), 0).toFixed(2) });
    }
    if (c.url.startsWith('/payg/devices/')) return jsonResponse(200, activity(typeof device === 'function' ? device() : device));
    return jsonResponse(200, { data: [] });
  });
}

async function openDevicePage(role: 'owner' | 'admin' | 'staff' = 'owner') {
  seedSession({ user: buildUser({ role }) });
  const view = renderApp('/device-activity/SHS-0001');
  await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
  return view;
}

async function openDiscount(u: ReturnType<typeof userEvent.setup>) {
  await u.click(screen.getByRole('button', { name: 'Give Discount' }));
  return screen.findByRole('dialog', { name: 'Give Discount' });
}

const sentDiscounts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/payg/items/discount').map((c) => JSON.parse(c.body!) as unknown);

describe('Device Activity: Give Discount', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes an amount off what is left to pay: says what is left after, sends it, says so and lists it', async () => {
    const u = userEvent.setup();
    let given: DeviceDiscount[] = [];
    const { calls } = mockDevicePage({
      discount: () => {
        given = [buildDiscount()];
        return jsonResponse(201, partReply);
      },
      discounts: () => given,
    });
    await openDevicePage('owner');
    // Nothing given yet: no Discounts section.
    expect(screen.queryByRole('region', { name: 'Discounts' })).not.toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Device Information' });
    expect(within(within(card).getByText('Left to Pay').parentElement!).getByText('KES 17,600.00')).toBeInTheDocument();
    expect(within(card).queryByText('Discount')).not.toBeInTheDocument();

    const dialog = await openDiscount(u);
    expect(dialog).toHaveTextContent('Take an amount off what Amina Wanjiru has left to pay on SHS-0001');
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    expect(within(dialog).getByText('At most KES 17,600.00, what is left to pay')).toBeInTheDocument();
    expect(within(dialog).getByPlaceholderText('e.g. Paying off early this month')).toBeInTheDocument();
    await u.type(amount, '2600');
    expect(within(dialog).getByText('Left to pay after: KES 15,000.00')).toBeInTheDocument();
    expect(within(dialog).queryByText(/This pays the device off/)).not.toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Paying off early this month');
    const reads = calls.filter((c) => c.url.startsWith('/payg/devices/')).length;
    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Give Discount' })).not.toBeInTheDocument());
    expect(sentDiscounts(calls)).toEqual([{ item_serial_number: 'SHS-0001', amount: '2600.00', reason: 'Paying off early this month' }]);
    expect(await screen.findByText('KES 2,600.00 taken off SHS-0001: KES 15,000.00 left to pay')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/devices/')).length).toBeGreaterThan(reads));

    // The discounts are read again: the one given is listed.
    const section = await screen.findByRole('region', { name: 'Discounts' });
    expect(within(section).getByText('1 discount: KES 2,600.00 off on the present account')).toBeInTheDocument();
    const table = within(section).getByRole('table', { name: 'Discounts' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Given', 'Amount', 'Left Before', 'Left After', 'Reason', 'Given By', 'Customer', 'Actions']);
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getAllByRole('cell').map((c) => c.textContent).slice(1)).toEqual([
      'KES 2,600.00',
      'KES 17,600.00',
      'KES 15,000.00',
      'Paying off early this month',
      'amina',
      'Amina Wanjiru',
      'Void',
    ]);
    expect(within(row!).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/11');
  });

  it('all that is left pays the device off: it says so before, then shows the unlock code until Done', async () => {
    const u = userEvent.setup();
    let device: Record<string, unknown> = {};
    const { calls } = mockDevicePage({
      device: () => device,
      discount: () => {
        device = { remaining: '0.00', discount: '17600.00', repayment: { expected_by_today: '2400.00', paid_towards: '2400.00', repaid_share: 100, standing: 'paid_off' } };
        return jsonResponse(201, allReply);
      },
    });
    await openDevicePage('admin');
    const dialog = await openDiscount(u);
    await u.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '17600');
    expect(within(dialog).getByText('Left to pay after: KES 0.00')).toBeInTheDocument();
    expect(within(dialog).getByText('This pays the device off: it unlocks for good, with a code to enter on it.')).toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Paid off early: the rest forgiven');
    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));

    const done = await screen.findByRole('dialog', { name: 'Device Paid Off' });
    expect(sentDiscounts(calls)).toEqual([{ item_serial_number: 'SHS-0001', amount: '17600.00', reason: 'Paid off early: the rest forgiven' }]);
    expect(done).toHaveTextContent("KES 17,600.00 taken off SHS-0001: it is paid off, Amina Wanjiru's for good.");
    const code = within(done).getByText('Enter this code on the device to unlock it for good').closest('.mantine-Alert-root') as HTMLElement;
    expect(within(code).getByText('123 456 789')).toBeInTheDocument();
    expect(within(code).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(within(code).getByText(/Token count 7\./)).toBeInTheDocument();
    expect(within(done).getByRole('group', { name: 'Discount' })).toHaveTextContent('KES 17,600.00');
    expect(within(done).getByRole('group', { name: 'Left to Pay' })).toHaveTextContent('KES 0.00');
    // The page reads the device again, paid off now: Give Discount is gone, and the code stays on screen.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Give Discount' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Device Paid Off' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Device Information' })).getByText('Discount')).toBeInTheDocument();

    await u.click(within(done).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Device Paid Off' })).not.toBeInTheDocument());
  });

  it("puts the API's word on the amount under the Amount field", async () => {
    const u = userEvent.setup();
    const { calls } = mockDevicePage({
      discount: () =>
        jsonResponse(400, {
          detail: 'amount: must be at most 17500.00, what is left to pay on SHS-0001',
          message: 'amount: must be at most 17500.00, what is left to pay on SHS-0001',
          errors: [{ field: 'amount', message: 'must be at most 17500.00, what is left to pay on SHS-0001' }],
        }),
    });
    await openDevicePage();
    const dialog = await openDiscount(u);
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    await u.type(amount, '17600');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Goodwill: down for weeks');
    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));

    const error = await within(dialog).findByText('Amount must be at most 17500.00, what is left to pay on SHS-0001');
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount.getAttribute('aria-describedby')).toContain(error.id);
    // Not in a red box as well.
    expect(within(dialog).queryByText('Failed to give the discount')).not.toBeInTheDocument();
    expect(sentDiscounts(calls)).toHaveLength(1);
    // Typing again clears it.
    await u.clear(amount);
    await u.type(amount, '17500');
    expect(within(dialog).queryByText(/Amount must be at most/)).not.toBeInTheDocument();
  });

  it('shows any other refusal in the form, as the API words it', async () => {
    const u = userEvent.setup();
    mockDevicePage({ discount: () => jsonResponse(409, { detail: 'Device SHS-0001 is paid off: there is nothing left to pay on it' }) });
    await openDevicePage();
    const dialog = await openDiscount(u);
    await u.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '100');
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Goodwill');
    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));
    expect(await within(dialog).findByText('Device SHS-0001 is paid off: there is nothing left to pay on it')).toBeInTheDocument();
    expect(within(dialog).getByText('Failed to give the discount')).toBeInTheDocument();
  });

  it('refuses before sending: an amount above what is left, none or 0, and no reason', async () => {
    const u = userEvent.setup();
    const { calls } = mockDevicePage();
    await openDevicePage();
    const dialog = await openDiscount(u);
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });

    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));
    expect(within(dialog).getByText('Amount is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Say why this discount is given, in at least 3 characters')).toBeInTheDocument();

    await u.type(amount, '17600.01');
    // Above what is left: no line of what would be left after.
    expect(within(dialog).queryByText(/Left to pay after/)).not.toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Goodwill');
    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));
    expect(within(dialog).getByText('Amount must be at most KES 17,600.00, what is left to pay')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByText('Say why this discount is given, in at least 3 characters')).not.toBeInTheDocument();

    await u.clear(amount);
    await u.type(amount, '0');
    await u.click(within(dialog).getByRole('button', { name: 'Give Discount' }));
    expect(within(dialog).getByText('Amount must be more than 0')).toBeInTheDocument();
    expect(sentDiscounts(calls)).toEqual([]);
  });

  it('offers Give Discount to owners and admins for a device with something left to pay, not to staff', async () => {
    mockDevicePage();
    await openDevicePage('owner');
    expect(screen.getByRole('button', { name: 'Give Discount' })).toBeInTheDocument();
    cleanup();

    mockDevicePage();
    await openDevicePage('admin');
    expect(screen.getByRole('button', { name: 'Give Discount' })).toBeInTheDocument();
    cleanup();

    mockDevicePage();
    await openDevicePage('staff');
    expect(screen.getByRole('button', { name: 'Generate Token' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Give Discount' })).not.toBeInTheDocument();
    cleanup();

    // Paid off, nothing left, no price to pay off, or given to nobody: none.
    const none = [
      { repayment: { expected_by_today: '20000.00', paid_towards: '20000.00', repaid_share: 100, standing: 'paid_off' }, remaining: '0.00' },
      { remaining: '0.00' },
      { remaining: null },
      { is_assigned: false, status: 'available', customer_name: null, customer_id: null, remaining: null },
    ];
    for (const device of none) {
      mockDevicePage({ device });
      await openDevicePage('owner');
      expect(screen.queryByRole('button', { name: 'Give Discount' })).not.toBeInTheDocument();
      cleanup();
    }
  });

  it("shows what is left to pay and the discounts on the card, and the discount that paid the device off", async () => {
    const paidOff = buildDiscount({ discount_id: 2, amount: '15000.00', remaining_before: '15000.00', remaining_after: '0.00', unlock_token_count: 7, given_by: null, reason: 'Paid off early' });
    mockDevicePage({
      device: { remaining: '0.00', discount: '17600.00', repayment: { expected_by_today: '2400.00', paid_towards: '2400.00', repaid_share: 100, standing: 'paid_off' } },
      discounts: () => [paidOff, buildDiscount()],
    });
    await openDevicePage();
    const card = screen.getByRole('region', { name: 'Device Information' });
    expect(within(within(card).getByText('Left to Pay').parentElement!).getByText('KES 0.00')).toBeInTheDocument();
    expect(within(within(card).getByText('Discount').parentElement!).getByText('KES 17,600.00')).toBeInTheDocument();

    const section = await screen.findByRole('region', { name: 'Discounts' });
    expect(within(section).getByText('2 discounts: KES 17,600.00 off on the present account')).toBeInTheDocument();
    const [, newest, older] = within(within(section).getByRole('table', { name: 'Discounts' })).getAllByRole('row');
    expect(within(newest!).getByText('Paid off')).toBeInTheDocument();
    expect(within(newest!).getByText('—')).toBeInTheDocument();
    expect(within(older!).queryByText('Paid off')).not.toBeInTheDocument();
  });
  it('says which device a discount was given on when the account came from a device a swap replaced', async () => {
    mockDevicePage({ discounts: () => [buildDiscount({ discount_id: 3, serial_number: 'SHS-0000' }), buildDiscount()] });
    await openDevicePage();
    const table = within(await screen.findByRole('region', { name: 'Discounts' })).getByRole('table', { name: 'Discounts' });
    expect(within(table).getByRole('columnheader', { name: 'Device' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'SHS-0000' })).toHaveAttribute('href', '/device-activity/SHS-0000');
    expect(within(table).getByRole('link', { name: 'SHS-0001' })).toBeInTheDocument();
  });

  it('leaves the device out when every discount was given on this one', async () => {
    mockDevicePage({ discounts: () => [buildDiscount()] });
    await openDevicePage();
    const table = within(await screen.findByRole('region', { name: 'Discounts' })).getByRole('table', { name: 'Discounts' });
    expect(within(table).queryByRole('columnheader', { name: 'Device' })).not.toBeInTheDocument();
  });

  it('voids a discount given by mistake: Void asks why, sends it, says so and shows it voided', async () => {
    const u = userEvent.setup();
    let given = [buildDiscount({ discount_id: 5 })];
    const { calls } = mockDevicePage({
      device: () => ({ remaining: given[0]!.voided_at ? '17600.00' : '15000.00', discount: given[0]!.voided_at ? '0.00' : '2600.00' }),
      discounts: () => given,
      voided: () => {
        given = [buildDiscount({ discount_id: 5, voided_at: '2026-12-02T08:00:00Z', voided_by: 'amina', void_reason: 'Given on the wrong device' })];
        return jsonResponse(200, { message: 'Discount of KES 2,600.00 on SHS-0001 voided: KES 17,600.00 left to pay', discount: given[0], remaining: '17600.00' });
      },
    });
    await openDevicePage('owner');
    const card = await screen.findByRole('region', { name: 'Discounts' });
    await u.click(within(card).getByRole('button', { name: 'Void discount of KES 2,600.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void Discount' });
    expect(dialog).toHaveTextContent('Voiding it puts KES 2,600.00 back on what Amina Wanjiru has left to pay on SHS-0001');
    // No reason: nothing is sent.
    await u.click(within(dialog).getByRole('button', { name: 'Void Discount' }));
    expect(within(dialog).getByText('Say why this discount is voided')).toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Given on the wrong device');
    await u.click(within(dialog).getByRole('button', { name: 'Void Discount' }));
    expect(await screen.findByText('Discount of KES 2,600.00 on SHS-0001 voided: KES 17,600.00 left to pay')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/payg/items/discounts/5/void').map((c) => JSON.parse(c.body!) as unknown)).toEqual([
      { reason: 'Given on the wrong device' },
    ]);
    await waitFor(() => expect(within(card).getByText('Voided')).toBeInTheDocument());
    expect(within(card).getByText(/Voided by amina on .*: Given on the wrong device/)).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /^Void discount/ })).not.toBeInTheDocument();
  });

  it('offers Void to owners and admins only, and not for a discount that paid the device off', async () => {
    mockDevicePage({ discounts: () => [buildDiscount()] });
    await openDevicePage('staff');
    const card = await screen.findByRole('region', { name: 'Discounts' });
    expect(within(card).queryByRole('button', { name: /^Void discount/ })).not.toBeInTheDocument();
    cleanup();

    mockDevicePage({
      device: { remaining: '0.00', repayment: { expected_by_today: '20000.00', paid_towards: '20000.00', repaid_share: 100, standing: 'paid_off' } },
      discounts: () => [buildDiscount({ unlock_token_count: 7, remaining_after: '0.00' })],
    });
    await openDevicePage('owner');
    const paid = await screen.findByRole('region', { name: 'Discounts' });
    expect(within(paid).queryByRole('button', { name: /^Void discount/ })).not.toBeInTheDocument();
  });
  it('fills in a share of what is left from the quick amounts, All of it paying the device off', async () => {
    const u = userEvent.setup();
    mockDevicePage();
    await openDevicePage('owner');
    const dialog = await openDiscount(u);
    const quick = within(dialog).getByRole('group', { name: 'Quick amounts' });
    await u.click(within(quick).getByRole('button', { name: '20% of it' }));
    expect(within(dialog).getByRole('textbox', { name: 'Amount' })).toHaveValue('3,520');
    expect(within(dialog).getByText('Left to pay after: KES 14,080.00')).toBeInTheDocument();
    await u.click(within(quick).getByRole('button', { name: 'All of it' }));
    expect(within(dialog).getByRole('textbox', { name: 'Amount' })).toHaveValue('17,600');
    expect(within(dialog).getByText('This pays the device off: it unlocks for good, with a code to enter on it.')).toBeInTheDocument();
  });
});
