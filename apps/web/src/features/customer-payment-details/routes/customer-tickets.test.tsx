import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTicket, listCalls, mockTicketsApi, sent, type Total } from '@/features/tickets/testing/mock-tickets-api';
import type { Ticket } from '@/features/tickets/api/types';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

type User = ReturnType<typeof userEvent.setup>;

const device = (serial_number: string, product_name: string) => ({
  serial_number,
  product_name,
  status: 'assigned',
  days_left: 3,
  credit_until: '2026-11-28T09:00:00Z',
  paid_off: false,
  total_paid: '0.00',
  payoff_price: null,
  remaining: null,
  payment_plan: null,
});

const TWO_DEVICES = [device('SHS-0001', 'Solar Home 50W'), device('PH-0002', 'Smartphone')];

/** Customer 42's page: their `devices`; an erased customer has `status` 'erased'. */
function paymentDetails(devices: ReturnType<typeof device>[], status = 'active') {
  return {
    data: {
      customer_info: {
        customer_id: 42,
        customer_name: status === 'erased' ? 'Erased customer' : 'Amina Wanjiru',
        phone_contact: status === 'erased' ? '' : '0712345678',
        email: null,
        sms_opted_out_at: null,
        sms_opt_out_source: null,
        status,
        device_serial: devices[0]?.serial_number ?? null,
        product_name: devices[0]?.product_name ?? null,
        product_oem: null,
      },
      payment_template: null,
      payment_summary: { total_paid: '0.00', free_code_price: '0.00', remaining_balance: '0.00', payment_progress: 0, is_fully_paid: false },
      payment_history: [],
      devices,
    },
  };
}

/** The customer page over the tickets API: `tickets` answers GET /tickets (`total` in all); a POST opens #13 for the serial number sent. */
function mockCustomerPage({ tickets = [buildTicket()], total, devices = TWO_DEVICES, status }: { tickets?: Ticket[]; total?: Total; devices?: ReturnType<typeof device>[]; status?: string } = {}) {
  return mockTicketsApi(
    () => tickets,
    (c) => {
      if (c.url === '/payg/customers/42/payment-details') return jsonResponse(200, paymentDetails(devices, status));
      if (c.method === 'POST' && c.url === '/payg/tickets') {
        const { serial_number } = JSON.parse(c.body!) as { serial_number: string };
        return jsonResponse(201, { data: buildTicket({ ticket_id: 13, serial_number, category: 'installation' }) });
      }
      if (c.url === '/payg/customers/42') return jsonResponse(200, { customer_id: 42, customer_name: 'Amina Wanjiru', status: status ?? 'active', updated_at: '2026-11-25T10:00:00Z' });
      if (!c.url.startsWith('/payg/tickets')) return jsonResponse(200, { data: [] });
      return undefined;
    },
    total,
  );
}

async function openCustomerPage() {
  seedSession();
  renderApp('/customer-payment-details/42');
  return screen.findByRole('region', { name: 'Service Tickets' }, { timeout: 5000 });
}

async function fillIn(user: User, dialog: HTMLElement) {
  await user.click(within(dialog).getByLabelText(/^Category/, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: 'Installation' }));
  await user.type(within(dialog).getByLabelText(/^Description/, { selector: 'textarea' }), 'Panel to move to the roof');
}

describe('Customer Payment Details: Service Tickets', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("lists the customer's ten newest tickets of every status, on any of their devices, with Update on each", async () => {
    const { calls } = mockCustomerPage({
      tickets: [
        buildTicket({ ticket_id: 12, serial_number: 'PH-0002', product_name: 'Smartphone', status: 'in_progress', assigned_to: { user_id: 8, username: 'otieno' } }),
        buildTicket({
          ticket_id: 9,
          category: 'billing',
          status: 'resolved',
          resolution: 'Explained the bill.',
          compensation_days: 3,
          days_open: 2,
          opened_at: '2026-11-01T09:00:00Z',
        }),
      ],
    });
    const card = await openCustomerPage();
    await within(card).findByText('#12');
    expect(listCalls(calls)[0]).toBe('/payg/tickets?page=1&limit=10&status=all&customer_id=42');
    expect(within(card).getByText('2 tickets · 1 active')).toBeInTheDocument();
    expect(within(card).getByRole('table', { name: 'Service Tickets of Amina Wanjiru' })).toBeInTheDocument();

    const [header, working, resolved] = within(card).getAllByRole('row');
    expect(within(header!).getByText('Device')).toBeInTheDocument();
    expect(within(working!).getByRole('link', { name: 'PH-0002' })).toHaveAttribute('href', '/device-activity/PH-0002');
    expect(within(working!).getByText('Smartphone')).toBeInTheDocument();
    expect(within(working!).getByText('Device fault')).toBeInTheDocument();
    expect(within(working!).getByText('In progress')).toBeInTheDocument();
    expect(within(working!).getByText('5 days open')).toBeInTheDocument();
    expect(within(resolved!).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(within(resolved!).getByText('Billing question')).toBeInTheDocument();
    expect(within(resolved!).getByText('Resolved')).toBeInTheDocument();
    expect(within(resolved!).getByText('3 free days')).toBeInTheDocument();
    expect(within(resolved!).getByRole('time')).toHaveAttribute('dateTime', '2026-11-01T09:00:00.000Z');

    // Update opens the ticket, as on the Service Tickets page.
    await userEvent.setup().click(within(resolved!).getByRole('button', { name: 'Update Ticket #9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ticket #9' });
    expect(within(dialog).getByLabelText(/^Resolution/, { selector: 'textarea' })).toHaveValue('Explained the bill.');
  });

  it('says when the customer has no tickets, and when it lists only the newest ten, how many there are and where the rest are', async () => {
    mockCustomerPage({ tickets: [] });
    let card = await openCustomerPage();
    expect(await within(card).findByText('No tickets for this customer')).toBeInTheDocument();
    expect(within(card).getByText("Faults, installations and other work on the customer's devices")).toBeInTheDocument();
    cleanup();

    // 14 tickets, 3 of them active: the rows listed cannot tell how many are, the API counts them.
    const { calls } = mockCustomerPage({
      tickets: Array.from({ length: 10 }, (_, i) => buildTicket({ ticket_id: 20 - i })),
      total: (q) => (q.get('status') === 'active' ? 3 : 14),
    });
    card = await openCustomerPage();
    expect(await within(card).findByText(/The 10 newest of 14\./)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'See them all in Service Tickets' })).toHaveAttribute('href', '/tickets?status=all&customer=42');
    expect(await within(card).findByText('14 tickets · 3 active')).toBeInTheDocument();
    expect(listCalls(calls)).toContain('/payg/tickets?page=1&limit=1&status=active&customer_id=42');
  });

  it("opens a ticket for one of the customer's devices, chosen from them, and reads the list again", async () => {
    const user = userEvent.setup();
    const { calls } = mockCustomerPage({ tickets: [] });
    const card = await openCustomerPage();
    await within(card).findByText('No tickets for this customer');
    await user.click(within(card).getByRole('button', { name: 'New Ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Ticket' });
    const serial = within(dialog).getByLabelText(/^Serial Number/, { selector: 'input' });
    expect(serial).toHaveValue('');
    await fillIn(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(within(dialog).getByText('Serial Number is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    // The customer's devices, and nothing else, with what each is.
    await user.click(serial);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['SHS-0001Solar Home 50W', 'PH-0002Smartphone']);
    await user.click(screen.getByRole('option', { name: /PH-0002/ }));
    expect(serial).toHaveValue('PH-0002');
    const reads = listCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(await screen.findByText('Ticket #13 opened for PH-0002')).toBeInTheDocument();
    expect(sent(calls, 'POST', '/payg/tickets')).toEqual([{ serial_number: 'PH-0002', category: 'installation', description: 'Panel to move to the roof' }]);
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(reads));
    expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=10&status=all&customer_id=42');
  });

  it("fills in a customer's only device and cannot change it; with none, says there is nothing to open a ticket for", async () => {
    const user = userEvent.setup();
    const { calls } = mockCustomerPage({ tickets: [], devices: [device('SHS-0001', 'Solar Home 50W')] });
    let card = await openCustomerPage();
    await user.click(await within(card).findByRole('button', { name: 'New Ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Ticket' });
    const serial = within(dialog).getByRole('textbox', { name: 'Serial Number' });
    expect(serial).toHaveValue('SHS-0001');
    expect(serial).toHaveAttribute('readonly');
    await fillIn(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(await screen.findByText('Ticket #13 opened for SHS-0001')).toBeInTheDocument();
    expect(sent(calls, 'POST', '/payg/tickets')).toEqual([{ serial_number: 'SHS-0001', category: 'installation', description: 'Panel to move to the roof' }]);
    cleanup();

    mockCustomerPage({ devices: [] });
    card = await openCustomerPage();
    await within(card).findByText('#12');
    expect(within(card).getByText('No device to open a ticket for')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'New Ticket' })).not.toBeInTheDocument();
  });

  it('keeps the tickets of an erased customer listed, with no New Ticket', async () => {
    mockCustomerPage({ status: 'erased' });
    const card = await openCustomerPage();
    await within(card).findByText('#12');
    expect(within(card).getByRole('button', { name: 'Update Ticket #12' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'New Ticket' })).not.toBeInTheDocument();
    expect(within(card).queryByText('No device to open a ticket for')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record Payment' })).not.toBeInTheDocument();
  });
});
