import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { stubXhrUpload, stubXhrUploads, type UploadReply } from '@/testing/upload';
import { captureDownloads } from '@/testing/downloads';
import type { AccountsImportReport, CsvImportReport } from '@kidogo/contracts';
import { buildLocation, UNPLACED, WAREHOUSE } from '@/features/stock/testing/mock-stock-api';
import type { Product } from '../api/types';

function product(overrides: Partial<Product> = {}): Product {
  return {
    item_id: 1,
    organization_id: 'org-1',
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    product_type: null,
    manufacturer: 'SunCo',
    model: null,
    description: null,
    price: '12000.00',
    status: 'available',
    product_oem: 'SunKing',
    is_assigned: false,
    customer_id: null,
    customer_name: null,
    assigned_at: null,
    token_count: 4,
    total_paid: '0.00',
    credit_until: null,
    paid_off: false,
    location_id: null,
    location_name: null,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

type Handler = (call: RecordedCall) => Response | undefined;

function mockProductsApi(extra: Handler = () => undefined, items: Product[] = [product()]) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.url === '/payg/stock-locations') return jsonResponse(200, { data: [buildLocation(), WAREHOUSE], unplaced: UNPLACED });
    if (call.url.startsWith('/payg/products/summary'))
      return jsonResponse(200, { data: { total_products: 3, assigned_products: 2, unassigned_products: 1 } });
    if (call.url.startsWith('/payg/products'))
      return jsonResponse(200, { data: { items, pagination: { total: items.length, total_pages: 1, page: 1, limit: 20 } } });
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    const checked = /^\/payg\/customers\/(\d+)\/credit-check$/.exec(call.url);
    if (checked) return jsonResponse(200, creditCheck(Number(checked[1])));
    return jsonResponse(404, { detail: 'Not found', message: 'Not found' });
  });
}

/** GET /customers/{id}/credit-check: allowed, or as `overrides` say. */
const creditCheck = (customerId: number, overrides: Record<string, unknown> = {}) => ({
  customer_id: customerId,
  customer_name: 'Amina Wanjiru',
  devices: 1,
  repayment: { expected_by_today: '2350.00', paid_towards: '2200.00', repaid_share: 93.6, standing: 'on_track' },
  repossessions: 0,
  rule: 'on_track',
  refuse_repossessed: false,
  allowed: true,
  reasons: [],
  ...overrides,
});

async function openProducts() {
  seedSession();
  const view = renderApp('/products');
  // The file's first test also loads the page's code (the Import Accounts dialog with it): slow on a busy machine.
  await screen.findByRole('cell', { name: 'SHS-0001' }, { timeout: 15_000 });
  return view;
}

async function openRowAction(name: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'More actions for SHS-0001' }));
  await user.click(await screen.findByRole('menuitem', { name }));
  return { user, dialog: await screen.findByRole('dialog') };
}

describe('Product Management', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the four summary cards with the assignment rate to one decimal, and the table', async () => {
    const { calls } = mockProductsApi();
    await openProducts();
    expect(within(screen.getByRole('group', { name: 'Total Products' })).getByText('3')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Assigned' })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Unassigned' })).getByText('1')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Assignment Rate' })).getByText('66.7%')).toBeInTheDocument();
    for (const h of ['Serial Number', 'Product Name', 'OEM', 'Status', 'Customer', 'Location', 'Assigned Date', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'View Activity' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(calls.find((c) => c.url.startsWith('/payg/products?'))?.url).toBe('/payg/products?page=1&limit=20&status=all');
  });

  it("shows the server's message, else 'Failed to fetch products', with Retry", async () => {
    mockProductsApi((c) => (c.url.startsWith('/payg/products?') ? jsonResponse(500, {}) : undefined));
    seedSession();
    renderApp('/products');
    expect(await screen.findByText('HTTP error! status: 500')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('filters by assignment and changes the page size', async () => {
    const user = userEvent.setup();
    const { calls } = mockProductsApi();
    await openProducts();
    await user.click(screen.getByRole('radio', { name: 'Assigned' }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('status=assigned'))).toBe(true));
    await user.click(screen.getByLabelText('Page size', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '50 / page' }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('limit=50&status=assigned'))).toBe(true));
  });

  describe('Add New Product', () => {
    it('requires serial number, product name and price; a failure reads "Failed to add product"', async () => {
      const user = userEvent.setup();
      const { calls } = mockProductsApi((c) =>
        c.url === '/payg/items/add' ? jsonResponse(409, { detail: 'A device with serial number SHS-9 already exists', message: 'A device with serial number SHS-9 already exists' }) : undefined,
      );
      await openProducts();
      await user.click(screen.getByRole('button', { name: 'Add Product' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add New Product' });
      await user.clear(within(dialog).getByRole('textbox', { name: 'Price' }));
      await user.click(within(dialog).getByRole('button', { name: 'Add Product' }));
      expect(within(dialog).getByText('Serial number is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Product name is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Price is required')).toBeInTheDocument();
      expect(calls.some((c) => c.url === '/payg/items/add')).toBe(false);

      await user.type(within(dialog).getByRole('textbox', { name: 'Serial Number' }), 'SHS-9');
      await user.type(within(dialog).getByRole('textbox', { name: 'Product Name' }), 'Lamp');
      await user.type(within(dialog).getByRole('textbox', { name: 'Price' }), '1500.5');
      await user.click(within(dialog).getByRole('button', { name: 'Add Product' }));
      expect(await within(dialog).findByText('Failed to add product')).toBeInTheDocument();
      expect(within(dialog).getByText('A device with serial number SHS-9 already exists')).toBeInTheDocument();
      const sent = JSON.parse(calls.find((c) => c.url === '/payg/items/add')!.body!);
      expect(sent).toMatchObject({ serial_number: 'SHS-9', product_name: 'Lamp', price: 1500.5, status: 'available' });
    });
  });

  describe('Assign Product', () => {
    it('asks for a search term, says when nothing matched, and requires a customer', async () => {
      let customers: unknown[] = [];
      const { calls } = mockProductsApi((c) => {
        if (c.url.startsWith('/payg/registered-customers'))
          return jsonResponse(200, { data: customers, pagination: { total: customers.length, total_pages: 1, limit: 50, offset: 0 } });
        if (c.url === '/payg/items/assign') return jsonResponse(200, { message: 'ok', changed: true, item: product({ is_assigned: true }) });
        return undefined;
      });
      await openProducts();
      const { user, dialog } = await openRowAction('Assign Product');

      await user.click(within(dialog).getByRole('button', { name: 'Search' }));
      expect(within(dialog).getByText('Please enter a search term to find customers.')).toBeInTheDocument();

      await user.type(within(dialog).getByRole('textbox', { name: 'Search customers' }), 'zzz{Enter}');
      expect(await within(dialog).findByText('No customers found with that search term.')).toBeInTheDocument();
      expect(calls.find((c) => c.url.startsWith('/payg/registered-customers'))?.url).toBe(
        '/payg/registered-customers?limit=50&offset=0&search_term=zzz&search_field=customer_name',
      );

      customers = [{ customer_id: 42, customer_name: 'Amina Wanjiru', phone_contact: '0712345678' }];
      await user.clear(within(dialog).getByRole('textbox', { name: 'Search customers' }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Search customers' }), 'amina');
      await user.click(within(dialog).getByRole('button', { name: 'Search' }));
      await within(dialog).findByRole('radio', { name: 'Amina Wanjiru' });

      await user.click(within(dialog).getByRole('button', { name: 'Assign Product' }));
      expect(within(dialog).getByText('Please select a customer to assign the product to.')).toBeInTheDocument();
      expect(calls.some((c) => c.url === '/payg/items/assign')).toBe(false);

      await user.click(within(dialog).getByRole('radio', { name: 'Amina Wanjiru' }));
      // Where the customer stands, before the device is given.
      const check = await within(dialog).findByRole('group', { name: 'Credit check' });
      expect(check).toHaveTextContent('On track');
      expect(check).toHaveTextContent('holds 1 device');
      expect(check).toHaveTextContent('93.6%');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Assign Product' })).toBeEnabled());
      await user.click(within(dialog).getByRole('button', { name: 'Assign Product' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(JSON.parse(calls.find((c) => c.url === '/payg/items/assign')!.body!)).toEqual({
        customer_id: 42,
        item_serial_number: 'SHS-0001',
        organization_id: '',
      });
      expect(await screen.findByText('Product SHS-0001 assigned to Amina Wanjiru')).toBeInTheDocument();
    });

    it('reports a failed search and a refused assignment', async () => {
      let searchFails = true;
      mockProductsApi((c) => {
        if (c.url.startsWith('/payg/registered-customers'))
          return searchFails
            ? jsonResponse(500, {})
            : jsonResponse(200, { data: [{ customer_id: 1, customer_name: 'Baraka', phone_contact: '0700000000' }], pagination: { total: 1, total_pages: 1, limit: 50, offset: 0 } });
        if (c.url === '/payg/items/assign')
          return jsonResponse(409, { detail: 'Device SHS-0001 is already assigned to another customer', message: 'Device SHS-0001 is already assigned to another customer' });
        return undefined;
      });
      await openProducts();
      const { user, dialog } = await openRowAction('Assign Product');
      await user.type(within(dialog).getByRole('textbox', { name: 'Search customers' }), 'bar{Enter}');
      expect(await within(dialog).findByText('Failed to search customers. Please try again.')).toBeInTheDocument();
      searchFails = false;
      await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
      await user.click(await within(dialog).findByRole('radio', { name: 'Baraka' }));
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Assign Product' })).toBeEnabled());
      await user.click(within(dialog).getByRole('button', { name: 'Assign Product' }));
      expect(await within(dialog).findByText('Failed to assign product')).toBeInTheDocument();
      expect(within(dialog).getByText('Device SHS-0001 is already assigned to another customer')).toBeInTheDocument();
    });

    it('gives a device the follow-on sales rule refuses only with an owner’s or admin’s reason', async () => {
      const reason = 'Baraka is Behind: paid 2,200.00 of the 3,350.00 their plans expect by today (65.7%). This organization gives another device only to customers Paid off or On track.';
      const { calls } = mockProductsApi((c) => {
        if (c.url.startsWith('/payg/registered-customers'))
          return jsonResponse(200, { data: [{ customer_id: 1, customer_name: 'Baraka', phone_contact: '0700000000' }], pagination: { total: 1, total_pages: 1, limit: 50, offset: 0 } });
        if (c.url === '/payg/customers/1/credit-check')
          return jsonResponse(200, creditCheck(1, { customer_name: 'Baraka', allowed: false, reasons: [reason], repayment: { expected_by_today: '3350.00', paid_towards: '2200.00', repaid_share: 65.7, standing: 'behind' } }));
        if (c.url === '/payg/items/assign') return jsonResponse(200, { message: 'ok', changed: true, item: product({ is_assigned: true }) });
        return undefined;
      });
      await openProducts();
      const { user, dialog } = await openRowAction('Assign Product');
      await user.type(within(dialog).getByRole('textbox', { name: 'Search customers' }), 'bar{Enter}');
      await user.click(await within(dialog).findByRole('radio', { name: 'Baraka' }));
      const refused = await within(dialog).findByRole('alert', { name: 'The follow-on sales rule refuses this customer' });
      expect(refused).toHaveTextContent(reason);
      expect(within(dialog).getByRole('button', { name: 'Assign Product' })).toBeDisabled();
      await user.type(within(refused).getByRole('textbox', { name: /Reason to give it anyway/ }), 'Guarantor signed');
      await user.click(within(dialog).getByRole('button', { name: 'Assign Product' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(JSON.parse(calls.find((c) => c.url === '/payg/items/assign')!.body!)).toEqual({
        customer_id: 1,
        item_serial_number: 'SHS-0001',
        override_reason: 'Guarantor signed',
        organization_id: '',
      });
    });
  });

  describe('Update Token Count', () => {
    it('requires a count, then confirms with an alert', async () => {
      const { calls } = mockProductsApi((c) =>
        c.url === '/payg/update-token-count'
          ? jsonResponse(200, { message: 'ok', serial_number: 'SHS-0001', old_token_count: 4, new_token_count: 10 })
          : undefined,
      );
      await openProducts();
      const { user, dialog } = await openRowAction('Update Token Count');
      expect(within(dialog).getByText('Current token count: 4')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Update Token Count' }));
      expect(within(dialog).getByText('Please select a product and enter a new token count.')).toBeInTheDocument();
      await user.type(within(dialog).getByRole('textbox', { name: 'New Token Count' }), '10');
      await user.click(within(dialog).getByRole('button', { name: 'Update Token Count' }));
      expect(await within(dialog).findByText('Token count updated successfully!')).toBeInTheDocument();
      expect(JSON.parse(calls.find((c) => c.url === '/payg/update-token-count')!.body!)).toEqual({
        serial_number: 'SHS-0001',
        new_token_count: 10,
      });
    });

    it("shows 'Failed to update token count. Please try again.' on failure", async () => {
      mockProductsApi((c) => (c.url === '/payg/update-token-count' ? jsonResponse(500, {}) : undefined));
      await openProducts();
      const { user, dialog } = await openRowAction('Update Token Count');
      await user.type(within(dialog).getByRole('textbox', { name: 'New Token Count' }), '0');
      await user.click(within(dialog).getByRole('button', { name: 'Update Token Count' }));
      expect(await within(dialog).findByText('Failed to update token count. Please try again.')).toBeInTheDocument();
    });
  });

  it('Edit Product saves only what changed through PUT /items/{serial}', async () => {
    const { calls } = mockProductsApi((c) =>
      c.method === 'PUT' ? jsonResponse(200, { message: 'ok', item: product({ product_name: 'Solar Home 80W' }) }) : undefined,
    );
    await openProducts();
    const { user, dialog } = await openRowAction('Edit Product');
    const name = within(dialog).getByRole('textbox', { name: 'Product Name' });
    expect(name).toHaveValue('Solar Home 50W');
    expect(within(dialog).getByRole('textbox', { name: 'Serial Number' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Solar Home 80W');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/payg/items/SHS-0001');
    expect(JSON.parse(put.body!)).toEqual({ product_name: 'Solar Home 80W' });
  });

  it("Delete Product asks first and shows the API's reason when it refuses", async () => {
    const reason = 'Device SHS-0001 is assigned to Amina Wanjiru; unassign it first';
    const { calls } = mockProductsApi((c) => (c.method === 'DELETE' ? jsonResponse(409, { detail: reason, message: reason }) : undefined));
    await openProducts();
    const { user, dialog } = await openRowAction('Delete Product');
    expect(within(dialog).getByText(/Are you sure you want to delete product/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Product' }));
    expect(await within(dialog).findByText(reason)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/payg/items/SHS-0001');
  });
});

describe('Import Devices', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("uploads the device maker's file as file, refreshes the list and shows each refused row by its spreadsheet line", async () => {
    mockProductsApi();
    const report: CsvImportReport = {
      job_id: 'j2',
      rows: 3,
      imported: 2,
      skipped: 1,
      duplicates: 0,
      errors: [{ row: 3, field: 'token_count', message: 'must be at least 0' }],
      more_errors: 0,
      duration_ms: 9,
    };
    const sent = stubXhrUpload({ body: report, delayMs: 100 }, []);
    await openProducts();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Devices from CSV' });
    expect(dialog).toHaveTextContent('token_count is the count of the last code it accepted');
    const file = new File(['serial_number,product_name,token_count\n'], 'devices.csv', { type: 'text/csv' });
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, file);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const shown = await within(dialog).findByLabelText('Import report');
    expect(shown).toHaveTextContent('2 imported, 1 skipped');
    const errors = within(dialog).getByRole('table', { name: 'Import errors' });
    const [, row] = within(errors).getAllByRole('row');
    expect(within(row!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['4', 'token_count', 'must be at least 0']);
    expect(await screen.findByText('2 devices imported, 1 skipped')).toBeInTheDocument();
    expect(sent[0]!.get('file')).toBeInstanceOf(File);
  });
});

describe('Import Accounts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const IMPORT_URL = '/payg/items/accounts/import';

  const accountsReport = (overrides: Partial<AccountsImportReport> = {}): AccountsImportReport => ({
    job_id: null,
    dry_run: true,
    rows: 5,
    imported: 3,
    skipped: 2,
    duplicates: 1,
    errors: [{ row: 4, field: 'serial_number', message: 'no device ABC123 in this organization (import the devices first)' }],
    more_errors: 0,
    duration_ms: 40,
    paid_off: 1,
    in_credit: 2,
    paid_before: [{ currency: 'KES', amount: '450000.00' }],
    ...overrides,
  });

  /** Uploads answered by URL: the check (?dry_run=true) with `check`, the import with `imported`. */
  const stubAccountUploads = (check: UploadReply, imported: UploadReply = { body: accountsReport({ dry_run: false, job_id: 'j9' }) }) =>
    stubXhrUploads((url) => (url.includes('dry_run=true') ? check : imported));

  const csv = (name = 'accounts.csv') => new File(['serial_number,id_number,start_date\n'], name, { type: 'text/csv' });

  async function openImportAccounts() {
    await openProducts();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Accounts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Import Accounts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Accounts' });
    const choose = (file: File) => user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, file);
    return { user, dialog, choose };
  }

  it('is offered to owners and admins, not to staff', async () => {
    mockProductsApi();
    seedSession({ user: buildUser({ role: 'staff' }) });
    const view = renderApp('/products');
    await screen.findByRole('cell', { name: 'SHS-0001' }, { timeout: 15_000 });
    expect(screen.getByRole('button', { name: 'Import CSV' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accounts' })).not.toBeInTheDocument();
    view.unmount();

    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/products');
    await screen.findByRole('cell', { name: 'SHS-0001' }, { timeout: 15_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Accounts' }));
    expect(await screen.findByRole('menuitem', { name: 'Import Accounts' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Export Accounts' })).toBeInTheDocument();
  });

  it('exports every account as accounts.csv, in the columns of the import, and says why an export failed', async () => {
    const user = userEvent.setup();
    const names = captureDownloads();
    let fail = false;
    const { calls } = mockProductsApi((c) =>
      c.url.startsWith('/payg/items/accounts/export')
        ? fail
          ? jsonResponse(403, { message: 'Only owners and admins export the accounts' })
          : new Response('serial_number,id_number\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })
        : undefined,
    );
    await openProducts();
    await user.click(screen.getByRole('button', { name: 'Accounts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export Accounts' }));
    await waitFor(() => expect(names).toEqual(['accounts.csv']));
    expect(calls.filter((c) => c.url.startsWith('/payg/items/accounts/export')).map((c) => c.url)).toEqual(['/payg/items/accounts/export']);

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Accounts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export Accounts' }));
    expect(await screen.findByText('Failed to export the accounts')).toBeInTheDocument();
    expect(screen.getByText('Only owners and admins export the accounts')).toBeInTheDocument();
    vi.restoreAllMocks();
  });

  it('explains the file, lists its columns with the required ones marked, and offers an example', async () => {
    mockProductsApi();
    const names = captureDownloads();
    const { user, dialog } = await openImportAccounts();
    expect(dialog).toHaveTextContent('Import the customers and the devices (with their token counts) first');
    expect(dialog).toHaveTextContent('Nothing is texted or issued');
    const columns = within(dialog).getByRole('table', { name: 'Columns' });
    const rows = within(columns).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'serial_numberRequired',
      'id_numberRequired',
      'template',
      'start_dateRequired',
      'paid',
      'credit_until',
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Download Example' }));
    expect(names).toEqual(['accounts-example.csv']);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob;
    const lines = (await blob.text()).trim().split('\n');
    expect(lines[0]).toBe('serial_number,id_number,template,start_date,paid,credit_until');
    expect(lines[1]).toBe('SHS-0042,12345678,Solar Home 50,2025-03-01,4500,2026-12-20');
    expect(lines).toHaveLength(3);
  });

  it('checks the file with a dry run, then imports it, shows what was done and reads the list again', async () => {
    const { calls } = mockProductsApi();
    const sent = stubAccountUploads({ body: accountsReport({ more_errors: 2 }) });
    const { user, dialog, choose } = await openImportAccounts();
    expect(within(dialog).getByRole('button', { name: 'Check File' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Import Accounts' })).toBeDisabled();

    await choose(csv());
    // A file chosen is not yet a file checked.
    expect(within(dialog).getByRole('button', { name: 'Import Accounts' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Check File' }));
    const check = await within(dialog).findByLabelText('Check report');
    expect(check).toHaveTextContent('3 accounts can be imported (1 paid off, 2 in credit); 1 was already brought over; 1 row has problems.');
    expect(check).toHaveTextContent('Paid before: KES 450,000.00');
    const errors = within(check).getByRole('table', { name: 'Import errors' });
    expect(within(errors).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Line', 'Column', 'Problem']);
    const [, row] = within(errors).getAllByRole('row');
    // The API's fourth data row is the spreadsheet's line 5 (the header is line 1).
    expect(within(row!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['5', 'serial_number', 'no device ABC123 in this organization (import the devices first)']);
    expect(check).toHaveTextContent('and 2 more errors not listed.');
    expect(sent.map((u) => u.url)).toEqual([`${IMPORT_URL}?dry_run=true`]);
    expect(sent[0]!.form.get('file')).toBeInstanceOf(File);

    const reads = calls.filter((c) => c.url.startsWith('/payg/products?')).length;
    await user.click(within(dialog).getByRole('button', { name: 'Import 3 Accounts' }));
    const done = await within(dialog).findByLabelText('Import report');
    expect(done).toHaveTextContent('Imported 3 accounts; 1 was already brought over; 1 row refused.');
    expect(within(dialog).queryByLabelText('Check report')).not.toBeInTheDocument();
    expect(sent.map((u) => u.url)).toEqual([`${IMPORT_URL}?dry_run=true`, IMPORT_URL]);
    expect((sent[1]!.form.get('file') as File).name).toBe('accounts.csv');
    expect(await screen.findByText('Imported 3 accounts; 1 was already brought over; 1 row refused')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/products?')).length).toBeGreaterThan(reads));
  });

  it('forgets the check when another file is chosen, and offers no import when nothing can be imported', async () => {
    mockProductsApi();
    stubAccountUploads({ body: accountsReport({ imported: 0, skipped: 5, duplicates: 5, errors: [], paid_off: 0, in_credit: 0, paid_before: [] }) });
    const { user, dialog, choose } = await openImportAccounts();
    await choose(csv('again.csv'));
    await user.click(within(dialog).getByRole('button', { name: 'Check File' }));
    expect(await within(dialog).findByLabelText('Check report')).toHaveTextContent(
      '0 accounts can be imported (0 paid off, 0 in credit); 5 were already brought over.',
    );
    expect(within(dialog).getByRole('button', { name: 'Import Accounts' })).toBeDisabled();

    stubAccountUploads({ body: accountsReport() });
    await user.click(within(dialog).getByRole('button', { name: 'Check File' }));
    expect(await within(dialog).findByRole('button', { name: 'Import 3 Accounts' })).toBeEnabled();
    await choose(csv('other.csv'));
    expect(within(dialog).queryByLabelText('Check report')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Import Accounts' })).toBeDisabled();
  });

  it("shows the API's reason for a refused file or a refused user", async () => {
    mockProductsApi();
    const missing = 'file: missing required columns id_number, start_date (the first line must name the columns, e.g. serial_number,id_number,start_date)';
    stubAccountUploads({ status: 400, body: { message: missing, errors: [{ field: 'file', message: missing.slice(6) }] } });
    const { user, dialog, choose } = await openImportAccounts();
    await choose(csv());
    await user.click(within(dialog).getByRole('button', { name: 'Check File' }));
    const alert = (await within(dialog).findByText('Failed to check the file')).closest('[role="alert"]');
    expect(alert).toHaveTextContent(missing);
    expect(within(dialog).getByRole('button', { name: 'Import Accounts' })).toBeDisabled();

    const refused = 'Only owners and admins can import accounts';
    stubAccountUploads({ body: accountsReport() }, { status: 403, body: { message: refused, detail: refused } });
    await user.click(within(dialog).getByRole('button', { name: 'Check File' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Import 3 Accounts' }));
    // The check's report is an alert too: the error is the one under its title.
    const denied = (await within(dialog).findByText('Failed to import accounts')).closest('[role="alert"]');
    expect(denied).toHaveTextContent(refused);
    // The check stays on screen: the import can be tried again.
    expect(within(dialog).getByLabelText('Check report')).toBeInTheDocument();
  });
});

describe('Products: stock locations', () => {
  afterEach(() => vi.unstubAllGlobals());

  const inStock = product({ item_id: 1, serial_number: 'SHS-0001', location_id: 3, location_name: 'Kisumu Shop' });
  const spare = product({ item_id: 2, serial_number: 'SHS-0002' });
  const givenOut = product({
    item_id: 3,
    serial_number: 'SHS-0003',
    status: 'assigned',
    is_assigned: true,
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    location_id: 3,
    location_name: 'Kisumu Shop',
  });
  const rowOf = (serial: string) => screen.getByRole('cell', { name: serial }).closest('tr')!;
  const locationOf = (serial: string) => {
    const column = screen.getAllByRole('columnheader').findIndex((h) => h.textContent === 'Location');
    return within(rowOf(serial)).getAllByRole('cell')[column]!.textContent;
  };
  const productCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.startsWith('/payg/products?')).map((c) => c.url);

  it("shows each device's location, and filters on a place or on the devices in none", async () => {
    const user = userEvent.setup();
    const { calls } = mockProductsApi(undefined, [inStock, spare]);
    await openProducts();
    expect(locationOf('SHS-0001')).toBe('Kisumu Shop');
    expect(locationOf('SHS-0002')).toBe('—');

    const filter = screen.getByRole('combobox', { name: 'Filter by location' });
    expect(filter).toHaveValue('All locations');
    await user.click(filter);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['All locations', 'Not placed', 'Kisumu Shop', 'Nairobi Warehouse']);
    await user.click(screen.getByRole('option', { name: 'Not placed' }));
    await waitFor(() => expect(productCalls(calls).at(-1)).toBe('/payg/products?page=1&limit=20&status=all&location_id=none'));
    await user.click(filter);
    await user.click(await screen.findByRole('option', { name: 'Kisumu Shop' }));
    await waitFor(() => expect(productCalls(calls).at(-1)).toBe('/payg/products?page=1&limit=20&status=all&location_id=3'));
    await user.click(filter);
    await user.click(await screen.findByRole('option', { name: 'All locations' }));
    await waitFor(() => expect(productCalls(calls).at(-1)).toBe('/payg/products?page=1&limit=20&status=all'));
  });

  it('ticks only devices in stock, moves them with a note, says what moved and reads the list again', async () => {
    const user = userEvent.setup();
    const { calls } = mockProductsApi(
      (c) =>
        c.url === '/payg/stock-locations/move'
          ? jsonResponse(200, { message: '1 device moved to Nairobi Warehouse; 1 device was already there', moved: 1, unchanged: 1, location_id: 5, location_name: 'Nairobi Warehouse' })
          : undefined,
      [inStock, spare, givenOut],
    );
    await openProducts();
    const move = screen.getByRole('button', { name: 'Move to Location' });
    expect(move).toBeDisabled();
    expect(within(rowOf('SHS-0003')).getByRole('checkbox', { name: 'Select SHS-0003' })).toBeDisabled();

    // The box over the column ticks every device in stock on the page, never the one given out.
    await user.click(screen.getByRole('checkbox', { name: 'Select the devices in stock on this page' }));
    expect(within(rowOf('SHS-0001')).getByRole('checkbox')).toBeChecked();
    expect(within(rowOf('SHS-0002')).getByRole('checkbox')).toBeChecked();
    expect(within(rowOf('SHS-0003')).getByRole('checkbox')).not.toBeChecked();
    expect(screen.getByText('2 devices selected')).toBeInTheDocument();

    await user.click(move);
    const dialog = await screen.findByRole('dialog', { name: 'Move to Location' });
    expect(within(dialog).getByText('Moving 2 devices')).toBeInTheDocument();
    expect(within(dialog).getByText('SHS-0001, SHS-0002')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Move Devices' }));
    expect(within(dialog).getByText('Please choose where the devices go.')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/payg/stock-locations/move')).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: 'Move To' }));
    await user.click(await screen.findByRole('option', { name: 'Nairobi Warehouse' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Back to the warehouse');
    const reads = productCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Move Devices' }));
    expect(await screen.findByText('1 device moved to Nairobi Warehouse; 1 device was already there')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(JSON.parse(calls.find((c) => c.url === '/payg/stock-locations/move')!.body!)).toEqual({
      serial_numbers: ['SHS-0001', 'SHS-0002'],
      location_id: 5,
      note: 'Back to the warehouse',
    });
    await waitFor(() => expect(productCalls(calls).length).toBeGreaterThan(reads));
    // The move is done: nothing stays ticked.
    expect(screen.getByText('Tick devices in stock to move them to a stock location.')).toBeInTheDocument();
    expect(within(rowOf('SHS-0001')).getByRole('checkbox')).not.toBeChecked();
  });

  it("moves one device out of every place from its menu, and shows the API's refusal in the dialog", async () => {
    const user = userEvent.setup();
    const reason = 'SHS-0001 is with a customer: a device given out is not moved (take it back first)';
    const { calls } = mockProductsApi((c) => (c.url === '/payg/stock-locations/move' ? jsonResponse(409, { detail: reason, message: reason }) : undefined), [inStock]);
    await openProducts();
    const { dialog } = await openRowAction('Move to Location');
    expect(within(dialog).getByText('Moving 1 device')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Move To' }));
    await user.click(await screen.findByRole('option', { name: 'Not placed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move Device' }));
    expect(await within(dialog).findByText(reason)).toBeInTheDocument();
    expect(within(dialog).getByText('Failed to move devices')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/stock-locations/move')!.body!)).toEqual({ serial_numbers: ['SHS-0001'], location_id: null });
  });

  it('keeps the ticks across searches until Clear Selection', async () => {
    const user = userEvent.setup();
    mockProductsApi(undefined, [inStock, spare]);
    await openProducts();
    await user.click(within(rowOf('SHS-0002')).getByRole('checkbox', { name: 'Select SHS-0002' }));
    expect(screen.getByText('1 device selected')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search products' }), 'SHS');
    await waitFor(() => expect(screen.getByText('1 device selected')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Clear Selection' }));
    expect(screen.getByRole('button', { name: 'Move to Location' })).toBeDisabled();
  });

  it("Add Product sends the chosen place's name as location; Edit Product has no Location", async () => {
    const user = userEvent.setup();
    const { calls } = mockProductsApi((c) =>
      c.url === '/payg/items/add' ? jsonResponse(201, product({ serial_number: 'SHS-9', location_id: 3, location_name: 'Kisumu Shop' })) : undefined,
    );
    await openProducts();
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Product' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Serial Number' }), 'SHS-9');
    await user.type(within(dialog).getByRole('textbox', { name: 'Product Name' }), 'Lamp');
    await user.click(within(dialog).getByRole('combobox', { name: 'Location' }));
    await user.click(await screen.findByRole('option', { name: 'Kisumu Shop' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Product SHS-9 added successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/items/add')!.body!)).toMatchObject({ serial_number: 'SHS-9', location: 'Kisumu Shop' });

    const { dialog: edit } = await openRowAction('Edit Product');
    expect(within(edit).queryByRole('combobox', { name: 'Location' })).not.toBeInTheDocument();
  });

  it('exports the devices of the search and filters as products.csv, and says why an export failed', async () => {
    const user = userEvent.setup();
    const names = captureDownloads();
    let fail = false;
    const { calls } = mockProductsApi((c) =>
      c.url.startsWith('/payg/products/export')
        ? fail
          ? jsonResponse(500, { message: 'Export exploded' })
          : new Response('serial_number\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })
        : undefined,
    );
    await openProducts();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['products.csv']));
    expect(calls.filter((c) => c.url.startsWith('/payg/products/export')).map((c) => c.url)).toEqual(['/payg/products/export?status=all']);

    await user.click(screen.getByRole('radio', { name: 'Unassigned' }));
    await user.click(screen.getByRole('combobox', { name: 'Filter by location' }));
    await user.click(await screen.findByRole('option', { name: 'Not placed' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toHaveLength(2));
    expect(calls.filter((c) => c.url.startsWith('/payg/products/export')).at(-1)!.url).toBe('/payg/products/export?status=unassigned&location_id=none');

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Failed to export the devices')).toBeInTheDocument();
    expect(screen.getByText('Export exploded')).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
