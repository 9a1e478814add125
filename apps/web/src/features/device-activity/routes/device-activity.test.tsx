import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildTicket, listCalls as ticketCalls, mockTicketsApi, sent, type Total } from '@/features/tickets/testing/mock-tickets-api';
import { buildMovement, mockStockApi } from '@/features/stock/testing/mock-stock-api';
import { buildDeviceWarranty } from '@/features/warranties/testing/mock-warranties-api';
import { formatDate } from '@/components/ui/date-text';

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
      location_name: null,
      warranty: null,
      ...overrides,
    },
    token_history: {
      items: [
        { id: 2, token: '987654321', token_type: 'add_time', days: 10, amount_paid: '500.00', generated_at: '2026-11-21T09:30:00Z', status: 'success', is_valid: true, generated_by: 'amina', customer_name: 'Amina Wanjiru' },
        { id: 1, token: '123456789', token_type: 'add_time', days: 10, amount_paid: '500.00', generated_at: '2026-11-20T09:30:00Z', status: 'success', is_valid: false, generated_by: null, customer_name: 'Amina Wanjiru' },
      ],
      total: 2,
    },
    payment_history: {
      items: [{ payment_id: 9, amount: '500.00', paid_at: '2026-11-20T09:30:00Z', status: 'completed', customer_name: 'Amina Wanjiru', device_serial: 'SHS-0001', transaction_code: 'QK12AB34CD', payment_method: 'mobile_money' }],
      total: 1,
    },
    message_history: { items: [], total: 0 },
  },
});

describe('Device Activity', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the device card, the three tabs with counts, and pages of 20', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] })));
    seedSession();
    renderApp('/device-activity/SHS-0001');
    const card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText('Solar Home 50W')).toBeInTheDocument();
    expect(within(card).getByText('SunKing')).toBeInTheDocument();
    expect(within(card).getByText(/Assigned to/)).toHaveTextContent('Assigned to Amina Wanjiru');
    expect(calls.find((c) => c.url.startsWith('/payg/devices/'))?.url).toBe('/payg/devices/SHS-0001/activity?page=1&limit=20');

    expect(screen.getByRole('tab', { name: /Token History/ })).toHaveTextContent('2');
    expect(screen.getByRole('tab', { name: /Message History/ })).toHaveTextContent('0');
    expect(screen.getByText('123 456 789')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'system' })).toBeInTheDocument();
    // The newer token is taken; the older one the device no longer takes reads Expired.
    const rowOf = (token: string) => screen.getByText(token).closest('tr')!;
    expect(within(rowOf('987 654 321')).getByText('Success')).toBeInTheDocument();
    expect(within(rowOf('123 456 789')).getByText('Expired')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: /Message History/ }));
    expect(screen.getByText('No messages for this device yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
  });

  it('generates a token for this device from its page, and reads the history again', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/generate-token-by-days')
        return jsonResponse(200, { code_token: '555666777', code_type: 'add_time', days: 4, token_count: 8, serial_number: 'SHS-0001', isOrganizationSuspended: false });
      return c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    const reads = calls.filter((c) => c.url.startsWith('/payg/devices/')).length;
    await user.click(screen.getByRole('button', { name: 'Generate Token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate Token' });
    expect(within(dialog).getByRole('combobox', { name: 'Serial Number' })).toHaveValue('SHS-0001');
    const days = within(dialog).getByRole('textbox', { name: 'Number of Days' });
    await user.clear(days);
    await user.type(days, '4');
    await user.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    const result = await screen.findByRole('dialog', { name: 'Token Generated' });
    expect(within(result).getByText('555 666 777')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/generate-token-by-days')!.body!)).toEqual({ serial_number: 'SHS-0001', number_of_days: 4 });
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/devices/')).length).toBeGreaterThan(reads));
  });

  it('reverses a payment applied by mistake: asks why, shows what happens, then reads the history again', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/payments/9/reverse') {
        const reason = JSON.parse(c.body!).reason as string;
        return jsonResponse(200, {
          message: 'Payment reversed: it is held for matching',
          payment_id: 9,
          status: 'pending',
          hold_reason: `Reversed from SHS-0001 by amina: ${reason}`,
          serial_number: 'SHS-0001',
          total_paid: '0.00',
          credit: '0.00',
          credit_until: null,
          days_removed: 10,
          deactivated: false,
        });
      }
      return c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('tab', { name: /Payment History/ }));
    const reads = calls.filter((c) => c.url.startsWith('/payg/devices/')).length;
    await user.click(screen.getByRole('button', { name: 'Reverse payment #9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse Payment' });
    expect(within(dialog).getByText(/^#9 · \w{3} 500\.00 · QK12AB34CD$/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Held Payments' })).toHaveAttribute('href', '/messages');
    // A reason is required before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Reverse Payment' }));
    expect(within(dialog).getByText('Say why this payment is reversed')).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/reverse'))).toBe(false);
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Typed the wrong account number');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse Payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reverse Payment' })).not.toBeInTheDocument());
    expect(JSON.parse(calls.find((c) => c.url === '/payg/payments/9/reverse')!.body!)).toEqual({ reason: 'Typed the wrong account number' });
    expect(await screen.findByText(/Payment #9 reversed from SHS-0001, 10 days taken back/)).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/devices/')).length).toBeGreaterThan(reads));
  });

  it("shows why a payment cannot be reversed, and offers Reverse to owners and admins only", async () => {
    const user = userEvent.setup();
    mockFetch((c) => {
      if (c.url === '/payg/payments/9/reverse')
        return jsonResponse(409, { detail: 'Payment 10 was applied to device SHS-0001 after payment 9: only the latest payment on a device can be reversed; reverse payment 10 first' });
      return c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] });
    });
    seedSession();
    const first = renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('tab', { name: /Payment History/ }));
    await user.click(screen.getByRole('button', { name: 'Reverse payment #9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse Payment' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Wrong device');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse Payment' }));
    expect(await within(dialog).findByText(/only the latest payment on a device can be reversed; reverse payment 10 first/)).toBeInTheDocument();
    first.unmount();

    seedSession({ user: buildUser({ role: 'staff' }) });
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('tab', { name: /Payment History/ }));
    expect(screen.getByText('QK12AB34CD')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reverse payment/ })).not.toBeInTheDocument();
  });

  it('repossesses the device: asks why, locks it by default, and shows the lock code and what was written off', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/items/repossess')
        return jsonResponse(200, {
          message: 'Device SHS-0001 repossessed from Amina Wanjiru',
          serial_number: 'SHS-0001',
          customer_id: 11,
          customer_name: 'Amina Wanjiru',
          lock_token: { token: '444555666', token_count: 8 },
          total_paid: '2400.00',
          written_off: '17600.00',
          status: 'available',
        });
      return c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Repossess' }));
    const dialog = await screen.findByRole('dialog', { name: 'Repossess Device' });
    expect(within(dialog).getByRole('checkbox', { name: /Lock the device/ })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Repossess' }));
    expect(within(dialog).getByText('Say why this device is repossessed')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'No payment for 120 days');
    await user.click(within(dialog).getByText('Available stock'));
    await user.click(within(dialog).getByRole('button', { name: 'Repossess' }));
    const done = await screen.findByRole('dialog', { name: 'Device Repossessed' });
    expect(within(done).getByText('444 555 666')).toBeInTheDocument();
    expect(within(done).getByText(/17,600\.00/)).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/items/repossess')!.body!)).toEqual({
      item_serial_number: 'SHS-0001',
      reason: 'No payment for 120 days',
      lock: true,
      status: 'available',
    });
  });

  it('writes off a device that was not recovered: no stock location asked, and the result says so', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/items/repossess')
        return jsonResponse(200, {
          message: 'Device SHS-0001 written off as not recovered from Amina Wanjiru',
          serial_number: 'SHS-0001',
          customer_id: 11,
          customer_name: 'Amina Wanjiru',
          lock_token: null,
          total_paid: '2400.00',
          written_off: '17600.00',
          status: 'retired',
          location_id: null,
          location_name: null,
        });
      return c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Repossess' }));
    const dialog = await screen.findByRole('dialog', { name: 'Repossess Device' });
    expect(within(dialog).getByRole('combobox', { name: 'Stock location' })).toBeInTheDocument();
    await user.click(within(dialog).getByText('Not recovered'));
    expect(dialog).toHaveTextContent('Lost, stolen or gone with the customer: it is written off with what is left to pay, retired');
    expect(within(dialog).queryByRole('combobox', { name: 'Stock location' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Stolen from the house');
    await user.click(within(dialog).getByRole('checkbox', { name: /Lock the device/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Repossess' }));
    const done = await screen.findByRole('dialog', { name: 'Device Repossessed' });
    expect(done).toHaveTextContent("SHS-0001 is no longer Amina Wanjiru's; it was not recovered: written off and retired.");
    expect(JSON.parse(calls.find((c) => c.url === '/payg/items/repossess')!.body!)).toEqual({
      item_serial_number: 'SHS-0001',
      reason: 'Stolen from the house',
      lock: false,
      status: 'retired',
    });
  });

  it('repossesses to another stock location when one is chosen, and says where the device is', async () => {
    const user = userEvent.setup();
    const place = (location_id: number, name: string) => ({
      location_id,
      name,
      description: null,
      created_at: '2026-11-01T10:00:00Z',
      counts: { available: 0, maintenance: 0, retired: 0, given_out: 0, in_stock: 0 },
      products: [],
    });
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/items/repossess')
        return jsonResponse(200, {
          message: 'Device SHS-0001 repossessed from Amina Wanjiru',
          serial_number: 'SHS-0001',
          customer_id: 11,
          customer_name: 'Amina Wanjiru',
          lock_token: null,
          total_paid: '2400.00',
          written_off: '17600.00',
          status: 'maintenance',
          location_id: 7,
          location_name: 'Nairobi Workshop',
        });
      if (c.url === '/payg/stock-locations')
        return jsonResponse(200, { data: [place(3, 'Kisumu Shop'), place(7, 'Nairobi Workshop')], unplaced: { counts: {}, products: [] } });
      if (c.url.startsWith('/payg/devices/')) {
        const page = activity();
        return jsonResponse(200, { ...page, data: { ...page.data, device_info: { ...page.data.device_info, location_name: 'Kisumu Shop' } } });
      }
      return jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Repossess' }));
    const dialog = await screen.findByRole('dialog', { name: 'Repossess Device' });
    const where = within(dialog).getByRole('combobox', { name: 'Stock location' });
    expect(where).toHaveValue('Kisumu Shop (given from there)');
    await user.click(where);
    // The place it was given from is offered once, as staying there.
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Kisumu Shop (given from there)', 'Nairobi Workshop', 'Not placed']);
    await user.click(screen.getByRole('option', { name: 'Nairobi Workshop' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Panel cracked, customer left');
    await user.click(within(dialog).getByRole('checkbox', { name: /Lock the device/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Repossess' }));
    const done = await screen.findByRole('dialog', { name: 'Device Repossessed' });
    expect(within(done).getByText(/it is in maintenance at Nairobi Workshop\./)).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/items/repossess')!.body!)).toEqual({
      item_serial_number: 'SHS-0001',
      reason: 'Panel cracked, customer left',
      lock: false,
      status: 'maintenance',
      location_id: 7,
    });
  });

  it('offers Repossess to owners and admins only, and only for a device someone has', async () => {
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] })));
    seedSession({ user: buildUser({ role: 'staff' }) });
    const first = renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Repossess' })).not.toBeInTheDocument();
    first.unmount();
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ is_assigned: false, customer_name: null, customer_id: null })) : jsonResponse(200, { data: [] })));
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Repossess' })).not.toBeInTheDocument();
  });

  it("reads 'Unassigned' for a device nobody has", async () => {
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ is_assigned: false, customer_name: null, customer_id: null })) : jsonResponse(200, { data: [] })));
    seedSession();
    renderApp('/device-activity/SHS-0001');
    const card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText('Unassigned')).toBeInTheDocument();
    expect(within(card).queryByText('Retired')).not.toBeInTheDocument();
  });

  it("says beside 'Unassigned' that a device is retired (not recovered from its customer, say) or in maintenance", async () => {
    mockFetch((c) =>
      c.url.startsWith('/payg/devices/')
        ? jsonResponse(200, activity({ is_assigned: false, status: 'retired', customer_name: null, customer_id: null }))
        : jsonResponse(200, { data: [] }),
    );
    seedSession();
    renderApp('/device-activity/SHS-0001');
    const card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText('Unassigned')).toBeInTheDocument();
    expect(within(card).getByText('Retired')).toBeInTheDocument();
  });

  it("names the device's payment plan, and says when it is the device's own", async () => {
    const plan = { template_id: 4, template_name: 'Phone plan', daily_price: '40.00', currency: 'KES', own: true };
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ payment_plan: plan })) : jsonResponse(200, { data: [] })));
    seedSession();
    const view = renderApp('/device-activity/SHS-0001');
    let card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText(/Phone plan/)).toHaveTextContent('Phone plan · KES 40.00/day');
    expect(within(card).getByText('This device only')).toBeInTheDocument();
    view.unmount();

    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ payment_plan: { ...plan, own: false } })) : jsonResponse(200, { data: [] })));
    const again = renderApp('/device-activity/SHS-0001');
    card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText("Customer's plan")).toBeInTheDocument();
    again.unmount();

    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ payment_plan: null })) : jsonResponse(200, { data: [] })));
    renderApp('/device-activity/SHS-0001');
    card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText('None: payments are held as credit')).toBeInTheDocument();
  });

  it('says how the device repays against what its plan expects by today, and nothing for a device without a standing', async () => {
    const plan = { template_id: 4, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false };
    const behind = { expected_by_today: '3350.00', paid_towards: '2200.00', repaid_share: 65.7, standing: 'behind' };
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ payment_plan: plan, repayment: behind })) : jsonResponse(200, { data: [] })));
    seedSession();
    const view = renderApp('/device-activity/SHS-0001');
    let card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByText('Behind')).toBeInTheDocument();
    expect(card).toHaveTextContent('Paid KES 2,200.00 of the KES 3,350.00 the plan expects by today: 65.7%.');
    view.unmount();

    const none = { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null };
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ payment_plan: null, repayment: none })) : jsonResponse(200, { data: [] })));
    renderApp('/device-activity/SHS-0001');
    card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).queryByText('Repayment Standing')).not.toBeInTheDocument();
  });

  it('says whether the device is in warranty, for how long and from when, and nothing of one when its product has none', async () => {
    const warranty = buildDeviceWarranty();
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ warranty })) : jsonResponse(200, { data: [] })));
    seedSession();
    const view = renderApp('/device-activity/SHS-0001');
    let card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    const field = within(card).getByText('Warranty').parentElement!;
    const badge = within(field).getByText(`In warranty until ${formatDate(warranty.until)}`);
    expect(badge.closest('.mantine-Badge-root')!.getAttribute('style')).toMatch(/green/);
    expect(within(field).getByText(`12 months from ${formatDate(warranty.starts_at)}`)).toBeInTheDocument();
    view.unmount();

    const ended = buildDeviceWarranty({ months: 1, until: '2026-12-01T10:00:00Z', in_warranty: false });
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ warranty: ended })) : jsonResponse(200, { data: [] })));
    const again = renderApp('/device-activity/SHS-0001');
    card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    const out = within(card).getByText(`Out of warranty since ${formatDate(ended.until)}`);
    expect(out.closest('.mantine-Badge-root')!.getAttribute('style')).toMatch(/gray/);
    expect(within(card).getByText(`1 month from ${formatDate(ended.starts_at)}`)).toBeInTheDocument();
    again.unmount();

    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity()) : jsonResponse(200, { data: [] })));
    renderApp('/device-activity/SHS-0001');
    card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).queryByText('Warranty')).not.toBeInTheDocument();
    expect(card).not.toHaveTextContent(/warranty/i);
  });

  it('says when its account was brought over from another system, by whom and what was paid before, and nothing otherwise', async () => {
    const plan = { template_id: 4, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false };
    const brought = { paid: '4500.00', started_at: '2025-03-01T00:00:00.000Z', imported_at: '2026-11-02T08:15:00.000Z', imported_by: 'amina' };
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ payment_plan: plan, brought_over: brought })) : jsonResponse(200, { data: [] })));
    seedSession();
    const view = renderApp('/device-activity/SHS-0001');
    let card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(within(card).getByLabelText('Brought over')).toHaveTextContent(
      `Brought over from another system on ${formatDate(brought.imported_at)} by amina: KES 4,500.00 paid before, account began ${formatDate(brought.started_at)}`,
    );
    view.unmount();

    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, activity({ brought_over: null })) : jsonResponse(200, { data: [] })));
    renderApp('/device-activity/SHS-0001');
    card = await screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
    expect(card).not.toHaveTextContent(/brought over/i);
  });

  it("replaces the screen with the server's message, else 'Failed to fetch device activity'", async () => {
    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(404, { detail: 'Device not found', message: 'Device not found' }) : jsonResponse(200, { data: [] })));
    seedSession();
    const view = renderApp('/device-activity/NOPE');
    expect(await screen.findByText('Device not found', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    view.unmount();

    mockFetch((c) => (c.url.startsWith('/payg/devices/') ? jsonResponse(200, {}) : jsonResponse(200, { data: [] })));
    renderApp('/device-activity/NOPE');
    expect(await screen.findByText('Failed to fetch device activity', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('Device Activity: Service Tickets', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** The device page over the tickets API: `tickets` answers GET /tickets (`total` in all); a POST opens #13. */
  function mockDevicePage(tickets = [buildTicket()], total?: Total) {
    return mockTicketsApi(
      () => tickets,
      (c) => {
        if (c.url.startsWith('/payg/devices/')) return jsonResponse(200, activity());
        if (c.method === 'POST' && c.url === '/payg/tickets') return jsonResponse(201, { data: buildTicket({ ticket_id: 13, category: 'installation' }) });
        if (c.url.startsWith('/payg/payments') || c.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
        return undefined;
      },
      total,
    );
  }

  async function openDevicePage() {
    seedSession();
    renderApp('/device-activity/SHS-0001');
    return screen.findByRole('region', { name: 'Service Tickets' }, { timeout: 5000 });
  }

  it("lists the device's tickets of every status, newest first, with their category, status and age", async () => {
    const { calls } = mockDevicePage([
      buildTicket({ ticket_id: 12, status: 'in_progress', assigned_to: { user_id: 8, username: 'otieno' } }),
      buildTicket({ ticket_id: 9, category: 'billing', status: 'resolved', resolution: 'Explained the bill.', days_open: 2, opened_at: '2026-11-01T09:00:00Z' }),
    ]);
    const card = await openDevicePage();
    await within(card).findByText('#12');
    expect(ticketCalls(calls)[0]).toBe('/payg/tickets?page=1&limit=10&status=all&serial_number=SHS-0001');
    expect(within(card).getByText('2 tickets · 1 active')).toBeInTheDocument();
    const [, working, resolved] = within(card).getAllByRole('row');
    expect(within(working!).getByText('Device fault')).toBeInTheDocument();
    expect(within(working!).getByText('In progress')).toBeInTheDocument();
    expect(within(working!).getByText('otieno')).toBeInTheDocument();
    expect(within(working!).getByText('5 days open')).toBeInTheDocument();
    expect(within(resolved!).getByText('#9')).toBeInTheDocument();
    expect(within(resolved!).getByText('Billing question')).toBeInTheDocument();
    expect(within(resolved!).getByText('Resolved')).toBeInTheDocument();
    expect(within(resolved!).getByText('Unassigned')).toBeInTheDocument();

    // Update opens the ticket.
    await userEvent.setup().click(within(resolved!).getByRole('button', { name: 'Update Ticket #9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ticket #9' });
    expect(within(dialog).getByLabelText(/^Resolution/, { selector: 'textarea' })).toHaveValue('Explained the bill.');
  });

  it('says when the device has no tickets, and links to the rest when it has more than the card lists', async () => {
    mockDevicePage([]);
    let card = await openDevicePage();
    expect(await within(card).findByText('No tickets for this device')).toBeInTheDocument();
    cleanup();

    // 14 tickets, 3 of them active: the rows listed cannot tell how many are, the API counts them.
    const { calls } = mockDevicePage(
      Array.from({ length: 10 }, (_, i) => buildTicket({ ticket_id: 20 - i })),
      (q) => (q.get('status') === 'active' ? 3 : 14),
    );
    card = await openDevicePage();
    expect(await within(card).findByText(/The 10 newest of 14\./)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'See them all in Service Tickets' })).toHaveAttribute('href', '/tickets?status=all&serial=SHS-0001');
    expect(await within(card).findByText('14 tickets · 3 active')).toBeInTheDocument();
    expect(ticketCalls(calls)).toContain('/payg/tickets?page=1&limit=1&status=active&serial_number=SHS-0001');
  });

  it('opens a ticket for this device: its serial number is filled in and cannot be changed', async () => {
    const user = userEvent.setup();
    const { calls } = mockDevicePage([]);
    const card = await openDevicePage();
    await within(card).findByText('No tickets for this device');
    await user.click(within(card).getByRole('button', { name: 'New Ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Ticket' });
    const serial = within(dialog).getByRole('textbox', { name: 'Serial Number' });
    expect(serial).toHaveValue('SHS-0001');
    expect(serial).toHaveAttribute('readonly');

    await user.click(within(dialog).getByLabelText(/^Category/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Installation' }));
    await user.type(within(dialog).getByLabelText(/^Description/, { selector: 'textarea' }), 'Panel to move to the roof');
    const reads = ticketCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(await screen.findByText('Ticket #13 opened for SHS-0001')).toBeInTheDocument();
    expect(sent(calls, 'POST', '/payg/tickets')).toEqual([{ serial_number: 'SHS-0001', category: 'installation', description: 'Panel to move to the roof' }]);
    // The card reads the device's tickets again.
    await waitFor(() => expect(ticketCalls(calls).length).toBeGreaterThan(reads));
  });
});

describe('Device Activity: stock locations', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const inStock = { is_assigned: false, status: 'available', customer_name: null, customer_id: null, assigned_at: null, location_name: 'Kisumu Shop' };

  /** The device page over the stock API: the device `device`, moved once (from nowhere to Kisumu Shop). */
  function mockDevicePage(device: Record<string, unknown>, extra: (url: string) => Response | undefined = () => undefined) {
    return mockStockApi({
      movements: () => [buildMovement({ note: null })],
      extra: (c) => {
        const hit = extra(c.url);
        if (hit) return hit;
        if (c.url.startsWith('/payg/devices/')) return jsonResponse(200, activity(device));
        if (c.url.startsWith('/payg/tickets') || c.url.startsWith('/payg/payments') || c.url.startsWith('/payg/mpesa')) {
          return jsonResponse(200, { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 10 }, counts: { open: 0, in_progress: 0, resolved: 0 } } });
        }
        return undefined;
      },
    });
  }

  async function openDevicePage() {
    seedSession();
    renderApp('/device-activity/SHS-0001');
    return screen.findByRole('region', { name: 'Device Information' }, { timeout: 5000 });
  }

  it("says where the device is kept, or 'Not placed', and lists its moves", async () => {
    const { calls } = mockDevicePage(inStock);
    const card = await openDevicePage();
    expect(within(within(card).getByText('Location').parentElement!).getByText('Kisumu Shop')).toBeInTheDocument();
    const moves = screen.getByRole('region', { name: 'Stock Movements' });
    const table = await within(moves).findByRole('table', { name: 'Stock Movements' });
    expect(within(table).queryByRole('columnheader', { name: 'Serial Number' })).not.toBeInTheDocument();
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getAllByRole('cell').map((c) => c.textContent).slice(1)).toEqual(['Not placedKisumu Shop', 'amina', '—']);
    expect(calls.find((c) => c.url.startsWith('/payg/stock-movements'))?.url).toBe('/payg/stock-movements?page=1&limit=20&serial_number=SHS-0001');
    cleanup();

    mockDevicePage({ location_name: null });
    const other = await openDevicePage();
    expect(within(within(other).getByText('Location').parentElement!).getByText('Not placed')).toBeInTheDocument();
  });

  it('moves a device in stock from its page, and offers no Move for a device with a customer', async () => {
    const user = userEvent.setup();
    const { calls } = mockDevicePage(inStock, (url) =>
      url === '/payg/stock-locations/move'
        ? jsonResponse(200, { message: '1 device moved to Nairobi Warehouse', moved: 1, unchanged: 0, location_id: 5, location_name: 'Nairobi Warehouse' })
        : undefined,
    );
    await openDevicePage();
    const reads = calls.filter((c) => c.url.startsWith('/payg/devices/')).length;
    await user.click(screen.getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to Location' });
    expect(within(dialog).getByText('Moving 1 device')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Move To' }));
    await user.click(await screen.findByRole('option', { name: 'Nairobi Warehouse' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move Device' }));
    expect(await screen.findByText('1 device moved to Nairobi Warehouse')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/stock-locations/move')!.body!)).toEqual({ serial_numbers: ['SHS-0001'], location_id: 5 });
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/devices/')).length).toBeGreaterThan(reads));
    cleanup();

    mockDevicePage({});
    await openDevicePage();
    expect(screen.queryByRole('button', { name: 'Move' })).not.toBeInTheDocument();
  });
});
