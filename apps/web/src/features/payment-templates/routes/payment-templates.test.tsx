import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { EMPTY_TEMPLATE, toTemplateInput } from '../components/template-form';
import type { PaymentTemplate, TemplatePerformance } from '../api/types';

const template = (overrides: Partial<PaymentTemplate> = {}): PaymentTemplate => ({
  template_id: 3,
  organization_id: 'org-1',
  template_name: 'Solar Home 30',
  description: 'Lamp and radio',
  deposit_made: '1000.00',
  daily_price: '50.00',
  activation_price: '200.00',
  grace_period_days: 2,
  currency: 'KES',
  payment_method: 'M-Pesa',
  frequency: 'Daily',
  free_code_price: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
});

const performance: TemplatePerformance = {
  template_id: 3,
  template_name: 'Solar Home 30',
  currency: 'KES',
  daily_price: '50.00',
  customers_assigned: 4,
  revenue_collected: '12500.00',
  payments_count: 9,
  average_days_bought: 6.5,
  devices_assigned: 4,
  devices_paid_up: 3,
  paid_up_share: 0.75,
};

function mockTemplatesApi(handler?: (call: RecordedCall, path: string) => Response | undefined) {
  return mockFetch((call) => {
    const path = new URL(call.url, 'http://x').pathname;
    const custom = handler?.(call, path);
    if (custom) return custom;
    if (path === '/payg/notifications') return jsonResponse(200, { data: [] });
    if (path === '/payg/payments/templates') {
      return jsonResponse(200, {
        data: {
          data: [template(), template({ template_id: 4, template_name: 'Phone Weekly', description: null, payment_method: 'Cash', frequency: 'Weekly' })],
          pagination: { total: 2, total_pages: 1, limit: 1000, offset: 0 },
        },
      });
    }
    if (path === '/payg/registered-customers') {
      return jsonResponse(200, {
        data: [{ customer_id: 11, customer_name: 'Amina Wanjiru', phone_contact: '0712345678', id_number: '123', county: 'Nakuru' }],
        pagination: { total: 1, total_pages: 1, limit: 5, offset: 0 },
      });
    }
    if (path === '/payg/payments/templates/3/performance') return jsonResponse(200, { data: performance });
    if (path === '/payg/payments/templates/3/usage') {
      return jsonResponse(200, {
        data: { template_id: 3, template_name: 'Solar Home 30', active_assignments: 4, ended_assignments: 1, customers_ever: 5, assignments_by_month: [] },
      });
    }
    if (path === '/payg/payments/templates/performance') return jsonResponse(200, { data: [performance] });
    if (path === '/payg/payments/templates/create') return jsonResponse(201, template({ template_id: 9, template_name: 'New' }));
    if (path === '/payg/payments/templates/assign') {
      return jsonResponse(200, { message: 'Template assigned', changed: true, assignment: {} });
    }
    return jsonResponse(404, { message: 'not mocked' });
  });
}

const calledPath = (calls: RecordedCall[], path: string) => calls.filter((c) => new URL(c.url, 'http://x').pathname === path);

describe('payment templates page', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists templates with the columns of the spec and the footer count; the search narrows on name, description, method and frequency', async () => {
    seedSession();
    const { calls } = mockTemplatesApi();
    renderApp('/payments');
    expect(await screen.findByText('Solar Home 30')).toBeInTheDocument();
    expect(new URL(calledPath(calls, '/payg/payments/templates')[0]!.url, 'http://x').searchParams.get('limit')).toBe('1000');
    const table = screen.getByRole('table', { name: 'Payment templates' });
    for (const h of ['Template Name', 'Deposit Made', 'Daily Price', 'Activation Price', 'Grace Period (days)', 'Currency', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(table).getByText(/ID: 3/)).toBeInTheDocument();
    expect(screen.getByText('Showing 2 of 2 templates')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search templates' }), 'weekly{Enter}');
    expect(await screen.findByText('Showing 1 of 2 templates')).toBeInTheDocument();
    expect(screen.queryByText('Solar Home 30')).not.toBeInTheDocument();
    for (const tab of ['Templates', 'Performance', 'Assignments']) expect(screen.getByRole('tab', { name: tab })).toBeInTheDocument();
  });

  it('a template without a currency shows USD, in the Currency column as in its amounts (spec §9)', async () => {
    seedSession();
    mockTemplatesApi((_c, path) =>
      path === '/payg/payments/templates'
        ? jsonResponse(200, { data: { data: [template({ currency: '' as PaymentTemplate['currency'] })], pagination: { total: 1, total_pages: 1, limit: 1000, offset: 0 } } })
        : undefined,
    );
    renderApp('/payments');
    const table = await screen.findByRole('table', { name: 'Payment templates' });
    const row = (await within(table).findByText('Solar Home 30')).closest('tr')!;
    const cells = within(row).getAllByRole('cell');
    expect(cells[5]).toHaveTextContent(/^USD$/);
    expect(cells[2]).toHaveTextContent(/^USD 50\.00$/);
    expect(within(row).queryByText(/KES/)).not.toBeInTheDocument();
  });

  it('shows Failed to load data with Retry', async () => {
    seedSession();
    mockTemplatesApi((_c, path) => (path === '/payg/payments/templates' ? jsonResponse(500, { message: 'x' }) : undefined));
    renderApp('/payments');
    expect(await screen.findByText('Failed to load data')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('the performance modal shows real figures, or the failure with Retry', async () => {
    seedSession();
    let fail = true;
    mockTemplatesApi((_c, path) => (path === '/payg/payments/templates/3/performance' && fail ? jsonResponse(500, { message: 'x' }) : undefined));
    renderApp('/payments');
    await userEvent.click(await screen.findByRole('button', { name: 'View performance of Solar Home 30' }));
    const dialog = await screen.findByRole('dialog', { name: 'Template Performance' });
    expect(await within(dialog).findByText('Failed to load performance data')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByText(/12,500\.00/)).toBeInTheDocument();
    expect(within(dialog).getByText('6.5')).toBeInTheDocument();
    expect(within(dialog).getByText('75.0% · 3 of 4')).toBeInTheDocument();
  });

  it('the Performance tab lists every template from the API', async () => {
    seedSession();
    mockTemplatesApi();
    renderApp('/payments?tab=performance');
    const table = await screen.findByRole('table', { name: 'Template performance' });
    expect(await within(table).findByText(/12,500\.00/)).toBeInTheDocument();
  });
});

describe('Create Template form', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  async function open(handler?: Parameters<typeof mockTemplatesApi>[0]) {
    seedSession();
    const api = mockTemplatesApi(handler);
    renderApp('/payments');
    await screen.findByText('Solar Home 30');
    await userEvent.click(screen.getByRole('button', { name: 'Create Template' }));
    return { ...api, dialog: await screen.findByRole('dialog', { name: 'Create Template' }) };
  }

  it('requires a name and a daily price of at least 0.01, with the spec defaults', async () => {
    const { calls, dialog } = await open();
    expect(within(dialog).getByRole('textbox', { name: 'Deposit Made' })).toHaveValue('0');
    expect(within(dialog).getByRole('textbox', { name: 'Grace Period (days)' })).toHaveValue('0');
    expect(within(dialog).getByRole('combobox', { name: 'Currency' })).toHaveValue('KES');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    expect(within(dialog).getByText('Template Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Daily Price is required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Template Name' }), '   ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Daily Price' }), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    expect(within(dialog).getByText('Template Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Daily Price must be at least 0.01')).toBeInTheDocument();
    expect(calledPath(calls, '/payg/payments/templates/create')).toHaveLength(0);
  });

  it("starts a plan in the money of the organization's country (UGX in Uganda)", async () => {
    const uganda = { phone_country_code: '256', country: 'Uganda', example: { written: '0772 123 456', read_as: '+256772123456' } };
    const { calls, dialog } = await open((_c, path) => (path === '/payg/settings/phone-country' ? jsonResponse(200, uganda) : undefined));
    const currency = within(dialog).getByRole('combobox', { name: 'Currency' });
    await waitFor(() => expect(currency).toHaveValue('UGX'));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Template Name' }), 'Solar Kampala');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Daily Price' }), '1000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(calledPath(calls, '/payg/payments/templates/create')).toHaveLength(1));
    expect(JSON.parse(calledPath(calls, '/payg/payments/templates/create')[0]!.body!)).toMatchObject({ currency: 'UGX', daily_price: 1000 });
  });

  it('keeps KES for a country whose money plans cannot be in', async () => {
    const nigeria = { phone_country_code: '234', country: 'Nigeria', example: { written: '0803 123 4567', read_as: '+2348031234567' } };
    const { calls, dialog } = await open((_c, path) => (path === '/payg/settings/phone-country' ? jsonResponse(200, nigeria) : undefined));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/payg/settings/phone-country'))).toBe(true));
    expect(within(dialog).getByRole('combobox', { name: 'Currency' })).toHaveValue('KES');
  });

  it('sends decimals, a whole grace period and the currency, then closes', async () => {
    const { calls, dialog } = await open();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Template Name' }), ' Solar Max ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Daily Price' }), '45.5');
    const grace = within(dialog).getByRole('textbox', { name: 'Grace Period (days)' });
    await userEvent.clear(grace);
    await userEvent.type(grace, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(calledPath(calls, '/payg/payments/templates/create')).toHaveLength(1));
    expect(JSON.parse(calledPath(calls, '/payg/payments/templates/create')[0]!.body!)).toMatchObject({
      template_name: 'Solar Max',
      deposit_made: 0,
      daily_price: 45.5,
      activation_price: 0,
      grace_period_days: 3,
      currency: 'KES',
      free_code_price: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Template' })).not.toBeInTheDocument());
  });

  it('shows Failed to create template with the reason', async () => {
    seedSession();
    mockTemplatesApi((_c, path) =>
      path === '/payg/payments/templates/create' ? jsonResponse(400, { message: 'daily_price: must be at least 0.01', detail: 'x' }) : undefined,
    );
    renderApp('/payments');
    await screen.findByText('Solar Home 30');
    await userEvent.click(screen.getByRole('button', { name: 'Create Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Template' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Template Name' }), 'X');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Daily Price' }), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create template');
    expect(alert).toHaveTextContent('daily_price: must be at least 0.01');
  });

  it('turns non-numeric entries into 0', () => {
    expect(
      toTemplateInput({ ...EMPTY_TEMPLATE, template_name: ' A ', deposit_made: 'abc', daily_price: '2', grace_period_days: 'x', currency: '' }),
    ).toMatchObject({ template_name: 'A', deposit_made: 0, daily_price: 2, grace_period_days: 0, currency: 'KES' });
  });
});

describe('Assign Template and Edit', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('does nothing without a customer; with both it sends the assignment with the optional fields', async () => {
    seedSession();
    const { calls } = mockTemplatesApi();
    renderApp('/payments');
    await userEvent.click(await screen.findByRole('button', { name: 'Assign Solar Home 30' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Template' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign Template' }));
    expect(calledPath(calls, '/payg/payments/templates/assign')).toHaveLength(0);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(await within(dialog).findByRole('option', { name: /Amina Wanjiru/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Notes' }), 'Paid deposit in cash');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign Template' }));
    await waitFor(() => expect(calledPath(calls, '/payg/payments/templates/assign')).toHaveLength(1));
    expect(JSON.parse(calledPath(calls, '/payg/payments/templates/assign')[0]!.body!)).toEqual({
      customer_id: 11,
      template_id: 3,
      start_date: null,
      end_date: null,
      notes: 'Paid deposit in cash',
    });
    expect(await screen.findByText('Template assigned to Amina Wanjiru')).toBeInTheDocument();
  });

  it("gives one of the customer's devices a plan of its own", async () => {
    seedSession();
    const { calls } = mockTemplatesApi((_call, path) =>
      path === '/payg/customers/11/items'
        ? jsonResponse(200, {
            data: [
              { item_id: 1, serial_number: 'SHS-0001', product_name: 'Solar Home 50W' },
              { item_id: 2, serial_number: 'PH-0002', product_name: 'Smartphone' },
            ],
          })
        : undefined,
    );
    renderApp('/payments');
    await userEvent.click(await screen.findByRole('button', { name: 'Assign Phone Weekly' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Template' });
    // No customer, no device choice.
    expect(within(dialog).queryByLabelText('Devices', { selector: 'input' })).not.toBeInTheDocument();
    await userEvent.click(await within(dialog).findByRole('option', { name: /Amina Wanjiru/ }));
    const devices = within(dialog).getByLabelText('Devices', { selector: 'input' });
    expect(devices).toHaveValue("All of the customer's devices (the customer's plan)");
    await waitFor(() => expect(devices).not.toBeDisabled());
    await userEvent.click(devices);
    await userEvent.click(await screen.findByRole('option', { name: 'PH-0002 · Smartphone' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign Template' }));
    await waitFor(() => expect(calledPath(calls, '/payg/payments/templates/assign')).toHaveLength(1));
    expect(JSON.parse(calledPath(calls, '/payg/payments/templates/assign')[0]!.body!)).toEqual({
      customer_id: 11,
      template_id: 4,
      serial_number: 'PH-0002',
      start_date: null,
      end_date: null,
      notes: null,
    });
    expect(await screen.findByText("Template assigned to Amina Wanjiru's device PH-0002")).toBeInTheDocument();
  });

  it("ends a device's own plan from the Assignments tab, after asking", async () => {
    seedSession();
    const assignment = (over: Record<string, unknown>) => ({
      assignment_id: 1,
      customer_id: 11,
      customer_name: 'Amina Wanjiru',
      template_id: 3,
      template_name: 'Solar Home 30',
      item_id: null,
      serial_number: null,
      start_date: null,
      end_date: null,
      notes: null,
      is_active: true,
      assigned_by: 'demo',
      assigned_at: '2026-11-01T10:00:00Z',
      ended_at: null,
      ...over,
    });
    const own = assignment({ assignment_id: 2, template_id: 4, template_name: 'Phone Weekly', item_id: 7, serial_number: 'PH-0002' });
    const { calls } = mockTemplatesApi((_call, path) => {
      if (path === '/payg/payments/templates/assignments') {
        return jsonResponse(200, { data: [own, assignment({})], pagination: { total: 2, limit: 10, offset: 0, total_pages: 1 } });
      }
      if (path === '/payg/payments/templates/assignments/2/end') {
        return jsonResponse(200, { message: "Device PH-0002 is back on Amina Wanjiru's plan, Solar Home 30", assignment: { ...own, is_active: false } });
      }
      return undefined;
    });
    renderApp('/payments');
    await userEvent.click(await screen.findByRole('tab', { name: 'Assignments' }));
    const table = await screen.findByRole('table', { name: 'Template assignments' });
    expect(await within(table).findByText('PH-0002')).toBeInTheDocument();
    expect(within(table).getByText('All without their own')).toBeInTheDocument();
    // Only a device's own plan can be ended.
    expect(within(table).getAllByRole('button', { name: /^End the plan of/ })).toHaveLength(1);
    await userEvent.click(within(table).getByRole('button', { name: 'End the plan of PH-0002' }));
    const dialog = await screen.findByRole('dialog', { name: 'End Device Plan' });
    expect(dialog).toHaveTextContent("End Phone Weekly for device PH-0002? The device is then paid on Amina Wanjiru's plan");
    expect(calledPath(calls, '/payg/payments/templates/assignments/2/end')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'End Plan' }));
    await waitFor(() => expect(calledPath(calls, '/payg/payments/templates/assignments/2/end')).toHaveLength(1));
    expect(await screen.findByText("Device PH-0002 is back on Amina Wanjiru's plan, Solar Home 30")).toBeInTheDocument();
  });

  it('does nothing without a template', async () => {
    seedSession();
    const { calls } = mockTemplatesApi();
    renderApp('/payments');
    await screen.findByText('Solar Home 30');
    await userEvent.click(screen.getByRole('button', { name: 'Assign Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Template' });
    await userEvent.click(await within(dialog).findByRole('option', { name: /Amina Wanjiru/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign Template' }));
    expect(calledPath(calls, '/payg/payments/templates/assign')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Assign Template' })).toBeInTheDocument();
  });

  it('Edit saves with PUT', async () => {
    seedSession();
    const { calls } = mockTemplatesApi((call, path) =>
      path === '/payg/payments/templates/3' && call.method === 'PUT' ? jsonResponse(200, template({ daily_price: '60.00' })) : undefined,
    );
    renderApp('/payments');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Solar Home 30' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Solar Home 30' });
    // Its four customers' contracts change with it: said before saving.
    expect(await within(dialog).findByText('4 customers or devices are on this plan')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('To charge new customers differently, create a new template instead.');
    const daily = within(dialog).getByRole('textbox', { name: 'Daily Price' });
    await userEvent.clear(daily);
    await userEvent.type(daily, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/payg/payments/templates/3')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toMatchObject({ daily_price: 60, template_name: 'Solar Home 30' });
  });

  it('says nothing of contracts when nobody is on the plan', async () => {
    seedSession();
    const { calls } = mockTemplatesApi((_call, path) =>
      path === '/payg/payments/templates/3/usage'
        ? jsonResponse(200, { data: { template_id: 3, template_name: 'Solar Home 30', active_assignments: 0, ended_assignments: 0, customers_ever: 0, assignments_by_month: [] } })
        : undefined,
    );
    renderApp('/payments');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Solar Home 30' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Solar Home 30' });
    await within(dialog).findByRole('textbox', { name: 'Daily Price' });
    await waitFor(() => expect(calledPath(calls, '/payg/payments/templates/3/usage')).toHaveLength(1));
    // Its answer rendered (a query settles within a tick of its reply).
    await new Promise((r) => setTimeout(r, 50));
    expect(dialog).not.toHaveTextContent('on this plan');
  });
});
