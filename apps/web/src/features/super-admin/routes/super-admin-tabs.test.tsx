import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { parseTaxRate } from '../components/invoice-settings-tab';
import { shortToken } from '../components/token-logs-tab';

function mockConsole(extra: (c: RecordedCall) => Response | undefined) {
  return mockFetch((call) => extra(call) ?? jsonResponse(200, { data: [] }));
}

const open = (tab: string) => {
  seedSession({ user: buildUser({ role: 'super_admin', organization_id: 'platform' }) });
  return renderApp(`/super-admin?tab=${tab}`);
};

const consoleInvoice = {
  invoice_id: '9d1c7c1e-0000-4000-8000-000000000001',
  invoice_number: 'INV-000007',
  organization_id: 'demo',
  organization_name: 'Demo Solar Ltd',
  customer_name: 'Demo Owner',
  customer_email: 'owner@demo.kidogo.local',
  customer_phone: null,
  description: null,
  amount: '120',
  currency: 'KES',
  status: 'pending',
  due_date: null,
  created_at: '2026-11-20T10:00:00Z',
};

describe('console tabs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tax rate: a number from 0 to 100, anything unparsable is 0', () => {
    expect(parseTaxRate('16.5')).toBe(16.5);
    expect(parseTaxRate('abc')).toBe(0);
    expect(parseTaxRate('')).toBe(0);
    expect(parseTaxRate(150)).toBe(100);
    expect(parseTaxRate(-3)).toBe(0);
  });

  it('token logs show a token cut to 20 characters', () => {
    expect(shortToken('123456789012345678901234')).toBe('12345678901234567890…');
    expect(shortToken('123456789')).toBe('123456789');
  });

  it("invoices: $ amounts, '-' without a due date, details with the spec's fallbacks, and Mark as Paid", async () => {
    const user = userEvent.setup();
    const { calls } = mockConsole((c) => {
      if (c.url.startsWith('/payg/admin/invoices/stats'))
        return jsonResponse(200, { total_invoices: 1, paid_invoices: 0, pending_invoices: 1, overdue_invoices: 0, currency: 'USD', total_revenue: '1500', outstanding_amount: '120.00', by_currency: [{ currency: 'USD', total_revenue: '1500', outstanding_amount: '120.00' }] });
      if (c.url.startsWith('/payg/admin/invoices?')) return jsonResponse(200, { data: [consoleInvoice], pagination: { total: 1 } });
      if (c.method === 'PUT') return jsonResponse(200, { ...consoleInvoice, status: 'paid' });
      return undefined;
    });
    open('invoices');
    expect(await screen.findByRole('heading', { name: 'Invoice Management' })).toBeInTheDocument();
    expect(await screen.findByText('$120.00')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Total Revenue' })).toHaveTextContent('$1,500.00');
    const row = screen.getByRole('row', { name: /INV-000007/ });
    expect(within(row).getByRole('cell', { name: '-' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'View invoice INV-000007' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice Details' });
    expect(within(dialog).getByText('Not set')).toBeInTheDocument();
    expect(within(dialog).getByText('Not provided')).toBeInTheDocument();
    expect(within(dialog).getByText('No description provided')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Mark as Paid' }));
    expect(await screen.findByText('Invoice status updated to paid')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({ status: 'paid' });
    expect(calls.find((c) => c.method === 'PUT')!.url).toBe(`/payg/admin/invoices/${consoleInvoice.invoice_id}/status`);
  });

  it('invoices: Email Invoice from the details sends the PDF through the console route, and says where it last went', async () => {
    const user = userEvent.setup();
    const emailed = { ...consoleInvoice, emailed_to: 'billing@demo.test', emailed_at: '2026-11-21T09:30:00Z' };
    const { calls } = mockConsole((c) => {
      if (c.url.startsWith('/payg/admin/invoices?')) return jsonResponse(200, { data: [emailed], pagination: { total: 1 } });
      if (c.method === 'POST') return jsonResponse(200, { ...emailed, status: 'sent', emailed_to: 'owner@demo.kidogo.local' });
      return undefined;
    });
    open('invoices');
    const row = await screen.findByRole('row', { name: /INV-000007/ });
    await user.click(within(row).getByRole('button', { name: 'View invoice INV-000007' }));
    const details = await screen.findByRole('dialog', { name: 'Invoice Details' });
    expect(within(details).getByText(/^billing@demo\.test · /)).toBeInTheDocument();
    await user.click(within(details).getByRole('button', { name: 'Email Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email Invoice' });
    expect(within(dialog).getByLabelText(/^Email address/)).toHaveValue('owner@demo.kidogo.local');
    await user.click(within(dialog).getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('Invoice INV-000007 emailed to owner@demo.kidogo.local')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe(`/payg/admin/invoices/${consoleInvoice.invoice_id}/email`);
    expect(JSON.parse(post.body!)).toEqual({ to: 'owner@demo.kidogo.local' });
  });

  it('invoices: an overdue invoice (still pending underneath) can be marked paid, and the overdue count shows', async () => {
    const user = userEvent.setup();
    const overdue = { ...consoleInvoice, status: 'overdue', stored_status: 'pending', due_date: '2026-10-01' };
    const { calls } = mockConsole((c) => {
      if (c.url.startsWith('/payg/admin/invoices/stats'))
        return jsonResponse(200, { total_invoices: 3, paid_invoices: 1, pending_invoices: 1, overdue_invoices: 1, total_revenue: '1500', outstanding_amount: '240.00' });
      if (c.url.startsWith('/payg/admin/invoices?')) return jsonResponse(200, { data: [overdue], pagination: { total: 1 } });
      if (c.method === 'PUT') return jsonResponse(200, { ...overdue, status: 'paid', stored_status: 'paid' });
      return undefined;
    });
    open('invoices');
    const row = await screen.findByRole('row', { name: /INV-000007/ });
    expect(within(row).getByText('Overdue')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Pending Invoices' })).toHaveTextContent('1 overdue');
    expect(within(row).getByRole('button', { name: 'Mark as Paid' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'View invoice INV-000007' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark as Paid' }));
    expect(await screen.findByText('Invoice status updated to paid')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')!.url).toBe(`/payg/admin/invoices/${consoleInvoice.invoice_id}/status`);
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({ status: 'paid' });
  });

  it("invoices: create checks the customer's email and defaults the status to pending", async () => {
    const user = userEvent.setup();
    const { calls } = mockConsole((c) => {
      if (c.url.startsWith('/payg/admin/organizations'))
        return jsonResponse(200, { data: [{ organization_id: 'demo', name: 'Demo Solar Ltd' }], pagination: { total: 1, total_pages: 1, limit: 200, offset: 0 } });
      if (c.method === 'POST' && c.url === '/payg/admin/invoices') return jsonResponse(201, consoleInvoice);
      return undefined;
    });
    open('invoices');
    await user.click(await screen.findByRole('button', { name: 'Create Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
    // The server adds no tax to an invoice without line items: the form says so under Amount.
    expect(within(dialog).getByRole('textbox', { name: /^Amount/ })).toHaveAccessibleDescription(
      'The total billed: no tax is added. The Default Tax Rate applies only to invoices with line items.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(within(dialog).getByText('Organization is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Customer name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Customer email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Amount is required')).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText(/^Organization/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Demo Solar Ltd (demo)' }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Customer Name/ }), 'Demo Owner');
    await user.type(within(dialog).getByRole('textbox', { name: /^Customer Email/ }), 'not-an-email');
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount/ }), '99.5');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(within(dialog).getByText('Enter a valid email address')).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: /^Customer Email/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Customer Email/ }), 'owner@demo.kidogo.local');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText('Invoice created successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual({
      organization_id: 'demo',
      customer_name: 'Demo Owner',
      customer_email: 'owner@demo.kidogo.local',
      amount: 99.5,
      description: null,
      due_date: null,
      status: 'pending',
    });
  });

  it("invoice settings: 'Saving...' while saving, then the green banner", async () => {
    const user = userEvent.setup();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { calls } = mockConsole((c) => {
      if (c.url === '/payg/admin/settings/invoices' && c.method === 'GET')
        return jsonResponse(200, { default_tax_rate: 0, default_currency: 'USD', invoice_prefix: 'INV', template_html: null, default_payment_terms: 30, issuer_name: null, issuer_details: null, updated_at: '2026-11-20T10:00:00Z' });
      if (c.method === 'PUT') return held.then(() => jsonResponse(200, {})) as unknown as Response;
      return undefined;
    });
    open('invoice-settings');
    expect(await screen.findByRole('heading', { name: 'Global Invoice Settings' })).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: 'Default Tax Rate (%)' }));
    await user.type(screen.getByRole('textbox', { name: 'Default Tax Rate (%)' }), '16');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Invoice settings updated successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({
      default_tax_rate: 16,
      default_currency: 'USD',
      invoice_prefix: 'INV',
      template_html: null,
    });
  });

  it('invoice settings: the console offers USD, EUR, GBP and MZN, and a saved KES still reads as KES', async () => {
    const user = userEvent.setup();
    let currency = 'USD';
    mockConsole((c) =>
      c.url === '/payg/admin/settings/invoices' && c.method === 'GET'
        ? jsonResponse(200, { default_tax_rate: 0, default_currency: currency, invoice_prefix: 'INV', template_html: null, default_payment_terms: 30, issuer_name: null, issuer_details: null, updated_at: '2026-11-20T10:00:00Z' })
        : undefined,
    );
    const { unmount } = open('invoice-settings');
    await user.click(await screen.findByLabelText('Default Currency', { selector: 'input' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['USD', 'EUR', 'GBP', 'MZN']);
    unmount();
    currency = 'KES';
    open('invoice-settings');
    const select = await screen.findByLabelText('Default Currency', { selector: 'input' });
    expect(select).toHaveValue('KES');
    await user.click(select);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['USD', 'EUR', 'GBP', 'MZN', 'KES']);
  });

  it('invoice settings: a background refetch keeps what the user is typing', async () => {
    const user = userEvent.setup();
    let prefix = 'INV';
    mockConsole((c) =>
      c.url === '/payg/admin/settings/invoices' && c.method === 'GET'
        ? jsonResponse(200, { default_tax_rate: 0, default_currency: 'USD', invoice_prefix: prefix, template_html: null, default_payment_terms: 30, issuer_name: null, issuer_details: null, updated_at: '2026-11-20T10:00:00Z' })
        : undefined,
    );
    const { queryClient } = open('invoice-settings');
    const input = await screen.findByRole('textbox', { name: 'Invoice Prefix' });
    await user.clear(input);
    await user.type(input, 'KDG');
    prefix = 'OTHER';
    await queryClient.refetchQueries();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.getByRole('textbox', { name: 'Invoice Prefix' })).toHaveValue('KDG');
  });

  it('token logs filter by organization and status only when Filter is pressed', async () => {
    const user = userEvent.setup();
    const { calls } = mockConsole((c) =>
      c.url.startsWith('/payg/admin/metrics/token-logs')
        ? jsonResponse(200, {
            data: {
              items: [{ id: 1, organization_id: 'demo', serial_number: 'SHS-1', generated_token: '123456789012345678901234', token_type: 'add_time', days_generated: 7, status: 'success', customer_name: null, generated_by: 'demo', created_at: '2026-11-20T10:00:00Z' }],
              total: 1,
            },
          })
        : undefined,
    );
    open('token-logs');
    expect(await screen.findByText('12345678901234567890…')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith('/payg/admin/metrics/token-logs')).at(-1)?.url).toBe('/payg/admin/metrics/token-logs?limit=100&offset=0');
    await user.type(screen.getByRole('textbox', { name: 'Organization ID' }), 'demo');
    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Error' }));
    expect(calls.filter((c) => c.url.startsWith('/payg/admin/metrics/token-logs'))).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain('/payg/admin/metrics/token-logs?limit=100&offset=0&organization_id=demo&status_filter=error'),
    );
  });

  it("users: 'Search users...' searches on the button, 50 at a time", async () => {
    const user = userEvent.setup();
    const { calls } = mockConsole((c) =>
      c.url.startsWith('/payg/admin/users')
        ? jsonResponse(200, { data: [{ user_id: 2, username: 'demo', email: 'owner@demo.kidogo.local', organization_id: 'demo', role: 'owner', is_active: true, last_login_at: null, created_at: '2026-11-01T00:00:00Z' }], pagination: { total: 1, total_pages: 1, limit: 50, offset: 0 } })
        : undefined,
    );
    open('users');
    expect(await screen.findAllByRole('cell', { name: 'demo' })).toHaveLength(2);
    await user.type(screen.getByPlaceholderText('Search users...'), 'dem');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/payg/admin/users?limit=50&offset=0&search=dem'));
    expect(screen.getByText('Owner')).toBeInTheDocument();
  });
});
