import { formatMoney } from '@/components/ui/money';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onPhoneWidth } from '@/testing/media';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { Invoice } from '../api/types';

const invoice = (overrides: Partial<Invoice> = {}): Invoice => ({
  invoice_id: '3f2b9c1e-7a44-4d0b-9a55-1c2d3e4f5a6b',
  invoice_number: 'INV-000001',
  organization_id: 'demo',
  organization_name: 'Demo Solar Ltd',
  customer_name: null,
  customer_email: null,
  customer_phone: null,
  description: 'November subscription',
  line_items: [],
  subtotal: '1250.00',
  tax_rate: 0,
  tax_amount: '0.00',
  amount: '1250',
  // Older rows may come without a currency: the screen shows USD.
  currency: null as unknown as string,
  status: 'pending',
  due_date: '2026-12-01',
  paid_at: null,
  stored_status: 'pending',
  payment_tx_hash: null,
  payment_submitted_at: null,
  created_by: 'admin',
  emailed_at: null,
  emailed_to: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  ...overrides,
});

function mockInvoicesApi(rows: Invoice[], extra: (c: RecordedCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (/^\/payg\/(admin\/)?invoices\/stats/.test(call.url))
      return jsonResponse(200, {
        total_invoices: rows.length,
        paid_invoices: 0,
        pending_invoices: rows.length,
        overdue_invoices: 0,
        currency: 'USD',
        total_revenue: '0.00',
        outstanding_amount: '0.00',
        by_currency: [],
      });
    if (/^\/payg\/(admin\/)?invoices\?/.test(call.url)) return jsonResponse(200, { data: rows, pagination: { total: rows.length } });
    if (call.url.startsWith('/payg/admin/organizations'))
      return jsonResponse(200, { data: [{ organization_id: 'demo', name: 'Demo Solar Ltd' }, { organization_id: 'acme', name: null }] });
    return jsonResponse(200, { data: [] });
  });
}

async function openInvoices(role: 'super_admin' | 'owner' | 'staff' = 'super_admin') {
  seedSession({ user: buildUser({ role, organization_id: 'demo' }) });
  renderApp('/invoices');
}

describe('Invoices', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the id cut to 8 characters, the amount with 2 decimals, USD by default, and unknown statuses as draft', async () => {
    const { calls } = mockInvoicesApi([invoice(), invoice({ invoice_id: 'abcdef12-0000', invoice_number: 'INV-000002', status: 'weird' as Invoice['status'] })]);
    await openInvoices('super_admin');
    expect(await screen.findByText('3f2b9c1e…', {}, { timeout: 5000 })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Invoices' });
    for (const h of ['Invoice ID', 'Organization', 'Amount', 'Currency', 'Status', 'Due Date', 'Created', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(table).getAllByText('1,250.00')).toHaveLength(2);
    expect(within(table).getAllByText('USD')).toHaveLength(2);
    expect(within(table).getByText('Weird')).toHaveAttribute('class', expect.stringContaining('Badge'));
    expect(calls.map((c) => c.url)).toContain('/payg/admin/invoices?limit=50&offset=0');
    expect(calls.map((c) => c.url)).toContain('/payg/admin/invoices/stats');
  });

  it('never adds revenue in different currencies: the billing currency first, the others under it', async () => {
    mockInvoicesApi([invoice()], (call) =>
      call.url.startsWith('/payg/invoices/stats')
        ? jsonResponse(200, {
            total_invoices: 3,
            paid_invoices: 3,
            pending_invoices: 0,
            overdue_invoices: 0,
            currency: 'USD',
            total_revenue: '100.00',
            outstanding_amount: '0.00',
            by_currency: [
              { currency: 'KES', total_revenue: '5000.00', outstanding_amount: '0.00' },
              { currency: 'USD', total_revenue: '100.00', outstanding_amount: '0.00' },
            ],
          })
        : undefined,
    );
    await openInvoices('owner');
    expect(await screen.findByText(`+ ${formatMoney('5000.00', 'KES')}`, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText(/5,100/)).not.toBeInTheDocument();
  });

  it('pages 10 at a time and searches by the chosen field', async () => {
    const user = userEvent.setup();
    const rows = Array.from({ length: 12 }, (_, i) =>
      invoice({ invoice_id: `${String(i).padStart(8, '0')}-x`, invoice_number: `INV-${i}`, status: i === 3 ? 'paid' : 'pending' }),
    );
    mockInvoicesApi(rows);
    await openInvoices('owner');
    expect(await screen.findByText('Showing 1 to 10 of 12 invoices', {}, { timeout: 5000 })).toBeInTheDocument();
    await user.click(screen.getByLabelText('Search by', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Status' }));
    await user.type(screen.getByRole('textbox', { name: 'Search invoices' }), 'paid');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('INV-3')).toBeInTheDocument();
  });

  it("says 'Failed to load invoices' with Retry", async () => {
    mockInvoicesApi([], (c) => (c.url.startsWith('/payg/invoices?') ? jsonResponse(500, {}) : undefined));
    await openInvoices('staff');
    expect(await screen.findByText('Failed to load invoices', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('offers Create, Settings, status and delete only to super admins and owners; PDF to everyone', async () => {
    const user = userEvent.setup();
    mockInvoicesApi([invoice()]);
    await openInvoices('staff');
    await screen.findByText('3f2b9c1e…', {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Create Invoice' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF of INV-000001' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More actions for INV-000001' }));
    expect(await screen.findByRole('menuitem', { name: 'Download PDF' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Update Status' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete Invoice' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Email Invoice' })).not.toBeInTheDocument();
  });

  it('emails the invoice to its customer email or another address, with a message; names a refused field', async () => {
    const user = userEvent.setup();
    let reply: Response = jsonResponse(200, invoice({ status: 'sent', emailed_to: 'books@demo.test', emailed_at: '2026-11-21T08:00:00Z' }));
    const { calls } = mockInvoicesApi([invoice({ customer_email: 'accounts@demo.test', emailed_to: 'accounts@demo.test', emailed_at: '2026-11-20T11:00:00Z' })], (c) =>
      c.method === 'POST' && c.url.endsWith('/email') ? reply : undefined,
    );
    await openInvoices('owner');
    await user.click(await screen.findByRole('button', { name: 'More actions for INV-000001' }, { timeout: 5000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'Email Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email Invoice' });
    expect(within(dialog).getByText(/The invoice is then marked sent\./)).toBeInTheDocument();
    expect(within(dialog).getByText(/Last emailed to accounts@demo\.test on/)).toBeInTheDocument();
    const address = within(dialog).getByLabelText(/^Email address/);
    expect(address).toHaveValue('accounts@demo.test');

    await user.clear(address);
    await user.type(address, 'not an address');
    await user.click(within(dialog).getByRole('button', { name: 'Send Email' }));
    expect(within(dialog).getByText('Email address must be a valid email')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(address);
    await user.type(address, 'books@demo.test');
    await user.type(within(dialog).getByLabelText(/^Message/), 'Your December invoice.');
    reply = jsonResponse(502, { detail: 'The mail server did not take the email: connect ECONNREFUSED' });
    await user.click(within(dialog).getByRole('button', { name: 'Send Email' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The mail server did not take the email: connect ECONNREFUSED');

    reply = jsonResponse(200, invoice({ status: 'sent', emailed_to: 'books@demo.test', emailed_at: '2026-11-21T08:00:00Z' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('Invoice INV-000001 emailed to books@demo.test')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Email Invoice' })).not.toBeInTheDocument());
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.url)).toEqual([
      '/payg/invoices/3f2b9c1e-7a44-4d0b-9a55-1c2d3e4f5a6b/email',
      '/payg/invoices/3f2b9c1e-7a44-4d0b-9a55-1c2d3e4f5a6b/email',
    ]);
    expect(JSON.parse(posts[1]!.body!)).toEqual({ to: 'books@demo.test', message: 'Your December invoice.' });
  });

  it("says 'Failed to download invoice' when the PDF cannot be fetched", async () => {
    const user = userEvent.setup();
    mockInvoicesApi([invoice()], (c) => (c.url.startsWith('/payg/download-invoice/') ? jsonResponse(500, {}) : undefined));
    await openInvoices('staff');
    await user.click(await screen.findByRole('button', { name: 'Download PDF of INV-000001' }, { timeout: 5000 }));
    expect(await screen.findByText('Failed to download invoice')).toBeInTheDocument();
  });

  describe('Create Invoice', () => {
    it('requires organization and due date, computes line and invoice totals, keeps one row, and drops empty rows', async () => {
      const user = userEvent.setup();
      const { calls } = mockInvoicesApi([invoice()], (c) =>
        c.url === '/payg/admin/invoices' && c.method === 'POST' ? jsonResponse(201, invoice()) : undefined,
      );
      await openInvoices('super_admin');
      await user.click(await screen.findByRole('button', { name: 'Create Invoice' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
      expect(within(dialog).queryByRole('button', { name: 'Remove line 1' })).not.toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
      expect(within(dialog).getByText('Organization is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Due date is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Add at least one line item with a description')).toBeInTheDocument();

      await user.type(within(dialog).getByRole('textbox', { name: 'Description of line 1' }), 'Subscription');
      const qty = within(dialog).getByRole('textbox', { name: 'Quantity of line 1' });
      await user.clear(qty);
      await user.type(qty, '3');
      await user.type(within(dialog).getByRole('textbox', { name: 'Unit price of line 1' }), '19.99');
      expect(within(dialog).getByLabelText('Total of line 1')).toHaveTextContent('59.97');

      await user.click(within(dialog).getByRole('button', { name: 'Add Line Item' }));
      expect(within(dialog).getByRole('button', { name: 'Remove line 1' })).toBeInTheDocument();
      await user.type(within(dialog).getByRole('textbox', { name: 'Unit price of line 2' }), '500');
      expect(within(dialog).getByLabelText('Invoice amount')).toHaveTextContent('Amount: 59.97');
      await user.click(within(dialog).getByRole('button', { name: 'Add Line Item' }));
      await user.click(within(dialog).getByRole('button', { name: 'Remove line 3' }));
      expect(within(dialog).queryByRole('textbox', { name: 'Description of line 3' })).not.toBeInTheDocument();

      await user.click(within(dialog).getByLabelText(/^Organization/, { selector: 'input' }));
      await user.click(await screen.findByRole('option', { name: 'Demo Solar Ltd (demo)' }));
      const due = within(dialog).getByLabelText(/^Due Date/, { selector: 'input' });
      await user.type(due, '2026-12-31');
      fireEvent.blur(due);

      await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
      await waitFor(() => expect(calls.some((c) => c.url === '/payg/admin/invoices' && c.method === 'POST')).toBe(true));
      const body = JSON.parse(calls.find((c) => c.url === '/payg/admin/invoices' && c.method === 'POST')!.body!);
      expect(body).toMatchObject({ organization_id: 'demo', due_date: '2026-12-31', amount: 59.97 });
      expect(JSON.parse(body.line_items)).toEqual([{ description: 'Subscription', quantity: 3, unit_price: 19.99, total_amount: 59.97 }]);
      expect(await screen.findByText('Invoice created successfully')).toBeInTheDocument();
    }, 20_000);

    it('on a phone, stacks each line item: labelled fields at full width, not a table squeezed into the dialog', async () => {
      const user = userEvent.setup();
      onPhoneWidth();
      mockInvoicesApi([invoice()]);
      await openInvoices('super_admin');
      await user.click(await screen.findByRole('button', { name: 'Create Invoice' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
      expect(within(dialog).queryByRole('table', { name: 'Line items' })).not.toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Add Line Item' }));

      const line2 = within(dialog).getByRole('group', { name: 'Line 2' });
      for (const label of ['Description', 'Quantity', 'Unit Price']) expect(within(line2).getByText(label)).toBeInTheDocument();
      await user.type(within(line2).getByRole('textbox', { name: 'Unit price of line 2' }), '12.5');
      expect(within(line2).getByLabelText('Total of line 2')).toHaveTextContent('12.50');
      await user.click(within(line2).getByRole('button', { name: 'Remove line 2' }));
      expect(within(dialog).queryByRole('group', { name: 'Line 2' })).not.toBeInTheDocument();
      expect(within(dialog).getByRole('group', { name: 'Line 1' })).toBeInTheDocument();
    });

    it("shows the server's message when creation fails; an owner bills only their own organization", async () => {
      const user = userEvent.setup();
      mockInvoicesApi([], (c) =>
        c.url === '/payg/invoices' && c.method === 'POST'
          ? jsonResponse(400, { detail: 'due_date: must be a date (YYYY-MM-DD)', message: 'due_date: must be a date (YYYY-MM-DD)' })
          : undefined,
      );
      await openInvoices('owner');
      await user.click(await screen.findByRole('button', { name: 'Create Invoice' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
      expect(within(dialog).getByLabelText(/^Organization/, { selector: 'input' })).toHaveValue('Sunlight Ltd (demo)');
      await user.type(within(dialog).getByRole('textbox', { name: 'Description of line 1' }), 'Setup');
      const due = within(dialog).getByLabelText(/^Due Date/, { selector: 'input' });
      await user.type(due, '2026-12-31');
      fireEvent.blur(due);
      await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
      expect(await within(dialog).findByText('due_date: must be a date (YYYY-MM-DD)')).toBeInTheDocument();
    });
  });

  it("updates the status with 'Invoice status updated to {status}' and reports a failure with its message", async () => {
    const user = userEvent.setup();
    let fail = false;
    const { calls } = mockInvoicesApi([invoice()], (c) =>
      c.method === 'PUT' ? (fail ? jsonResponse(403, { detail: 'Forbidden', message: 'Forbidden' }) : jsonResponse(200, invoice({ status: 'sent' }))) : undefined,
    );
    await openInvoices('owner');
    const changeTo = async (name: string) => {
      await user.click(await screen.findByRole('button', { name: 'More actions for INV-000001' }, { timeout: 5000 }));
      await user.click(await screen.findByRole('menuitem', { name: 'Update Status' }));
      const dialog = await screen.findByRole('dialog', { name: 'Update Invoice Status' });
      await user.click(within(dialog).getByLabelText('New status', { selector: 'input' }));
      await user.click(await screen.findByRole('option', { name }));
      await user.click(within(dialog).getByRole('button', { name: 'Update Status' }));
    };
    await changeTo('Sent');
    expect(await screen.findByText('Invoice status updated to sent')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.url).toBe('/payg/invoices/3f2b9c1e-7a44-4d0b-9a55-1c2d3e4f5a6b/status');
    fail = true;
    await changeTo('Paid');
    expect(await screen.findByText('Failed to update invoice status: Forbidden')).toBeInTheDocument();
  });

  it('offers exactly the screen statuses pending, sent, paid, overdue and draft (spec §4)', async () => {
    const user = userEvent.setup();
    mockInvoicesApi([invoice(), invoice({ invoice_id: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a', invoice_number: 'INV-000002', status: 'cancelled', stored_status: 'cancelled' })]);
    await openInvoices('owner');
    const choicesFor = async (number: string) => {
      await user.click(await screen.findByRole('button', { name: `More actions for ${number}` }, { timeout: 5000 }));
      await user.click(await screen.findByRole('menuitem', { name: 'Update Status' }));
      const dialog = await screen.findByRole('dialog', { name: 'Update Invoice Status' });
      await user.click(within(dialog).getByLabelText('New status', { selector: 'input' }));
      const names = (await screen.findAllByRole('option')).map((o) => o.textContent);
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update Invoice Status' })).not.toBeInTheDocument());
      return names;
    };
    expect(await choicesFor('INV-000001')).toEqual(['Pending', 'Sent', 'Paid', 'Overdue', 'Draft']);
    // A console invoice already cancelled keeps its own status in the list.
    expect(await choicesFor('INV-000002')).toEqual(['Pending', 'Sent', 'Paid', 'Overdue', 'Draft', 'Cancelled']);
  });

  it('asks before deleting and reports the outcome', async () => {
    const user = userEvent.setup();
    const { calls } = mockInvoicesApi([invoice()], (c) => (c.method === 'DELETE' ? jsonResponse(200, { message: 'deleted' }) : undefined));
    await openInvoices('super_admin');
    await user.click(await screen.findByRole('button', { name: 'More actions for INV-000001' }, { timeout: 5000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Invoice' });
    expect(within(dialog).getByText('Are you sure you want to delete this invoice? This action cannot be undone.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Invoice' }));
    expect(await screen.findByText('Invoice deleted successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/payg/admin/invoices/3f2b9c1e-7a44-4d0b-9a55-1c2d3e4f5a6b');
  });

  it('saves the invoice settings for real', async () => {
    const user = userEvent.setup();
    const { calls } = mockInvoicesApi([], (c) => {
      if (c.url === '/payg/admin/settings/invoices' && c.method === 'GET')
        return jsonResponse(200, { default_tax_rate: 0, default_currency: 'USD', invoice_prefix: 'INV', template_html: null, default_payment_terms: 30, issuer_name: null, issuer_details: null });
      if (c.url === '/payg/admin/settings/invoices' && c.method === 'PUT') return jsonResponse(200, {});
      return undefined;
    });
    await openInvoices('super_admin');
    await user.click(await screen.findByRole('button', { name: 'Settings' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice Settings' });
    const rate = await within(dialog).findByRole('textbox', { name: 'Default Tax Rate (%)' });
    expect(within(dialog).getByRole('textbox', { name: 'Default Payment Terms (days)' })).toHaveValue('30');
    // The Invoices screen offers USD, KES and MZN (spec §3).
    await user.click(within(dialog).getByLabelText('Default Currency', { selector: 'input' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['USD', 'KES', 'MZN']);
    await user.keyboard('{Escape}');
    await user.clear(rate);
    await user.type(rate, '16');
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Invoice settings updated successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({
      default_tax_rate: 16,
      default_currency: 'USD',
      invoice_prefix: 'INV',
      default_payment_terms: 30,
    });
  });
});
