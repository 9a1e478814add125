import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCustomer, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { captureDownloads } from '@/testing/downloads';
import { renderApp } from '@/testing/render';
import { stubXhrUpload } from '@/testing/upload';
import { toCustomerInput, EMPTY_CUSTOMER, toIsoDate } from '../components/customer-form';
import type { CsvImportReport, Customer } from '../api/types';

const page = (data: Customer[], total = data.length) => ({
  data,
  pagination: { total, total_pages: Math.ceil(total / 10), limit: 10, offset: 0 },
});

function mockCustomersApi(handler?: (call: RecordedCall) => Response | undefined) {
  return mockFetch((call) => {
    const custom = handler?.(call);
    if (custom) return custom;
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    if (call.url.startsWith('/payg/registered-customers')) return jsonResponse(200, page([buildCustomer()]));
    return jsonResponse(404, { message: 'not mocked' });
  });
}

const query = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams;

describe('customers page', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('lists customers with the columns of the spec', async () => {
    seedSession();
    mockCustomersApi();
    renderApp('/customers');
    expect(await screen.findByRole('cell', { name: 'Amina Wanjiru' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Customers' });
    for (const h of ['Customer Name', 'Phone Contact', 'ID Number', 'County', 'Status', 'Created', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
  });

  it("deletes a customer after asking, and shows the server's refusal for one with devices", async () => {
    const user = userEvent.setup();
    let refuse = true;
    const { calls } = mockCustomersApi((call) => {
      if (call.url !== '/payg/customers/1' || call.method !== 'DELETE') return undefined;
      return refuse
        ? jsonResponse(409, { detail: 'Customer 1 has 1 device, 2 payments and 1 token: it cannot be deleted' })
        : jsonResponse(200, { message: 'Customer deleted successfully' });
    });
    seedSession();
    renderApp('/customers');
    await user.click(await screen.findByRole('button', { name: 'Delete Amina Wanjiru' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Customer' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete customer Amina Wanjiru (ID 12345678)?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Customer' }));
    expect(await within(dialog).findByText('Customer 1 has 1 device, 2 payments and 1 token: it cannot be deleted')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Customer' })).not.toBeInTheDocument());

    refuse = false;
    const reads = calls.filter((c) => c.url.startsWith('/payg/registered-customers')).length;
    await user.click(screen.getByRole('button', { name: 'Delete Amina Wanjiru' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Customer' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Customer' }));
    expect(await screen.findByText('Customer Amina Wanjiru deleted successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/payg/customers/1' && c.method === 'DELETE')).toHaveLength(2);
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/registered-customers')).length).toBeGreaterThan(reads));
  });

  it('shows the load failure with Retry, and Retry loads again', async () => {
    seedSession();
    let fail = true;
    const { calls } = mockCustomersApi((call) =>
      call.url.startsWith('/payg/registered-customers') && fail ? jsonResponse(500, { message: 'boom' }) : undefined,
    );
    renderApp('/customers');
    expect(await screen.findByText('Failed to load customers')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'Amina Wanjiru' })).toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith('/payg/registered-customers')).length).toBeGreaterThanOrEqual(2);
  });

  it('searches 500 ms after typing stops, on the chosen field, from page 1, with the search empty text', async () => {
    seedSession();
    const { calls } = mockCustomersApi((call) => {
      if (!call.url.startsWith('/payg/registered-customers')) return undefined;
      const q = query(call);
      if (q.get('search_term')) return jsonResponse(200, page([]));
      return jsonResponse(200, page([buildCustomer()], 25));
    });
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(query(calls.at(-1)!).get('offset')).toBe('10'));

    await userEvent.click(screen.getByRole('combobox', { name: 'Search field' }));
    await userEvent.click(await screen.findByRole('option', { name: 'County' }));
    const box = screen.getByRole('textbox', { name: 'Search customers' });
    await userEvent.type(box, 'Nak');
    const before = calls.filter((c) => query(c).get('search_term')).length;
    expect(before).toBe(0);
    await waitFor(() => expect(calls.some((c) => query(c).get('search_term') === 'Nak')).toBe(true), { timeout: 2000 });
    const searched = calls.filter((c) => query(c).get('search_term'));
    // one call for the whole word, not one per keystroke
    expect(searched).toHaveLength(1);
    expect(query(searched[0]!).get('search_field')).toBe('county');
    expect(query(searched[0]!).get('offset')).toBe('0');
    expect(await screen.findByText('No customers found matching your search')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(box).toHaveValue('');
    expect(await screen.findByRole('cell', { name: 'Amina Wanjiru' })).toBeInTheDocument();
  });

  it('Enter searches at once', async () => {
    seedSession();
    const { calls } = mockCustomersApi();
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search customers' }), 'Ami{Enter}');
    await waitFor(() => expect(calls.some((c) => query(c).get('search_term') === 'Ami')).toBe(true));
    expect(query(calls.find((c) => query(c).get('search_term'))!).get('search_field')).toBe('customer_name');
  });

  it('says No customers found on an empty list', async () => {
    seedSession();
    mockCustomersApi((call) => (call.url.startsWith('/payg/registered-customers') ? jsonResponse(200, page([])) : undefined));
    renderApp('/customers');
    expect(await screen.findByText('No customers found')).toBeInTheDocument();
  });
});

describe('Customer Details modal', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Total Paid and the payments count, and Remaining Balance as a dash (spec: always a dash)', async () => {
    seedSession();
    mockCustomersApi((call) => {
      if (call.url === '/payg/customers/1') return jsonResponse(200, buildCustomer());
      if (call.url === '/payg/customers/1/items') return jsonResponse(200, []);
      if (call.url === '/payg/customers/1/payments') return jsonResponse(200, []);
      if (call.url === '/payg/customers/1/status') {
        return jsonResponse(200, {
          customer_id: 1,
          customer_name: 'Amina Wanjiru',
          status: 'active',
          devices: [],
          total_paid: '500.00',
          payments_count: 2,
          paid_before: '3000.00',
          balance: '1500.00',
          template: { template_id: 1, template_name: 'Lamp', daily_price: '50.00', currency: 'KES' },
        });
      }
      return undefined;
    });
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'View details of Amina Wanjiru' }));
    const dialog = await screen.findByRole('dialog', { name: 'Customer Details' });
    expect(await within(dialog).findByText(/500\.00/)).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Payments2');
    expect(within(dialog).getByText('Total Paid').parentElement!).toHaveTextContent('+ KES 3,000.00 paid before they had these devices');
    const balance = within(dialog).getByText('Remaining Balance').parentElement!;
    expect(balance).toHaveTextContent(/^Remaining Balance—$/);
    expect(dialog).not.toHaveTextContent(/1,500\.00/);
  });
});

describe('an erased customer', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is listed as Erased, with nothing to edit, in the list and in the details', async () => {
    const erased = buildCustomer({ customer_id: 3, customer_name: 'Erased customer', id_number: '', phone_contact: '', county: null, status: 'erased' });
    seedSession();
    mockCustomersApi((call) => {
      if (call.url.startsWith('/payg/registered-customers')) return jsonResponse(200, page([buildCustomer(), erased]));
      if (call.url === '/payg/customers/3') return jsonResponse(200, erased);
      if (call.url.startsWith('/payg/customers/3/')) return jsonResponse(200, call.url.endsWith('/status') ? { total_paid: '0.00', payments_count: 0 } : []);
      return undefined;
    });
    renderApp('/customers');
    const row = (await screen.findByRole('cell', { name: 'Erased customer' })).closest('tr')!;
    expect(within(row).getByText('Erased')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Edit Erased customer' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Amina Wanjiru' })).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'View details of Erased customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Customer Details' });
    expect(within(dialog).getAllByText('Erased')).toHaveLength(2);
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});

describe('Add Customer form', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  async function openForm(handler?: (call: RecordedCall) => Response | undefined) {
    seedSession();
    const api = mockCustomersApi(
      (call) =>
        handler?.(call) ??
        (call.url === '/payg/register-customer' ? jsonResponse(201, buildCustomer({ customer_id: 2, customer_name: 'Baraka Otieno' })) : undefined),
    );
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Customer' });
    return { ...api, dialog };
  }

  it("shows a phone number as people write it in the organization's country", async () => {
    const { dialog } = await openForm((call) =>
      call.url === '/payg/settings/phone-country'
        ? jsonResponse(200, { phone_country_code: '256', country: 'Uganda', example: { written: '0772 123 456', read_as: '+256772123456' } })
        : undefined,
    );
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Phone Contact' })).toHaveAttribute('placeholder', '0772 123 456'));
  });

  it('shows a Kenyan number until the country is known', async () => {
    const { dialog } = await openForm();
    expect(within(dialog).getByRole('textbox', { name: 'Phone Contact' })).toHaveAttribute('placeholder', '0712 345 678');
  });

  it('blocks submit and names each missing required field', async () => {
    const { calls, dialog } = await openForm();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    expect(within(dialog).getByText('Customer Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('ID Number is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Phone Contact is required')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/payg/register-customer')).toBe(false);
  });

  it('has the defaults English, Individual and Active, and an email input that rejects a malformed address', async () => {
    const { calls, dialog } = await openForm();
    expect(within(dialog).getByRole('combobox', { name: 'Preferred Language' })).toHaveValue('English');
    expect(within(dialog).getByRole('combobox', { name: 'Customer Type' })).toHaveValue('Individual');
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveValue('Active');
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    expect(email).toHaveAttribute('type', 'email');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Customer Name' }), 'Baraka');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'ID Number' }), '555');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Phone Contact' }), '0722000111');
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    expect(within(dialog).getByText('Enter a valid email address')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/payg/register-customer')).toBe(false);
  });

  it('sends the trimmed payload with nulls and defaults, then closes and says so', async () => {
    const { calls, dialog } = await openForm();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Customer Name' }), '  Baraka Otieno ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'ID Number' }), ' 555 ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Phone Contact' }), '0722000111');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'County' }), 'Kisumu ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/payg/register-customer')).toBe(true));
    const body = JSON.parse(calls.find((c) => c.url === '/payg/register-customer')!.body!);
    expect(body).toMatchObject({
      customer_name: 'Baraka Otieno',
      id_number: '555',
      phone_contact: '0722000111',
      county: 'Kisumu',
      email: null,
      date_of_birth: null,
      preferred_language: 'English',
      customer_type: 'individual',
      status: 'active',
      organization_id: 'org-1',
    });
    expect(await screen.findByText(/added successfully/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Customer' })).not.toBeInTheDocument());
  });

  it("offers the agents already in use for Agent ID, so one agent is not written two ways", async () => {
    seedSession();
    const { calls } = mockCustomersApi((call) => {
      if (call.url === '/payg/collections/agents') return jsonResponse(200, { data: { agents: ['AGT-001', 'AGT-002', '(no agent)'], truncated: false } });
      return call.url === '/payg/register-customer' ? jsonResponse(201, buildCustomer({ customer_id: 2 })) : undefined;
    });
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Customer' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Customer Name' }), 'Baraka Otieno');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'ID Number' }), '555');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Phone Contact' }), '0722000111');
    const agent = within(dialog).getByRole('combobox', { name: 'Agent ID' });
    await userEvent.type(agent, 'agt');
    expect(await screen.findByRole('option', { name: 'AGT-001' })).toBeInTheDocument();
    // Customers without an agent are not an agent to choose.
    expect(screen.queryByRole('option', { name: '(no agent)' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'AGT-002' }));
    expect(agent).toHaveValue('AGT-002');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/payg/register-customer')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.url === '/payg/register-customer')!.body!)).toMatchObject({ agent_id: 'AGT-002' });
  });

  it('shows Failed to add customer with the reason and keeps the form', async () => {
    seedSession();
    mockCustomersApi((call) =>
      call.url === '/payg/register-customer'
        ? jsonResponse(409, { detail: 'A customer with ID number 555 already exists', message: 'A customer with ID number 555 already exists' })
        : undefined,
    );
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Customer' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Customer Name' }), 'Baraka');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'ID Number' }), '555');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Phone Contact' }), '0722000111');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to add customer');
    expect(alert).toHaveTextContent('A customer with ID number 555 already exists');
    expect(within(dialog).getByRole('textbox', { name: 'Customer Name' })).toHaveValue('Baraka');
  });
});

describe('Add Customer refusals are shown where the user is', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function submitRefused(reply: Response) {
    seedSession();
    mockCustomersApi((call) => (call.url === '/payg/register-customer' ? reply.clone() : undefined));
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Customer' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Customer Name' }), 'Baraka');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'ID Number' }), '555');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Phone Contact' }), '0722000111');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'County' }), 'Kisumu');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    await within(dialog).findByRole('alert');
    return dialog;
  }

  it('puts a 409 on the ID Number field and moves the focus there', async () => {
    const text = 'A customer with ID number 555 already exists';
    const dialog = await submitRefused(jsonResponse(409, { detail: text, message: text }));
    const idNumber = within(dialog).getByRole('textbox', { name: 'ID Number' });
    await waitFor(() => expect(idNumber).toHaveFocus());
    expect(idNumber).toHaveAttribute('aria-invalid', 'true');
    expect(idNumber).toHaveAccessibleDescription(text);
  });

  it("names a 400's fields by the form's labels, on the field and in the box", async () => {
    const message = 'must be a phone number (digits, optionally with + and spaces)';
    const dialog = await submitRefused(
      jsonResponse(400, { detail: `phone_contact: ${message}`, message: `phone_contact: ${message}`, errors: [{ field: 'phone_contact', message }] }),
    );
    const phone = within(dialog).getByRole('textbox', { name: 'Phone Contact' });
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAccessibleDescription(`Phone Contact ${message}`);
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent(`Phone Contact ${message}`);
    expect(alert).not.toHaveTextContent('phone_contact');
  });

  it('scrolls the error box into view when the refusal names no field', async () => {
    const scrolled: Element[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    const dialog = await submitRefused(jsonResponse(500, { message: 'Database unavailable' }));
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent('Database unavailable');
    await waitFor(() => expect(scrolled.some((el) => el.contains(alert))).toBe(true));
  });
});

describe('export and import', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('saves the export as customers.csv, and says Failed to export customers when it fails', async () => {
    seedSession();
    const names = captureDownloads();
    let fail = false;
    mockCustomersApi((call) =>
      call.url === '/payg/export-customers-csv'
        ? fail
          ? jsonResponse(500, { message: 'Export exploded' })
          : new Response('customer_name,id_number\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="x.csv"' } })
        : undefined,
    );
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(names).toEqual(['customers.csv']));
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Failed to export customers')).toBeInTheDocument();
    expect(screen.getByText('Export exploded')).toBeInTheDocument();
  });

  /** An upload answered with `report` after 300 ms (progress 50% first); `sent` collects the bodies. */
  const stubUpload = (report: CsvImportReport, sent: FormData[] = []) => stubXhrUpload({ body: report, delayMs: 300 }, sent);

  const importReport = (overrides: Partial<CsvImportReport>): CsvImportReport => ({
    job_id: 'j1',
    rows: 3,
    imported: 2,
    skipped: 1,
    duplicates: 0,
    errors: [{ row: 3, field: 'phone_contact', message: 'is required' }],
    more_errors: 0,
    duration_ms: 12,
    ...overrides,
  });

  async function uploadFile() {
    renderApp('/customers');
    await screen.findByRole('cell', { name: 'Amina Wanjiru' });
    await userEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Customers from CSV' });
    const file = new File(['customer_name,id_number,phone_contact\n'], 'people.csv', { type: 'text/csv' });
    await userEvent.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    return dialog;
  }

  it('uploads the file as csv_file with a progress bar, then shows the import report', async () => {
    seedSession();
    mockCustomersApi();
    const sent = stubUpload(importReport({}));
    const dialog = await uploadFile();
    expect(await within(dialog).findByText('Uploading… 50%')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Upload progress' })).toBeInTheDocument();
    const report = await within(dialog).findByLabelText('Import report');
    expect(report).toHaveTextContent('2 imported, 1 skipped');
    expect(within(report).getByRole('cell', { name: 'phone_contact' })).toBeInTheDocument();
    expect(sent[0]!.get('csv_file')).toBeInstanceOf(File);
  });

  it("numbers each problem by the spreadsheet's line (the header is line 1), not the API's data row", async () => {
    seedSession();
    mockCustomersApi();
    // The API's row 3 is the third data row: line 4 of the file.
    stubUpload(importReport({ errors: [{ row: 3, field: 'phone_contact', message: 'is required' }] }));
    const dialog = await uploadFile();
    const errors = await within(dialog).findByRole('table', { name: 'Import errors' });
    expect(within(errors).getByRole('columnheader', { name: 'Line' })).toBeInTheDocument();
    const [, row] = within(errors).getAllByRole('row');
    expect(within(row!).getAllByRole('cell')[0]).toHaveTextContent(/^4$/);
  });

  it('does not say Success when rows were skipped: a warning when some were imported, an error when none were', async () => {
    seedSession();
    mockCustomersApi();
    stubUpload(importReport({ rows: 7, imported: 0, skipped: 7, errors: [{ row: 1, field: 'id_number', message: 'is required' }] }));
    let dialog = await uploadFile();
    const none = (await screen.findByText('0 customers imported, 7 skipped')).closest('.mantine-Notification-root')!;
    expect(none).toHaveTextContent('Nothing imported');
    expect(none).not.toHaveTextContent('Success');
    expect(within(dialog).getByLabelText('Import report')).toHaveTextContent('Nothing imported');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Import another file' }));
    stubUpload(importReport({ rows: 3, imported: 2, skipped: 1 }));
    const file = new File(['customer_name,id_number,phone_contact\n'], 'more.csv', { type: 'text/csv' });
    dialog = screen.getByRole('dialog', { name: 'Import Customers from CSV' });
    await userEvent.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const some = (await screen.findByText('2 customers imported, 1 skipped')).closest('.mantine-Notification-root')!;
    expect(some).toHaveTextContent('Imported with rows skipped');
    expect(some).not.toHaveTextContent('Success');
  });
});

describe('customer payload rules', { timeout: 20_000 }, () => {
  it('turns a valid date of birth into YYYY-MM-DD and anything else into null', () => {
    expect(toIsoDate('1990-05-15')).toBe('1990-05-15');
    expect(toIsoDate('15/05/1990')).toBe('1990-05-15');
    expect(toIsoDate('1990-02-30')).toBeNull();
    expect(toIsoDate('yesterday')).toBeNull();
    const input = toCustomerInput({ ...EMPTY_CUSTOMER, customer_name: ' A ', preferred_language: '', customer_type: '', status: '' }, null);
    expect(input).toMatchObject({ customer_name: 'A', preferred_language: 'English', customer_type: 'individual', status: 'active', email: null });
  });
});
