import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { buildFindCustomer, buildFindDevice, buildFindPayment, findCalls, mockFindApi } from '../testing/mock-find-api';
import { openFind, renderShell } from '../testing/render-find';
import { FIND_DEBOUNCE_MS, FIND_HINT } from './find-modal';

const REPLY = {
  customers: [
    buildFindCustomer(),
    buildFindCustomer({ customer_id: 43, customer_name: 'Amina Otieno', phone_contact: '0722 000 111', id_number: '87654321', matched: 'phone_contact', devices: 2 }),
  ],
  devices: [buildFindDevice(), buildFindDevice({ serial_number: 'SHS-0002', status: 'available', customer_id: null, customer_name: null })],
  payments: [
    buildFindPayment(),
    buildFindPayment({ payment_id: 10, transaction_code: 'QK99ZZ88YY', amount: '1500.00', hold_reason: 'No device with account AMINA', serial_number: null, customer_id: null, customer_name: null }),
  ],
};

async function openShell() {
  const user = userEvent.setup();
  seedSession();
  const view = renderShell();
  await screen.findByRole('heading', { name: /^Page / });
  const box = await openFind(user);
  return { ...view, user, box };
}

const group = (name: string) => screen.getByRole('group', { name });
const options = () => screen.getAllByRole('option');
const selected = () => options().filter((o) => o.getAttribute('aria-selected') === 'true');

describe('Find', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks nothing under 3 characters and says so; from 3 it asks for the term, once typing pauses', async () => {
    const { calls } = mockFindApi();
    const { user, box } = await openShell();
    await user.type(box, 'am');
    expect(screen.getByText(FIND_HINT)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, FIND_DEBOUNCE_MS * 2));
    expect(findCalls(calls)).toEqual([]);

    await user.type(box, 'ina');
    await screen.findByText('Nothing found for “amina”');
    // Typed in one go: only the term typing paused on is asked, never a piece of it.
    expect(findCalls(calls)).toEqual(['amina']);
    expect(screen.queryByText(FIND_HINT)).not.toBeInTheDocument();

    // Back under 3 characters: the hint again, and nothing asked.
    await user.clear(box);
    await user.type(box, '  ab  ');
    expect(screen.getByText(FIND_HINT)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, FIND_DEBOUNCE_MS * 2));
    expect(findCalls(calls)).toEqual(['amina']);
  });

  it('shows customers, devices and payments under their headings', async () => {
    mockFindApi(() => REPLY);
    const { user, box } = await openShell();
    await user.type(box, 'amina');
    await screen.findByRole('listbox', { name: 'Results' });

    const customers = within(group('Customers')).getAllByRole('option');
    expect(customers).toHaveLength(2);
    expect(customers[0]).toHaveTextContent('Amina Wanjiru');
    expect(customers[0]).toHaveTextContent('0712 345 678 · ID 12345678');
    expect(customers[0]).toHaveTextContent('1 device');
    expect(within(customers[0]!).queryByText('Phone')).not.toBeInTheDocument();
    // Found by another field than the name: the row says which.
    expect(within(customers[1]!).getByText('Phone')).toBeInTheDocument();
    expect(customers[1]).toHaveTextContent('2 devices');
    expect(customers[0]).toHaveAttribute('href', '/customer-payment-details/42');

    const devices = within(group('Devices')).getAllByRole('option');
    expect(devices).toHaveLength(2);
    expect(within(devices[0]!).getByText('SHS-0001')).toBeInTheDocument();
    expect(devices[0]).toHaveTextContent('Solar Home 50W · Amina Wanjiru');
    expect(within(devices[0]!).getByText('Assigned')).toBeInTheDocument();
    expect(devices[1]).toHaveTextContent('Solar Home 50W · In stock');
    expect(within(devices[1]!).getByText('Available')).toBeInTheDocument();
    expect(devices[1]).toHaveAttribute('href', '/device-activity/SHS-0002');

    const payments = within(group('Payments')).getAllByRole('option');
    expect(payments).toHaveLength(2);
    expect(payments[0]).toHaveTextContent('QK12AB34CD');
    expect(payments[0]).toHaveTextContent(/KES 500\.00/);
    expect(payments[0]).toHaveTextContent(`${formatDate('2026-11-20T09:30:00Z')} · Amina Wanjiru · SHS-0001`);
    expect(payments[0]).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(payments[1]).toHaveTextContent(/KES 1,500\.00/);
    expect(within(payments[1]!).getByText('Held: No device with account AMINA')).toBeInTheDocument();
    // On no device: it waits in Held Payments, on the Messages page.
    expect(payments[1]).toHaveAttribute('href', '/messages');

    // In that order, the first one active.
    expect(options().map((o) => o.getAttribute('href'))).toEqual([
      '/customer-payment-details/42',
      '/customer-payment-details/43',
      '/device-activity/SHS-0001',
      '/device-activity/SHS-0002',
      '/device-activity/SHS-0001',
      '/messages',
    ]);
    expect(selected()).toEqual([customers[0]]);
    expect(box).toHaveAttribute('aria-activedescendant', customers[0]!.id);
  });

  it('moves through the rows with the arrows, round the ends, and Enter opens the active one and closes', async () => {
    mockFindApi(() => REPLY);
    const { user, box, where } = await openShell();
    await user.type(box, 'amina');
    await screen.findByRole('listbox', { name: 'Results' });

    await user.keyboard('{ArrowUp}');
    expect(selected()[0]).toHaveAttribute('href', '/messages');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    const active = selected();
    expect(active).toHaveLength(1);
    expect(active[0]).toHaveTextContent('SHS-0002');
    expect(box).toHaveAttribute('aria-activedescendant', active[0]!.id);
    expect(box).toHaveFocus();

    await user.keyboard('{Enter}');
    await waitFor(() => expect(where()).toBe('/device-activity/SHS-0002'));
    expect(await screen.findByRole('heading', { name: 'Page /device-activity/SHS-0002' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find' })).not.toBeInTheDocument());
  });

  it('opens the first customer with Enter straight away', async () => {
    mockFindApi(() => REPLY);
    const { user, box, where } = await openShell();
    await user.type(box, 'amina');
    await screen.findByRole('listbox', { name: 'Results' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where()).toBe('/customer-payment-details/42'));
  });

  it('takes a held payment with no device to Held Payments', async () => {
    mockFindApi(() => ({ payments: [buildFindPayment({ hold_reason: 'Amount below the minimum', serial_number: null, customer_id: null, customer_name: null })] }));
    const { user, box, where } = await openShell();
    await user.type(box, 'QK12AB34CD');
    const row = await screen.findByRole('option', { name: /QK12AB34CD/ });
    expect(row).toHaveTextContent('Held: Amount below the minimum');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where()).toBe('/messages'));
  });

  it('opens a row on click, and the pointer moves the active row', async () => {
    mockFindApi(() => REPLY);
    const { user, box, where } = await openShell();
    await user.type(box, 'amina');
    const device = await screen.findByRole('option', { name: /SHS-0001.*Amina Wanjiru/ });
    await user.hover(device);
    expect(selected()).toEqual([device]);
    await user.click(device);
    await waitFor(() => expect(where()).toBe('/device-activity/SHS-0001'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find' })).not.toBeInTheDocument());
  });

  it('keeps the last results while the next term is typed, then shows its own', async () => {
    mockFindApi((q) => (q === 'amina' ? REPLY : { customers: [buildFindCustomer({ customer_id: 50, customer_name: 'Amina Wanjiku' })] }));
    const { user, box } = await openShell();
    await user.type(box, 'amina');
    await screen.findByRole('group', { name: 'Payments' });
    await user.type(box, ' wanjiku');
    // Until the new answer comes, the old one stays: no flash of a loader or an empty list.
    expect(screen.getByRole('group', { name: 'Payments' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Payments' })).not.toBeInTheDocument());
    expect(options()).toHaveLength(1);
    expect(options()[0]).toHaveTextContent('Amina Wanjiku');
    expect(selected()).toEqual([options()[0]]);
  });

  it('says when nothing is found', async () => {
    mockFindApi();
    const { user, box } = await openShell();
    await user.type(box, 'zzz-nobody');
    expect(await screen.findByText('Nothing found for “zzz-nobody”')).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it("shows the API's message when it refuses", async () => {
    mockFindApi(() => jsonResponse(400, { message: 'q must be at most 100 characters', errors: [{ field: 'q', message: 'must be at most 100 characters' }] }));
    const { user, box } = await openShell();
    await user.type(box, 'amina');
    const error = await screen.findByText('q must be at most 100 characters');
    expect(error).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
  });
});
