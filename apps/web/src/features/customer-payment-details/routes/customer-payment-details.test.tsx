import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNTS } from '@/features/tickets/testing/mock-tickets-api';
import { dayIn } from '@/lib/business-day';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { captureDownloads } from '@/testing/downloads';
import { renderApp } from '@/testing/render';
import { statementPeriods } from '../components/statement-menu';

const details = (summary: Record<string, unknown>, template: unknown = null) => ({
  data: {
    customer_info: {
      customer_id: 11,
      customer_name: 'Amina Wanjiru',
      phone_contact: '0712345678',
      email: null,
      sms_opted_out_at: null,
      sms_opt_out_source: null,
      device_serial: 'SHS-0001',
      product_name: 'Solar Home 50W',
      product_oem: 'SunKing',
    },
    payment_template: template,
    payment_summary: { total_paid: '6000.00', free_code_price: '12000.00', remaining_balance: '6000.00', payment_progress: 50, is_fully_paid: false, payment_count: 1, paid_before: '0.00', ...summary },
    payment_history: [{ payment_id: 9, amount: '500.00', paid_at: '2026-11-20T09:30:00Z', status: 'completed', customer_name: 'Amina Wanjiru', device_serial: 'SHS-0001' }],
  },
});

/** What the page reads besides the customer: their Service Tickets (none), and the rest empty. */
const otherReads = (c: RecordedCall) =>
  c.url.startsWith('/payg/tickets?')
    ? jsonResponse(200, { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 10 }, counts: COUNTS } })
    : jsonResponse(200, { data: [] });

describe('Customer Payment Details', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the customer, the four cards, the template in its currency and the history', async () => {
    const { calls } = mockFetch((c) =>
      !c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, details({}, { template_id: 5, template_name: 'Daily 50', daily_price: '50.00', activation_price: '500.00', grace_period_days: 2, currency: 'KES' })),
    );
    seedSession();
    renderApp('/customer-payment-details/11');
    const info = await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    expect(within(info).getByText('0712345678')).toBeInTheDocument();
    expect(within(info).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(screen.getByRole('group', { name: 'Total Paid' })).toHaveTextContent('KES 6,000.00');
    expect(screen.getByRole('group', { name: 'Total Paid' })).not.toHaveTextContent('paid before');
    expect(within(screen.getByRole('group', { name: 'Progress' })).getByText('50.0%')).toBeInTheDocument();
    const template = screen.getByRole('region', { name: 'Payment Template' });
    expect(within(template).getByText('Daily 50')).toBeInTheDocument();
    expect(within(template).getByText('2 days')).toBeInTheDocument();
    expect(screen.queryByText('Fully Paid!')).not.toBeInTheDocument();
    expect(calls.find((c) => c.url.includes('payment-details'))?.url).toBe('/payg/customers/11/payment-details');
  });

  it('says under Total Paid what was paid in another system on accounts brought over', async () => {
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, details({ total_paid: '100.00', paid_before: '4500.00' }))));
    seedSession();
    renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    const paid = screen.getByRole('group', { name: 'Total Paid' });
    expect(paid).toHaveTextContent('USD 100.00');
    expect(paid).toHaveTextContent('+ USD 4,500.00 paid before they had these devices');
  });

  it("lists the customer's discounts across their devices, each leading to its device", async () => {
    const discount = {
      discount_id: 3,
      serial_number: 'LMP-2002',
      customer_id: 11,
      customer_name: 'Amina Wanjiru',
      amount: '500.00',
      currency: 'KES',
      reason: 'Goodwill: two weeks in the shop',
      remaining_before: '2990.00',
      remaining_after: '2490.00',
      unlock_token_count: null,
      given_by: 'demo',
      given_at: '2026-12-01T09:30:00Z',
      voided_at: null,
      voided_by: null,
      void_reason: null,
    };
    mockFetch((c) =>
      c.url === '/payg/customers/11/discounts'
        ? jsonResponse(200, { data: [discount], total: '500.00' })
        : !c.url.includes('payment-details')
          ? otherReads(c)
          : jsonResponse(200, details({})),
    );
    seedSession();
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'Discounts' }, { timeout: 5000 });
    expect(within(card).getByText('1 discount: KES 500.00 off on the accounts they hold now')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'LMP-2002' })).toHaveAttribute('href', '/device-activity/LMP-2002');
    // Their own page: no Customer column, and no Void (that is on the device's page).
    expect(within(card).queryByRole('columnheader', { name: 'Customer' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();
  });

  it('lists the times the customer dialled the USSD menu and what came of each, only when they did', async () => {
    const session = {
      session_id: 'ATUid_1',
      phone_number: '+254712345678',
      customer_id: 11,
      customer_name: 'Amina Wanjiru',
      service_code: '*384*123#',
      steps: 2,
      outcome: 'pay_refused',
      detail: 'KES 200 for SHS-0001 by M-Pesa Express: a payment request is still waiting',
      started_at: '2026-12-01T09:30:00Z',
      updated_at: '2026-12-01T09:31:00Z',
    };
    const { calls } = mockFetch((c) =>
      c.url.startsWith('/payg/customers/11/ussd-sessions')
        ? jsonResponse(200, { data: [session], next_before: null })
        : !c.url.includes('payment-details')
          ? otherReads(c)
          : jsonResponse(200, details({})),
    );
    seedSession();
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'USSD Sessions' }, { timeout: 5000 });
    const table = within(card).getByRole('table', { name: 'USSD sessions' });
    expect(within(table).getByText('Payment not sent')).toBeInTheDocument();
    expect(within(table).getByText(/still waiting · 2 answers$/)).toBeInTheDocument();
    expect(within(table).getByText('+254712345678')).toBeInTheDocument();
    // Their own page: no Customer column.
    expect(within(table).queryByRole('columnheader', { name: 'Customer' })).not.toBeInTheDocument();
    expect(calls.find((c) => c.url.startsWith('/payg/customers/11/ussd-sessions'))?.url).toBe('/payg/customers/11/ussd-sessions?limit=20');
  });

  it('shows no USSD card for a customer who never dialled', async () => {
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, details({}))));
    seedSession();
    renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'USSD Sessions' })).not.toBeInTheDocument();
  });

  it('lists each device with its plan, what is left on it and its credit', async () => {
    const device = (over: Record<string, unknown>) => ({
      serial_number: 'SHS-0001',
      product_name: 'Solar Home 50W',
      status: 'assigned',
      days_left: 12.5,
      credit_until: '2026-12-07T09:00:00Z',
      paid_off: false,
      total_paid: '2400.00',
      payoff_price: '20000.00',
      remaining: '17600.00',
      payment_plan: { template_id: 5, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false },
      ...over,
    });
    const reply = details({});
    const devices = [
      device({}),
      device({
        serial_number: 'PH-0002',
        product_name: 'Smartphone',
        days_left: 0,
        credit_until: '2026-11-20T09:00:00Z',
        payment_plan: { template_id: 6, template_name: 'Phone 40', daily_price: '40.00', currency: 'KES', own: true },
      }),
      device({ serial_number: 'TV-0003', product_name: 'Solar TV', paid_off: true, remaining: '0.00', payment_plan: null }),
      device({ serial_number: 'RD-0004', product_name: 'Radio', days_left: 0, credit_until: null, total_paid: '0.00' }),
    ];
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, { data: { ...reply.data, devices } })));
    seedSession();
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'Devices' }, { timeout: 5000 });
    const row = (serial: string) => within(card).getByRole('link', { name: serial }).closest('tr')!;
    expect(row('SHS-0001')).toHaveTextContent('Daily 50 · KES 50.00/day');
    expect(row('SHS-0001')).toHaveTextContent('KES 17,600.00');
    expect(row('SHS-0001')).toHaveTextContent('12.5 days');
    expect(within(row('SHS-0001')).queryByText('This device only')).not.toBeInTheDocument();
    expect(row('PH-0002')).toHaveTextContent('Phone 40 · KES 40.00/day');
    expect(within(row('PH-0002')).getByText('This device only')).toBeInTheDocument();
    expect(within(row('PH-0002')).getByText('Out of credit')).toBeInTheDocument();
    expect(within(row('TV-0003')).getByText('None')).toBeInTheDocument();
    expect(within(row('TV-0003')).getByText('Paid off')).toBeInTheDocument();
    expect(within(row('RD-0004')).getByText('No days bought yet')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'PH-0002' })).toHaveAttribute('href', '/device-activity/PH-0002');
  });

  it('says how the customer repays against what the plans expect by today, and each device', async () => {
    const plan = { template_id: 5, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false };
    const device = (serial: string, repayment: Record<string, unknown>) => ({
      serial_number: serial,
      product_name: 'Solar Home 50W',
      status: 'assigned',
      days_left: 2,
      credit_until: '2026-12-07T09:00:00Z',
      paid_off: false,
      total_paid: '2200.00',
      payoff_price: '20000.00',
      remaining: '17800.00',
      payment_plan: plan,
      repayment,
    });
    const devices = [
      device('SHS-0001', { expected_by_today: '2350.00', paid_towards: '2200.00', repaid_share: 93.6, standing: 'on_track' }),
      device('SHS-0002', { expected_by_today: '3350.00', paid_towards: '2200.00', repaid_share: 65.7, standing: 'behind' }),
      { ...device('SHS-0003', { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null }), payment_plan: null },
    ];
    const repayment = { expected_by_today: '5700.00', paid_towards: '4400.00', repaid_share: 77.2, standing: 'behind' };
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, { data: { ...details({}).data, repayment, devices } })));
    seedSession();
    renderApp('/customer-payment-details/11');
    const standing = await screen.findByRole('group', { name: 'Repayment standing' }, { timeout: 5000 });
    expect(within(standing).getByText('Behind')).toBeInTheDocument();
    expect(standing).toHaveTextContent('Paid KES 4,400.00 of the KES 5,700.00 the plan expects by today: 77.2%.');
    const card = screen.getByRole('region', { name: 'Devices' });
    const row = (serial: string) => within(card).getByRole('link', { name: serial }).closest('tr')!;
    expect(within(row('SHS-0001')).getByText('On track')).toBeInTheDocument();
    expect(row('SHS-0001')).toHaveTextContent('93.6%');
    expect(within(row('SHS-0002')).getByText('Behind')).toBeInTheDocument();
    expect(row('SHS-0002')).toHaveTextContent('65.7%');
    expect(within(row('SHS-0003')).queryByText(/On track|Behind/)).not.toBeInTheDocument();
  });

  it('says a customer with every device paid off is, and one without a plan has no standing', async () => {
    const paidOff = { expected_by_today: '20000.00', paid_towards: '20000.00', repaid_share: 100, standing: 'paid_off' };
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, { data: { ...details({}).data, repayment: paidOff, devices: [] } })));
    seedSession();
    const { unmount } = renderApp('/customer-payment-details/11');
    const standing = await screen.findByRole('group', { name: 'Repayment standing' }, { timeout: 5000 });
    expect(within(standing).getByText('Paid off')).toBeInTheDocument();
    expect(standing).toHaveTextContent('Every device on a plan is paid off.');
    unmount();
    vi.unstubAllGlobals();
    const none = { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null };
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, { data: { ...details({}).data, repayment: none, devices: [] } })));
    renderApp('/customer-payment-details/11');
    expect(await screen.findByText('No device on a plan with a price to own: nothing says what to expect.', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('says whether the follow-on sales rule lets the customer have another device on credit, and why not', async () => {
    const repayment = { expected_by_today: '3350.00', paid_towards: '2200.00', repaid_share: 65.7, standing: 'behind' };
    const reason = 'Amina Wanjiru is Behind: paid 2,200.00 of the 3,350.00 their plans expect by today (65.7%). This organization gives another device only to customers Paid off or On track.';
    const check = (allowed: boolean) => ({
      customer_id: 11, customer_name: 'Amina Wanjiru', devices: 1, repayment, repossessions: 0,
      rule: allowed ? 'behind' : 'on_track', refuse_repossessed: false, allowed, reasons: allowed ? [] : [reason],
    });
    let allowed = false;
    mockFetch((c) => {
      if (c.url === '/payg/customers/11/credit-check') return jsonResponse(200, check(allowed));
      return !c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, { data: { ...details({}).data, repayment, devices: [] } });
    });
    seedSession();
    const { unmount } = renderApp('/customer-payment-details/11');
    const refused = await screen.findByRole('group', { name: 'Another device on credit' }, { timeout: 5000 });
    expect(refused).toHaveTextContent('The follow-on sales rule refuses another device');
    expect(refused).toHaveTextContent(reason);
    expect(refused).toHaveTextContent('Follow-on sales: Only to customers On track or Paid off. An owner or admin can give it anyway with a reason.');
    unmount();
    allowed = true;
    renderApp('/customer-payment-details/11');
    const ok = await screen.findByRole('group', { name: 'Another device on credit' }, { timeout: 5000 });
    expect(ok).toHaveTextContent('Can be given another device on credit');
    expect(ok).toHaveTextContent('Follow-on sales: Not to customers Far behind.');
  });

  it("downloads the customer's statement for a chosen period, and says when it fails", async () => {
    const user = userEvent.setup();
    const names = captureDownloads();
    let fail = false;
    const { calls } = mockFetch((c) => {
      if (c.url.startsWith('/payg/customers/11/statement')) {
        return fail
          ? jsonResponse(404, { detail: 'Customer not found', message: 'Customer not found' })
          : new Response('%PDF-1.3', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="statement-11-2026-11-25.pdf"' } });
      }
      return c.url.includes('payment-details') ? jsonResponse(200, details({})) : otherReads(c);
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Statement' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Last 30 days' }));
    await waitFor(() => expect(names).toEqual(['statement-11-2026-11-25.pdf']));
    const { from, to } = statementPeriods(dayIn(buildUser().time_zone))[1]!.period;
    expect(calls.find((c) => c.url.startsWith('/payg/customers/11/statement'))!.url).toBe(`/payg/customers/11/statement?from=${from}&to=${to}`);
    expect(await screen.findByText('Downloaded statement-11-2026-11-25.pdf')).toBeInTheDocument();

    // In Kiswahili, whatever the customer's own language.
    await user.click(screen.getByRole('button', { name: 'Statement' }));
    expect(await screen.findByRole('radio', { name: "Customer's" })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Kiswahili' }));
    expect(screen.getByRole('radio', { name: 'Kiswahili' })).toBeChecked();
    await user.click(screen.getByRole('menuitem', { name: 'All time' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/customers/11/statement?language=sw')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Statement' }));
    await user.click(await screen.findByRole('radio', { name: 'French' }));
    await user.click(screen.getByRole('menuitem', { name: 'All time' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/customers/11/statement?language=fr')).toHaveLength(1));

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Statement' }));
    await user.click(await screen.findByRole('radio', { name: "Customer's" }));
    await user.click(await screen.findByRole('menuitem', { name: 'All time' }));
    expect(await screen.findByText('Customer not found')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/payg/customers/11/statement')).toHaveLength(1);
  });

  it('reverses a payment from the customer history, naming its device', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/payments/9/reverse')
        return jsonResponse(200, {
          message: 'Payment reversed: it is held for matching',
          payment_id: 9,
          status: 'pending',
          hold_reason: 'Reversed from SHS-0001 by amina: Wrong customer',
          serial_number: 'SHS-0001',
          total_paid: '5500.00',
          credit: '0.00',
          credit_until: null,
          days_removed: 0,
          deactivated: false,
        });
      return c.url.includes('payment-details') ? jsonResponse(200, details({})) : otherReads(c);
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    const reads = calls.filter((c) => c.url.includes('payment-details')).length;
    await user.click(screen.getByRole('button', { name: 'Reverse payment #9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse Payment' });
    expect(within(dialog).getByText(/For a payment applied to SHS-0001 by mistake/)).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Wrong customer');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse Payment' }));
    expect(await screen.findByText('Payment #9 reversed from SHS-0001. It is waiting in Held Payments to be matched.')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.url.includes('payment-details')).length).toBeGreaterThan(reads));
  });

  it('texts the customer about their device, counting the SMS, and shows why it cannot', async () => {
    const user = userEvent.setup();
    let provider = false;
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/customers/11/sms') {
        if (!provider) return jsonResponse(409, { detail: 'No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider' });
        return jsonResponse(201, { message: 'SMS to Amina Wanjiru queued', message_id: 77, recipient_number: '254712345678', parts: 2, delivery_status: 'queued' });
      }
      return c.url.includes('payment-details') ? jsonResponse(200, details({})) : otherReads(c);
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send SMS' });
    expect(within(dialog).getByText('To Amina Wanjiru · 0712345678 · about SHS-0001')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send SMS' }));
    expect(within(dialog).getByText('Write the message')).toBeInTheDocument();
    const box = within(dialog).getByRole('textbox', { name: 'Message' });
    await user.type(box, 'a'.repeat(161));
    expect(within(dialog).getByText('161 characters · 2 SMS')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send SMS' }));
    expect(await within(dialog).findByText(/No SMS provider is set up/)).toBeInTheDocument();
    provider = true;
    await user.click(within(dialog).getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByText('SMS to Amina Wanjiru queued (254712345678).')).toBeInTheDocument();
    expect(JSON.parse(calls.filter((c) => c.url === '/payg/customers/11/sms').at(-1)!.body!)).toEqual({ text: 'a'.repeat(161), serial_number: 'SHS-0001' });
  });

  it('records that the customer asked for no texts, and then refuses to text them', async () => {
    const user = userEvent.setup();
    let optedOut: string | null = null;
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/customers/11/sms-opt-out') {
        optedOut = '2026-11-25T10:00:00Z';
        return jsonResponse(200, { message: 'Amina Wanjiru will get no more reminders or texts from staff; payment codes and balance replies still go', customer: {} });
      }
      if (!c.url.includes('payment-details')) return otherReads(c);
      const reply = details({});
      Object.assign(reply.data.customer_info, { sms_opted_out_at: optedOut, sms_opt_out_source: optedOut ? 'staff' : null });
      return jsonResponse(200, reply);
    });
    seedSession({ user: buildUser({ role: 'staff' }) });
    renderApp('/customer-payment-details/11');
    const info = await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    expect(within(info).getByText('Takes texts')).toBeInTheDocument();
    await user.click(within(info).getByRole('button', { name: 'Stop Texts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop texts' });
    expect(within(dialog).getByText('Record that Amina Wanjiru asked for no texts. From now on they get:')).toBeInTheDocument();
    expect(within(dialog).getByText(/The code for a payment they make and the answer to BAL still go/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stop Texts' }));
    expect(await screen.findByText(/Amina Wanjiru will get no more reminders/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/payg/customers/11/sms-opt-out').map((c) => c.method)).toEqual(['POST']);
    // Read again: the badge says how and since when; staff cannot undo it, and Send SMS does nothing.
    expect(await within(info).findByText(/^No texts · Asked staff on /)).toBeInTheDocument();
    expect(within(info).queryByRole('button', { name: 'Allow Texts' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(screen.queryByRole('dialog', { name: 'Send SMS' })).not.toBeInTheDocument();
  });

  it('lets an owner or admin allow texts again for a customer who texted STOP', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url === '/payg/customers/11/sms-opt-out') return jsonResponse(200, { message: 'Amina Wanjiru takes reminders and texts again', customer: {} });
      if (!c.url.includes('payment-details')) return otherReads(c);
      const reply = details({});
      Object.assign(reply.data.customer_info, { sms_opted_out_at: '2026-11-20T10:00:00Z', sms_opt_out_source: 'sms' });
      return jsonResponse(200, reply);
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    const info = await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    expect(within(info).getByText(/^No texts · Texted STOP on /)).toBeInTheDocument();
    await user.click(within(info).getByRole('button', { name: 'Allow Texts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Allow texts again' });
    expect(within(dialog).getByText(/Only when Amina Wanjiru asks for texts again/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Allow Texts' }));
    expect(await screen.findByText('Amina Wanjiru takes reminders and texts again')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/payg/customers/11/sms-opt-out').map((c) => c.method)).toEqual(['DELETE']);
  });

  it("shows owners and admins the customer's Personal Data, and staff not", async () => {
    mockFetch((c) => (c.url.includes('payment-details') ? jsonResponse(200, details({})) : otherReads(c)));
    seedSession({ user: buildUser({ role: 'staff' }) });
    const staff = renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
    expect(screen.queryByRole('region', { name: 'Personal Data' })).not.toBeInTheDocument();
    staff.unmount();

    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'Personal Data' }, { timeout: 5000 });
    expect(within(card).getByRole('button', { name: 'Erase Personal Data' })).toBeInTheDocument();
  });

  it('says an erased customer was erased, with nothing left to text or take payments for', async () => {
    mockFetch((c) => {
      if (c.url === '/payg/customers/11') return jsonResponse(200, { customer_id: 11, customer_name: 'Erased customer', status: 'erased', updated_at: '2026-11-25T10:00:00Z' });
      if (!c.url.includes('payment-details')) return otherReads(c);
      const reply = details({ remaining_balance: '0.00', is_fully_paid: true });
      Object.assign(reply.data.customer_info, { customer_name: 'Erased customer', phone_contact: '', status: 'erased', device_serial: null });
      return jsonResponse(200, reply);
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'Personal Data' }, { timeout: 5000 });
    expect(within(card).getByText('Personal data erased')).toBeInTheDocument();
    expect(await within(card).findByRole('time')).toHaveAttribute('dateTime', '2026-11-25T10:00:00.000Z');
    expect(within(card).queryByRole('button', { name: 'Erase Personal Data' })).not.toBeInTheDocument();
    const info = screen.getByRole('region', { name: 'Customer Information' });
    expect(within(info).queryByText('Texts')).not.toBeInTheDocument();
    expect(within(info).queryByRole('button', { name: 'Stop Texts' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send SMS' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record Payment' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Statement' })).toBeInTheDocument();
  });

  it('has periods that end today, 30 and 90 days long', () => {
    const [all, month, quarter, year] = statementPeriods('2026-11-25');
    expect(all!.period).toEqual({});
    expect(month!.period).toEqual({ from: '2026-10-27', to: '2026-11-25' });
    expect(quarter!.period).toEqual({ from: '2026-08-28', to: '2026-11-25' });
    expect(year!.period).toEqual({ from: '2026-01-01', to: '2026-11-25' });
  });

  it('says when the customer has no device', async () => {
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, { data: { ...details({}).data, devices: [] } })));
    seedSession();
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'Devices' }, { timeout: 5000 });
    expect(within(card).getByText('No items assigned.')).toBeInTheDocument();
  });

  it("caps the bar at 100 and says 'Fully Paid!'", async () => {
    mockFetch((c) => !c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, details({ total_paid: '15000.00', remaining_balance: '0.00', payment_progress: 125, is_fully_paid: true })));
    seedSession();
    renderApp('/customer-payment-details/11');
    expect(await screen.findByText('Fully Paid!', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Payment progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(screen.getByRole('group', { name: 'Progress' })).getByText('100.0%')).toBeInTheDocument();
  });

  it('under the bar, what is paid towards the payoff prices: money beyond a device’s price is in Total Paid only', async () => {
    // Three devices without a plan (25,000 with 500 paid, 1,000 with 1,500 paid, one without a price with 300 paid).
    mockFetch((c) =>
      !c.url.includes('payment-details')
        ? otherReads(c)
        : jsonResponse(200, details({ total_paid: '2300.00', free_code_price: '26000.00', remaining_balance: '24500.00', payment_progress: 5.77, is_fully_paid: false })),
    );
    seedSession();
    renderApp('/customer-payment-details/11');
    const bar = await screen.findByRole('region', { name: 'Payment Progress' }, { timeout: 5000 });
    expect(bar).toHaveTextContent(/1,500\.00 of \S+ 26,000\.00/);
    expect(within(bar).getByText('5.8%')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Total Paid' })).toHaveTextContent('2,300.00');
    expect(screen.getByRole('group', { name: 'Remaining Balance' })).toHaveTextContent('24,500.00');
    expect(screen.queryByText('Fully Paid!')).not.toBeInTheDocument();
  });

  it("replaces the screen with the server's message, else 'Failed to fetch customer payment details'", async () => {
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(500, {})));
    seedSession();
    renderApp('/customer-payment-details/11');
    expect(await screen.findByText('HTTP error! status: 500', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it("falls back to 'Failed to fetch customer payment details' when the reply is unusable", async () => {
    mockFetch((c) => (!c.url.includes('payment-details') ? otherReads(c) : jsonResponse(200, {})));
    seedSession();
    renderApp('/customer-payment-details/11');
    expect(await screen.findByText('Failed to fetch customer payment details', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
