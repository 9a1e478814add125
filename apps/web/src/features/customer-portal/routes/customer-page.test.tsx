import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalPayment, PortalPayWith, PortalView } from '@kidogo/contracts';
import { seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { PORTAL_PAYMENT_POLL_MS } from '../api/get-portal-payment';

const VIEW: PortalView = {
  organization_name: 'Jua Power Ltd',
  language: 'en',
  paybill: '555000',
  first_name: 'Amina',
  devices: [
    {
      serial_number: 'SHS-0001',
      product_name: 'Solar Home 50W',
      state: 'on',
      credit_until: '2026-12-12T09:00:00Z',
      days_left: 5,
      total_paid: '2500.00',
      remaining: '7500.00',
      currency: 'KES',
      daily_price: '50.00',
    },
    {
      serial_number: 'LMP-0002',
      product_name: 'Lantern',
      state: 'off',
      credit_until: '2026-11-20T09:00:00Z',
      days_left: -15,
      total_paid: '300.00',
      remaining: '900.00',
      currency: 'KES',
      daily_price: '10.00',
    },
    { serial_number: 'PHN-0003', product_name: 'Phone', state: 'paid_off', credit_until: null, days_left: null, total_paid: '9000.00', remaining: '0.00', currency: 'KES', daily_price: '30.00' },
  ],
  payments: [{ paid_at: '2026-12-05T08:00:00Z', serial_number: 'SHS-0001', amount: '150.00', currency: 'KES', receipt: 'SF57HQ2K8D', days: 3 }],
  codes: [{ created_at: '2026-12-05T08:00:01Z', serial_number: 'SHS-0001', token: '123 456 789', token_type: 'add_time', days: 3 }],
  as_of: '2026-12-05T09:00:00Z',
  link_expires_at: '2027-01-04T09:00:00Z',
  pay_with: [],
  phone_hint: '••• 456',
};

describe("the customer's own page", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each device, how to pay, the last codes and payments, without signing in', async () => {
    const { calls } = mockFetch((c) => (c.url === '/payg/portal/tok_abcdefghijklmnopqrstuvwxyz' ? jsonResponse(200, VIEW) : jsonResponse(404, { detail: 'Not found' })));
    // Opened on a phone where staff are signed in too: the page sends no one's session.
    seedSession();
    renderApp('/my/tok_abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByRole('heading', { name: 'Hello Amina' })).toBeInTheDocument();
    expect(screen.getByText('Jua Power Ltd')).toBeInTheDocument();
    const on = screen.getByRole('region', { name: 'SHS-0001' });
    expect(within(on).getByText('On')).toBeInTheDocument();
    expect(within(on).getByText(/^Credit until .*2026 \(5 days left\)$/)).toBeInTheDocument();
    expect(within(on).getByText('KES 7,500.00')).toBeInTheDocument();
    expect(within(on).getByText('Pay by mobile money to paybill 555000, account SHS-0001.')).toBeInTheDocument();
    const off = screen.getByRole('region', { name: 'LMP-0002' });
    expect(within(off).getByText(/^The credit ran out on .*: pay to switch it on again\.$/)).toBeInTheDocument();
    const owned = screen.getByRole('region', { name: 'PHN-0003' });
    expect(within(owned).getByText('Yours for good')).toBeInTheDocument();
    expect(within(owned).queryByText(/How to pay/)).not.toBeInTheDocument();
    const codes = screen.getByRole('region', { name: 'Your last codes' });
    expect(within(codes).getByText('123 456 789')).toBeInTheDocument();
    expect(within(codes).getByText('SHS-0001 · Days added · 3 days')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Your last payments' })).getByText('KES 150.00')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download my statement (PDF)' })).toHaveAttribute('href', '/payg/portal/tok_abcdefghijklmnopqrstuvwxyz/statement');
    const asked = calls.find((c) => c.url.startsWith('/payg/portal/'))!;
    expect(asked.headers['authorization'] ?? asked.headers['Authorization']).toBeUndefined();
  });

  it("is written in the organization's language", async () => {
    mockFetch(() => jsonResponse(200, { ...VIEW, language: 'fr', paybill: null }));
    renderApp('/my/tok_abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByRole('heading', { name: 'Bonjour Amina' })).toBeInTheDocument();
    expect(screen.getByText('Payez par mobile money avec SHS-0001 comme numéro de compte.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Vos derniers codes' })).toBeInTheDocument();
  });

  it('says the link does not work, in the words of the API', async () => {
    const gone = 'This page is not available: the link may have expired. Ask for a new one.';
    mockFetch(() => jsonResponse(404, { detail: gone, message: gone }));
    renderApp('/my/tok_abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByText(gone)).toBeInTheDocument();
  });
});

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';
const MPESA: PortalPayWith = { provider: 'mpesa_express', label: 'M-Pesa Express', currency: 'KES', decimals: false, max_amount: 250000 };
/** The page of a customer who can pay from it: M-Pesa Express prompts the phone on file. */
const PAYING: PortalView = { ...VIEW, pay_with: [MPESA] };

const payment = (overrides: Partial<PortalPayment> = {}): PortalPayment => ({
  request_id: 41,
  serial_number: 'SHS-0001',
  provider: 'mpesa_express',
  label: 'M-Pesa Express',
  amount: '350.00',
  currency: 'KES',
  status: 'pending',
  days: null,
  token: null,
  created_at: '2026-12-05T09:01:00Z',
  ...overrides,
});

const isView = (c: RecordedCall) => c.method === 'GET' && c.url === `/payg/portal/${TOKEN}`;
const sent = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST' && c.url === `/payg/portal/${TOKEN}/payments`).map((c) => JSON.parse(c.body!) as unknown);

/**
 * The page's API: the view, Pay Now's POST (its reply, or an error) and the request's reads (one answer after another,
 * the last one repeated).
 */
function mockPayingPage({ view = PAYING, reply = jsonResponse(201, { data: payment() }), polls = [] as PortalPayment[] } = {}) {
  let read = 0;
  return mockFetch((c) => {
    if (isView(c)) return jsonResponse(200, view);
    if (c.method === 'POST' && c.url === `/payg/portal/${TOKEN}/payments`) return reply.clone();
    if (c.method === 'GET' && c.url === `/payg/portal/${TOKEN}/payments/41`) {
      const answer = polls[Math.min(read++, polls.length - 1)] ?? payment();
      return jsonResponse(200, { data: answer });
    }
    return jsonResponse(404, { message: 'Not found' });
  });
}

async function openPayNow(serial = 'SHS-0001', name = 'Pay now') {
  const user = userEvent.setup();
  renderApp(`/my/${TOKEN}`);
  const device = await screen.findByRole('region', { name: serial });
  await user.click(within(device).getByRole('button', { name }));
  const dialog = await screen.findByRole('dialog', { name });
  return { user, dialog };
}

describe("Pay Now on the customer's own page", { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is offered on each device not yet paid off, only when a way to pay is ready and a phone is on file', async () => {
    mockFetch(() => jsonResponse(200, VIEW));
    const { unmount } = renderApp(`/my/${TOKEN}`);
    await screen.findByRole('heading', { name: 'Hello Amina' });
    expect(screen.queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();

    mockFetch(() => jsonResponse(200, { ...PAYING, phone_hint: null }));
    const again = renderApp(`/my/${TOKEN}`);
    await screen.findByRole('heading', { name: 'Hello Amina' });
    expect(screen.queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
    again.unmount();
    vi.unstubAllGlobals();

    // Money the device's plan is not in would not buy days: a way to pay in UGX is not offered for a KES device.
    mockFetch(() => jsonResponse(200, { ...PAYING, pay_with: [{ ...MPESA, provider: 'mtn_momo', label: 'MTN MoMo', currency: 'UGX' }] }));
    const other = renderApp(`/my/${TOKEN}`);
    await screen.findByRole('heading', { name: 'Hello Amina' });
    expect(screen.queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
    other.unmount();
    vi.unstubAllGlobals();

    mockPayingPage();
    renderApp(`/my/${TOKEN}`);
    await screen.findByRole('heading', { name: 'Hello Amina' });
    expect(within(screen.getByRole('region', { name: 'SHS-0001' })).getByRole('button', { name: 'Pay now' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'LMP-0002' })).getByRole('button', { name: 'Pay now' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'PHN-0003' })).queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
  });

  it('prompts the phone on file for a few days of credit, waits for the PIN, then shows the days paid and the new code', async () => {
    const { calls } = mockPayingPage({ polls: [payment({ status: 'paid', days: 7, token: '987 654 321' })] });
    const { user, dialog } = await openPayNow();
    const choices = within(dialog).getByRole('group', { name: 'Quick choices' });
    expect(within(choices).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      '1 day: KES 50',
      '7 days: KES 350',
      '30 days: KES 1,500',
      'All that is left: KES 7,500',
    ]);
    expect(within(dialog).getByText('M-Pesa Express will send a prompt to your phone (••• 456). Enter your PIN there to pay.')).toBeInTheDocument();
    // One way to pay: nothing to choose.
    expect(within(dialog).queryByRole('radiogroup')).not.toBeInTheDocument();

    const amount = within(dialog).getByRole('textbox', { name: 'Amount (KES)' });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Enter the amount')).toBeInTheDocument();
    await user.type(amount, '300000');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('At most KES 250,000')).toBeInTheDocument();
    expect(sent(calls)).toEqual([]);

    await user.click(within(choices).getByRole('button', { name: '7 days: KES 350' }));
    expect(amount).toHaveValue('350');
    expect(within(choices).getByRole('button', { name: '7 days: KES 350' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    const waiting = await within(dialog).findByRole('status');
    expect(waiting).toHaveTextContent('Check your phone (••• 456)');
    expect(waiting).toHaveTextContent('Enter your PIN to pay KES 350.');
    expect(sent(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mpesa_express', amount: 350 }]);
    // Asked without anyone's session, like the page itself.
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers['authorization'] ?? post.headers['Authorization']).toBeUndefined();
    const viewsBefore = calls.filter(isView).length;

    expect(await within(dialog).findByRole('heading', { name: 'Paid: 7 days' }, { timeout: PORTAL_PAYMENT_POLL_MS + 5_000 })).toBeInTheDocument();
    const code = within(dialog).getByRole('group', { name: 'Your new code' });
    expect(within(code).getByText('987 654 321')).toBeInTheDocument();
    expect(within(code).getByRole('button', { name: 'Copy the code' })).toBeInTheDocument();
    expect(within(code).getByText('Type it into the device. It was also sent to you by SMS.')).toBeInTheDocument();
    // Paid: the page reads again (credit, what is left, the payment and the code), and asks for the request no more.
    await waitFor(() => expect(calls.filter(isView).length).toBeGreaterThan(viewsBefore));
    const reads = calls.filter((c) => c.url.endsWith('/payments/41')).length;
    await new Promise((r) => setTimeout(r, PORTAL_PAYMENT_POLL_MS + 500));
    expect(calls.filter((c) => c.url.endsWith('/payments/41'))).toHaveLength(reads);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pay now' })).not.toBeInTheDocument());
  });

  it("says why a payment could not be asked for, in the API's words", async () => {
    const busy = 'A payment request for SHS-0001 is still waiting for the customer: wait for its answer before asking again';
    const { calls } = mockPayingPage({ reply: jsonResponse(409, { message: busy }) });
    const { user, dialog } = await openPayNow('LMP-0002');
    expect(within(within(dialog).getByRole('group', { name: 'Quick choices' })).getByRole('button', { name: 'All that is left: KES 900' })).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount (KES)' }), '70');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The request was not sent');
    expect(alert).toHaveTextContent(busy);
    expect(sent(calls)).toEqual([{ serial_number: 'LMP-0002', provider: 'mpesa_express', amount: 70 }]);
    // The form stays, to try again.
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('lets the customer choose how to pay when more than one way is ready, cents where it takes them', async () => {
    const airtel: PortalPayWith = { provider: 'airtel_money', label: 'Airtel Money', currency: 'KES', decimals: true, max_amount: 150000 };
    const { calls } = mockPayingPage({ view: { ...PAYING, pay_with: [MPESA, airtel] } });
    const { user, dialog } = await openPayNow();
    expect(within(dialog).getByRole('radio', { name: 'M-Pesa Express' })).toBeChecked();
    await user.click(within(dialog).getByText('Airtel Money'));
    expect(within(dialog).getByText('Airtel Money will send a prompt to your phone (••• 456). Enter your PIN there to pay.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount (KES)' }), '75.50');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await within(dialog).findByRole('status');
    expect(sent(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'airtel_money', amount: 75.5 }]);
  });

  it("speaks the organization's language: a cancelled payment in Kiswahili, and trying again", async () => {
    mockPayingPage({ view: { ...PAYING, language: 'sw' }, polls: [payment({ status: 'cancelled' })] });
    const { user, dialog } = await openPayNow('SHS-0001', 'Lipa sasa');
    const choices = within(dialog).getByRole('group', { name: 'Chagua haraka' });
    expect(within(choices).getByRole('button', { name: 'Siku 7: KES 350' })).toBeInTheDocument();
    expect(within(choices).getByRole('button', { name: 'Kiasi chote kilichobaki: KES 7,500' })).toBeInTheDocument();
    expect(within(dialog).getByText('M-Pesa Express itatuma ombi kwenye simu yako (••• 456). Weka PIN yako hapo ili kulipa.')).toBeInTheDocument();
    await user.click(within(choices).getByRole('button', { name: 'Siku 7: KES 350' }));
    await user.click(within(dialog).getByRole('button', { name: 'Tuma' }));
    const waiting = await within(dialog).findByRole('status');
    expect(waiting).toHaveTextContent('Angalia simu yako (••• 456)');
    expect(waiting).toHaveTextContent('Weka PIN yako ili kulipa KES 350.');

    expect(await within(dialog).findByText('Umeghairi malipo.', {}, { timeout: PORTAL_PAYMENT_POLL_MS + 5_000 })).toBeInTheDocument();
    expect(within(dialog).getByText(/Hakuna kilicholipwa\./)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Jaribu tena' }));
    // The form again, with what was asked for last time.
    expect(within(dialog).getByRole('textbox', { name: 'Kiasi (KES)' })).toHaveValue('350');
    expect(within(dialog).getByRole('button', { name: 'Tuma' })).toBeInTheDocument();
  });
});
