import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { deferred, jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const customers = [
  { customer_id: 11, customer_name: 'Amina Wanjiru', phone_contact: '0712345678', id_number: '2233', county: 'Nairobi' },
  { customer_id: 12, customer_name: 'Baraka Otieno', phone_contact: '0722000000', id_number: '4455', county: 'Kisumu' },
];
const items = [{ serial_number: 'SHS-0001', product_name: 'Solar Home 50W', manufacturer: 'SunCo', is_assigned: false, location_name: 'Kisumu Shop' }];
const templates = [
  { template_id: 5, template_name: 'Daily 50', daily_price: '50.00', activation_price: '500.00', grace_period_days: 2, currency: 'KES' },
];

type Handler = (call: RecordedCall) => Response | Promise<Response> | undefined;

/** GET /customers/{id}/credit-check: the customer holds nothing, the rule lets everyone through. */
const creditCheck = (customerId: number, overrides: Record<string, unknown> = {}) => ({
  customer_id: customerId,
  customer_name: customers.find((c) => c.customer_id === customerId)?.customer_name ?? 'Customer',
  devices: 0,
  repayment: { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null },
  repossessions: 0,
  rule: 'any',
  refuse_repossessed: false,
  allowed: true,
  reasons: [],
  ...overrides,
});
const FAR_BEHIND = {
  devices: 1,
  repayment: { expected_by_today: '6350.00', paid_towards: '2200.00', repaid_share: 34.6, standing: 'far_behind' },
  rule: 'on_track',
  allowed: false,
  reasons: [
    'Amina Wanjiru is Far behind: paid 2,200.00 of the 6,350.00 their plans expect by today (34.6%). This organization gives another device only to customers Paid off or On track.',
  ],
};

function mockOnboardingApi(extra: Handler = () => undefined) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.url.startsWith('/payg/registered-customers'))
      return jsonResponse(200, { data: customers, pagination: { total: 7, total_pages: 2, limit: 5, offset: 0 } });
    if (call.url === '/payg/items/search') return jsonResponse(200, { data: items, pagination: { total: 1, total_pages: 1, limit: 5, offset: 0 } });
    if (call.url.startsWith('/payg/payments/templates?'))
      return jsonResponse(200, { data: { data: templates, pagination: { total: 1, total_pages: 1, limit: 5, offset: 0 } } });
    if (call.url === '/payg/onboarding') return jsonResponse(201, { message: 'Customer onboarding completed successfully!' });
    const checked = /^\/payg\/customers\/(\d+)\/credit-check$/.exec(call.url);
    if (checked) return jsonResponse(200, creditCheck(Number(checked[1])));
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    return jsonResponse(404, { detail: 'Not found', message: 'Not found' });
  });
}

async function openOnboarding() {
  seedSession();
  renderApp('/onboarding');
  await screen.findByRole('radio', { name: 'Amina Wanjiru' }, { timeout: 5000 });
  await screen.findByRole('radio', { name: 'SHS-0001' });
}

const completeButton = () => screen.getByRole('button', { name: /Complete Onboarding|Processing/ });

describe('Customer Onboarding', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists customers and items 5 per page, and keeps Complete Onboarding disabled until both are chosen', async () => {
    const user = userEvent.setup();
    const { calls } = mockOnboardingApi();
    await openOnboarding();
    expect(calls.find((c) => c.url.startsWith('/payg/registered-customers'))?.url).toBe(
      '/payg/registered-customers?limit=5&offset=0&search_field=customer_name',
    );
    expect(JSON.parse(calls.find((c) => c.url === '/payg/items/search')!.body!)).toEqual({ query: '', limit: 5, offset: 0, is_assigned: false });
    expect(screen.getByText('Showing 1 to 5 of 7 customers')).toBeInTheDocument();
    // Each device with the shop that holds it.
    expect(screen.getByText('Solar Home 50W · SunCo · at Kisumu Shop')).toBeInTheDocument();

    expect(completeButton()).toBeDisabled();
    expect(screen.getByText('Please select a customer first.')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    expect(completeButton()).toBeDisabled();
    expect(screen.getByText('Please select an item to assign.')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    expect(completeButton()).toBeEnabled();
  });

  it('searches customers by name after typing stops, from page 1', async () => {
    const user = userEvent.setup();
    const { calls } = mockOnboardingApi();
    await openOnboarding();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('offset=5'))).toBe(true));
    await user.type(screen.getByRole('textbox', { name: 'Search customers by name' }), 'ami');
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain('/payg/registered-customers?limit=5&offset=0&search_term=ami&search_field=customer_name'),
      { timeout: 8000 },
    );
  });

  it('completes in one call, locks while processing, shows the success message for 3 s, then starts over', async () => {
    const user = userEvent.setup();
    const hold = deferred<Response>();
    const { calls } = mockOnboardingApi((c) => (c.url === '/payg/onboarding' ? hold.promise : undefined));
    await openOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    await user.click(screen.getByRole('button', { name: 'Load Payment Templates' }));
    await user.click(await screen.findByRole('radio', { name: 'Daily 50' }));
    expect(calls.find((c) => c.url.startsWith('/payg/payments/templates?limit=5'))?.url).toBe(
      '/payg/payments/templates?limit=5&offset=0&search_field=template_name',
    );

    await user.click(completeButton());
    await waitFor(() => expect(completeButton()).toBeDisabled());
    expect(JSON.parse(calls.find((c) => c.url === '/payg/onboarding')!.body!)).toEqual({
      customer_id: 11,
      item_serial_number: 'SHS-0001',
      template_id: 5,
      organization_id: '',
    });
    hold.resolve(jsonResponse(201, { message: 'ok' }));

    expect(await screen.findByText('Customer onboarding completed successfully!')).toBeInTheDocument();
    expect(completeButton()).toBeDisabled();
    await waitFor(() => expect(screen.queryByText('Customer onboarding completed successfully!')).not.toBeInTheDocument(), {
      timeout: 4500,
    });
    expect(screen.getByRole('radio', { name: 'Amina Wanjiru' })).not.toBeChecked();
    expect(screen.queryByRole('radio', { name: 'Daily 50' })).not.toBeInTheDocument();
    expect(screen.getByText('Please select a customer first.')).toBeInTheDocument();
  }, 15_000);

  it('brings the success message into view, and the emptied device list does not say nothing is available', async () => {
    const user = userEvent.setup();
    const scrolled = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    let assigned = false;
    mockOnboardingApi((c) => {
      if (c.url === '/payg/onboarding') {
        assigned = true;
        return jsonResponse(201, { message: 'ok' });
      }
      // Once assigned, the device is no longer offered.
      if (c.url === '/payg/items/search' && assigned) return jsonResponse(200, { data: [], pagination: { total: 0, total_pages: 0, limit: 5, offset: 0 } });
      return undefined;
    });
    await openOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    await user.type(screen.getByRole('textbox', { name: 'Search items' }), 'SHS');
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    await user.click(completeButton());

    const success = await screen.findByRole('status', { name: 'Customer onboarding completed successfully!' });
    await waitFor(() => expect(scrolled.mock.contexts).toContain(success));
    const step2 = screen.getByRole('region', { name: 'Select Item' });
    await waitFor(() => expect(within(step2).getByText('SHS-0001 has been assigned. The form starts over in a moment.')).toBeInTheDocument());
    expect(within(step2).queryByText(/No available items/)).not.toBeInTheDocument();
    scrolled.mockRestore();
  }, 15_000);

  it("shows 'Failed to complete onboarding. Please try again.' with the server's reason", async () => {
    const user = userEvent.setup();
    mockOnboardingApi((c) =>
      c.url === '/payg/onboarding'
        ? jsonResponse(409, { detail: 'Device SHS-0001 is already assigned to another customer', message: 'Device SHS-0001 is already assigned to another customer' })
        : undefined,
    );
    await openOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    await user.click(completeButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to complete onboarding. Please try again.');
    expect(alert).toHaveTextContent('Device SHS-0001 is already assigned to another customer');
    expect(completeButton()).toBeEnabled();
  });

  it("empties the template list and says 'Failed to load payment templates.' when they cannot load", async () => {
    const user = userEvent.setup();
    mockOnboardingApi((c) => (c.url.startsWith('/payg/payments/templates') ? jsonResponse(500, {}) : undefined));
    await openOnboarding();
    await user.click(screen.getByRole('button', { name: 'Load Payment Templates' }));
    expect(await screen.findByText('Failed to load payment templates.')).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Daily 50' })).not.toBeInTheDocument();
  });

  it('Clear drops the chosen template; Reset clears everything', async () => {
    const user = userEvent.setup();
    mockOnboardingApi();
    await openOnboarding();
    await user.click(screen.getByRole('button', { name: 'Load Payment Templates' }));
    await user.click(await screen.findByRole('radio', { name: 'Daily 50' }));
    expect(screen.getByText('Template: Daily 50')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByText('Template: none')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    await user.type(screen.getByRole('textbox', { name: 'Search items' }), 'SHS');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('textbox', { name: 'Search items' })).toHaveValue('');
    expect(screen.getByText('Customer: —')).toBeInTheDocument();
  });

  it('falls back to the two calls where /onboarding does not exist, warning when only the template failed', async () => {
    const user = userEvent.setup();
    const { calls } = mockOnboardingApi((c) => {
      if (c.url === '/payg/onboarding') return jsonResponse(404, { detail: 'Cannot POST /payg/onboarding', message: 'Cannot POST /payg/onboarding' });
      if (c.url === '/payg/items/assign') return jsonResponse(200, { message: 'ok', changed: true });
      if (c.url === '/payg/payments/templates/assign') return jsonResponse(500, {});
      return undefined;
    });
    await openOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    await user.click(screen.getByRole('button', { name: 'Load Payment Templates' }));
    await user.click(await screen.findByRole('radio', { name: 'Daily 50' }));
    await user.click(completeButton());
    expect(
      await screen.findByText('Item assigned successfully, but failed to assign payment template. You can assign the template separately.'),
    ).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/items/assign')!.body!)).toEqual({
      customer_id: 11,
      item_serial_number: 'SHS-0001',
      organization_id: '',
    });
    expect(JSON.parse(calls.find((c) => c.url === '/payg/payments/templates/assign')!.body!)).toEqual({ customer_id: 11, template_id: 5 });
  });

  it('does not fall back on a business 404 (an unknown customer)', async () => {
    const user = userEvent.setup();
    const { calls } = mockOnboardingApi((c) =>
      c.url === '/payg/onboarding' ? jsonResponse(404, { detail: 'Customer not found', message: 'Customer not found' }) : undefined,
    );
    await openOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Baraka Otieno' }));
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    await user.click(completeButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Customer not found');
    expect(calls.some((c) => c.url === '/payg/items/assign')).toBe(false);
    expect(within(screen.getByRole('alert')).getByText('Failed to complete onboarding. Please try again.')).toBeInTheDocument();
  });

  it('shows where the chosen customer stands, and lets no staff user give a device the follow-on sales rule refuses', async () => {
    const user = userEvent.setup();
    const { calls } = mockOnboardingApi((c) => (c.url === '/payg/customers/11/credit-check' ? jsonResponse(200, creditCheck(11, FAR_BEHIND)) : undefined));
    seedSession({ user: buildUser({ role: 'staff' }) });
    renderApp('/onboarding');
    await user.click(await screen.findByRole('radio', { name: 'Baraka Otieno' }, { timeout: 5000 }));
    await user.click(await screen.findByRole('radio', { name: 'SHS-0001' }));
    // A first device: nothing to check, and the form goes ahead.
    const allowed = await screen.findByRole('group', { name: 'Credit check' });
    expect(allowed).toHaveTextContent('A first device: there is no repayment to check yet.');
    expect(allowed).toHaveTextContent('Follow-on sales: Any customer (no check).');
    await waitFor(() => expect(completeButton()).toBeEnabled());

    // A customer far behind: why, and no way on for staff.
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    const refused = await screen.findByRole('alert', { name: 'The follow-on sales rule refuses this customer' });
    expect(refused).toHaveTextContent('The follow-on sales rule refuses this customer');
    expect(refused).toHaveTextContent('Far behind');
    expect(refused).toHaveTextContent(FAR_BEHIND.reasons[0]!);
    expect(refused).toHaveTextContent('Only an owner or admin can give this customer another device.');
    expect(within(refused).queryByRole('textbox')).not.toBeInTheDocument();
    expect(completeButton()).toBeDisabled();
    expect(calls.some((c) => c.url === '/payg/onboarding')).toBe(false);
  }, 15_000);

  it('lets an owner or admin give it with a reason, sent with the onboarding', async () => {
    const user = userEvent.setup();
    const { calls } = mockOnboardingApi((c) => (c.url === '/payg/customers/11/credit-check' ? jsonResponse(200, creditCheck(11, FAR_BEHIND)) : undefined));
    await openOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Amina Wanjiru' }));
    await user.click(screen.getByRole('radio', { name: 'SHS-0001' }));
    const refused = await screen.findByRole('alert', { name: 'The follow-on sales rule refuses this customer' });
    expect(completeButton()).toBeDisabled();
    await user.type(within(refused).getByRole('textbox', { name: /Reason to give it anyway/ }), 'Paid the arrears in cash');
    await waitFor(() => expect(completeButton()).toBeEnabled());
    await user.click(completeButton());
    expect(await screen.findByText('Customer onboarding completed successfully!')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url === '/payg/onboarding')!.body!)).toEqual({
      customer_id: 11,
      item_serial_number: 'SHS-0001',
      override_reason: 'Paid the arrears in cash',
      organization_id: '',
    });
  }, 15_000);
});
