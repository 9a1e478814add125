import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { deferred, jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { PAYMENT_REQUEST_POLL_MS } from '../api/get-payment-request';
import {
  airtelPaid,
  ALL_READY,
  BOTH_READY,
  buildAirtelPaymentRequest,
  buildMtnPaymentRequest,
  buildPaymentRequestProvider,
  mockPaymentRequestsApi,
  MPESA_READY_ONLY,
  mtnPaid,
  sentRequests,
} from '../testing/mock-mpesa-express-api';
import { AIRTEL_MONEY_WAITING_TEXT, MTN_MOMO_WAITING_TEXT, WAITING_TEXT } from './payment-request-progress';

/** A device in Uganda: its plan in UGX. */
const UGANDA_PLAN = { payment_plan: { template_id: 3, template_name: 'Daily 2000', daily_price: '2000.00', currency: 'UGX', own: false } };

const NONE_READY = [
  buildPaymentRequestProvider('mpesa_express', { ready: false, problem: 'M-Pesa Express is not set up: enter your short code and Daraja keys' }),
  buildPaymentRequestProvider('mtn_momo', { ready: false, problem: 'MTN MoMo is switched off' }),
  buildPaymentRequestProvider('airtel_money', {
    ready: false,
    problem: 'Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money',
    currency: 'KES',
    decimals: true,
  }),
];

async function openFromDevicePage(role: 'admin' | 'staff' = 'admin') {
  const user = userEvent.setup();
  seedSession({ user: buildUser({ role }) });
  renderApp('/device-activity/SHS-0001');
  await screen.findByRole('region', { name: 'Device Information' });
  await user.click(screen.getByRole('button', { name: 'Ask to Pay' }));
  const dialog = await screen.findByRole('dialog', { name: 'Ask to Pay' });
  return { user, dialog };
}

describe('Ask to Pay with M-Pesa Express, MTN MoMo or Airtel Money', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers no choice when only M-Pesa Express is ready', async () => {
    mockPaymentRequestsApi({ providers: MPESA_READY_ONLY });
    const { dialog } = await openFromDevicePage();
    await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ });
    expect(within(dialog).queryByRole('radiogroup', { name: 'Pay with' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^M-Pesa asks/)).toHaveTextContent('M-Pesa asks Amina Wanjiru to pay to your paybill, account SHS-0001.');
  });

  it('offers both when both are ready, M-Pesa first; chosen, MTN MoMo sends its amount with cents and the phone as typed', async () => {
    const { calls } = mockPaymentRequestsApi({ providers: BOTH_READY, device: UGANDA_PLAN, sent: buildMtnPaymentRequest(), polls: [mtnPaid()] });
    const { user, dialog } = await openFromDevicePage();
    const choice = await within(dialog).findByRole('radiogroup', { name: 'Pay with' });
    expect(within(choice).getByRole('radio', { name: 'M-Pesa Express' })).toBeChecked();
    expect(within(dialog).getByRole('textbox', { name: /^Amount \(KES\)/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Phone Number' })).toHaveAttribute('placeholder', '07XX XXX XXX');
    // The device's plan is in UGX: M-Pesa's shillings would wait for staff, and the dialog says so.
    expect(within(dialog).getByRole('note', { name: 'Another currency' })).toHaveTextContent(
      "This device's plan is in UGX, and M-Pesa Express asks in KES: what the customer pays will wait in Held Payments for staff to match it.",
    );

    await user.click(within(choice).getByRole('radio', { name: 'MTN MoMo' }));
    expect(within(dialog).queryByRole('note', { name: 'Another currency' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^MTN MoMo asks/)).toHaveTextContent(
      'MTN MoMo asks Amina Wanjiru to approve a payment to you, reference SHS-0001. Their phone shows the request; they approve it with their MoMo PIN.',
    );
    expect(within(dialog).getByText('UGX 2,000.00 a day. Up to 2 decimals.')).toBeInTheDocument();
    const phone = within(dialog).getByRole('textbox', { name: 'Phone Number' });
    expect(phone).toHaveValue('0712345678');
    expect(phone).toHaveAttribute('placeholder', '0772 123 456');
    await user.clear(phone);
    await user.type(phone, '0772 123 456');
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount \(UGX\)/ }), '5000.50');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    const waiting = await within(dialog).findByRole('status');
    expect(waiting).toHaveTextContent(MTN_MOMO_WAITING_TEXT);
    expect(waiting).toHaveTextContent('UGX 5,000.50 from +256 772 123 456, account SHS-0001');
    expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mtn_momo', amount: 5000.5, phone_number: '0772 123 456' }]);
    expect(within(dialog).getByRole('button', { name: 'Check with MTN MoMo' })).toBeInTheDocument();

    expect(await within(dialog).findByText('Paid', { selector: '.mantine-Alert-label' }, { timeout: PAYMENT_REQUEST_POLL_MS + 5_000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'MTN MoMo Transaction' })).toHaveTextContent('76662021700');
    expect(within(dialog).queryByRole('group', { name: 'M-Pesa Receipt' })).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('payment-request-token')).toHaveTextContent('987 654 321');
  });

  it('offers all three when all are ready, in that order; chosen, Airtel Money sends whole UGX and the phone as typed, and its transaction id is the receipt', async () => {
    const { calls } = mockPaymentRequestsApi({ providers: ALL_READY, device: UGANDA_PLAN, sent: buildAirtelPaymentRequest(), polls: [airtelPaid()] });
    const { user, dialog } = await openFromDevicePage();
    const choice = await within(dialog).findByRole('radiogroup', { name: 'Pay with' });
    expect(within(choice).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['mpesa_express', 'mtn_momo', 'airtel_money']);
    expect(within(choice).getByRole('radio', { name: 'M-Pesa Express' })).toBeChecked();
    // jsdom lays nothing out: this is the style that lets the three names fit on a phone, each wrapping rather than cut off.
    expect(within(choice).getByText('M-Pesa Express').closest('label')).toHaveStyle({ whiteSpace: 'normal' });

    await user.click(within(choice).getByRole('radio', { name: 'Airtel Money' }));
    expect(within(dialog).queryByRole('note', { name: 'Another currency' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^Airtel Money asks/)).toHaveTextContent(
      'Airtel Money asks Amina Wanjiru to approve a payment to you, reference SHS-0001. Their phone shows the request; they approve it with their Airtel Money PIN.',
    );
    expect(within(dialog).getByText('UGX 2,000.00 a day. Whole UGX, no cents.')).toBeInTheDocument();
    const phone = within(dialog).getByRole('textbox', { name: 'Phone Number' });
    expect(phone).toHaveAttribute('placeholder', '0752 123 456');
    expect(within(dialog).getByText("The customer's phone: Airtel Money asks this number")).toBeInTheDocument();
    await user.clear(phone);
    await user.type(phone, '+256 752 123 456');
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount \(UGX\)/ }), '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    const waiting = await within(dialog).findByRole('status');
    expect(waiting).toHaveTextContent(AIRTEL_MONEY_WAITING_TEXT);
    expect(waiting).toHaveTextContent('UGX 5,000.00 from +256 752 123 456, account SHS-0001');
    expect(waiting).not.toHaveTextContent(/The prompt stays on their phone/);
    expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'airtel_money', amount: 5000, phone_number: '+256 752 123 456' }]);
    expect(within(dialog).getByRole('button', { name: 'Check with Airtel Money' })).toBeInTheDocument();

    expect(await within(dialog).findByText('Paid', { selector: '.mantine-Alert-label' }, { timeout: PAYMENT_REQUEST_POLL_MS + 5_000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Airtel Money Transaction' })).toHaveTextContent('MP261206.1015.A00001');
    expect(within(dialog).queryByRole('group', { name: 'M-Pesa Receipt' })).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('payment-request-token')).toHaveTextContent('555 666 777');
  });

  it('uses Airtel Money when it is the one ready, and says what Airtel answered a check', async () => {
    const sent = buildAirtelPaymentRequest({ currency: 'TZS', amount: '2500.50', phone_number: '255784123456' });
    mockPaymentRequestsApi({
      providers: [...NONE_READY.slice(0, 2), buildPaymentRequestProvider('airtel_money', { currency: 'TZS', decimals: true })],
      sent,
      check: { data: sent, message: 'Airtel Money is still waiting for the customer to approve the payment' },
    });
    const { user, dialog } = await openFromDevicePage('staff');
    const amount = await within(dialog).findByRole('textbox', { name: /^Amount \(TZS\)/ });
    expect(within(dialog).queryByRole('radiogroup', { name: 'Pay with' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^Airtel Money asks/)).toBeInTheDocument();
    expect(within(dialog).getByText('KES 50.00 a day. Up to 2 decimals.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Phone Number' })).toHaveAttribute('placeholder', '0784 123 456');
    await user.type(amount, '2500.50');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(AIRTEL_MONEY_WAITING_TEXT)).toBeInTheDocument();
    expect(within(dialog).getAllByRole('status')[0]).toHaveTextContent('TZS 2,500.50 from +255 784 123 456, account SHS-0001');
    await user.click(within(dialog).getByRole('button', { name: 'Check with Airtel Money' }));
    expect(await within(dialog).findByText('Airtel Money is still waiting for the customer to approve the payment')).toBeInTheDocument();
  });

  it("checks the amount by the chosen provider's rules", async () => {
    const { calls } = mockPaymentRequestsApi({ providers: BOTH_READY });
    const { user, dialog } = await openFromDevicePage();
    const choice = await within(dialog).findByRole('radiogroup', { name: 'Pay with' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount \(KES\)/ }), '300000');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Amount must be at most 250000 (the most M-Pesa takes at once)')).toBeInTheDocument();

    // Over M-Pesa's most, not MTN's: chosen, MTN MoMo takes it.
    await user.click(within(choice).getByRole('radio', { name: 'MTN MoMo' }));
    expect(within(dialog).queryByText(/the most M-Pesa takes at once/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /^Amount \(UGX\)/ })).toHaveValue('300,000');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mtn_momo', amount: 300000, phone_number: '0712345678' }]));
  });

  it('uses the one provider ready, and says which: MTN MoMo in a market without cents', async () => {
    const { calls } = mockPaymentRequestsApi({
      providers: [
        buildPaymentRequestProvider('mpesa_express', { ready: false, problem: 'M-Pesa Express is not set up' }),
        buildPaymentRequestProvider('mtn_momo', { currency: 'RWF', decimals: false }),
      ],
      sent: buildMtnPaymentRequest({ currency: 'RWF', amount: '1500.00', phone_number: '250788123456' }),
    });
    const { user, dialog } = await openFromDevicePage();
    const amount = await within(dialog).findByRole('textbox', { name: /^Amount \(RWF\)/ });
    expect(within(dialog).queryByRole('radiogroup', { name: 'Pay with' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^MTN MoMo asks/)).toBeInTheDocument();
    expect(within(dialog).getByText('KES 50.00 a day. Whole RWF, no cents.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Phone Number' })).toHaveAttribute('placeholder', '0788 123 456');
    await user.type(amount, '1500');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(MTN_MOMO_WAITING_TEXT)).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent('RWF 1,500.00 from +250 788 123 456, account SHS-0001');
    expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mtn_momo', amount: 1500, phone_number: '0712345678' }]);
  });

  it('asks again with the provider chosen last time', async () => {
    mockPaymentRequestsApi({
      providers: BOTH_READY,
      sent: buildMtnPaymentRequest({ status: 'cancelled', status_text: 'The customer declined the payment', result_desc: 'APPROVAL_REJECTED' }),
    });
    const { user, dialog } = await openFromDevicePage();
    await user.click(within(await within(dialog).findByRole('radiogroup', { name: 'Pay with' })).getByRole('radio', { name: 'MTN MoMo' }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount \(UGX\)/ }), '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Cancelled by the customer')).toBeInTheDocument();
    expect(within(dialog).getByText('The customer declined the payment')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Ask Again' }));
    expect(await within(dialog).findByRole('textbox', { name: /^Amount \(UGX\)/ })).toHaveValue('5,000');
    expect(within(dialog).getByRole('radio', { name: 'MTN MoMo' })).toBeChecked();
  });

  it('says why none can be used, and sends nothing', async () => {
    const { calls } = mockPaymentRequestsApi({ providers: NONE_READY });
    const { user, dialog } = await openFromDevicePage();
    expect(await within(dialog).findByText('Payment requests cannot be sent yet')).toBeInTheDocument();
    expect(within(dialog).getByText(/M-Pesa Express is not set up: enter your short code and Daraja keys/).closest('li')).toHaveTextContent(
      'M-Pesa Express: M-Pesa Express is not set up: enter your short code and Daraja keys',
    );
    expect(within(dialog).getByText(/MTN MoMo is switched off/).closest('li')).toHaveTextContent('MTN MoMo: MTN MoMo is switched off');
    expect(within(dialog).getByText(/Airtel Money is not set up/).closest('li')).toHaveTextContent(
      'Airtel Money: Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money',
    );
    expect(within(dialog).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(within(dialog).queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /^Amount/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ask to Pay' })).not.toBeInTheDocument());
    expect(sentRequests(calls)).toEqual([]);
  });

  it('tells staff who can set one up', async () => {
    mockPaymentRequestsApi({ providers: NONE_READY });
    const { dialog } = await openFromDevicePage('staff');
    expect(await within(dialog).findByText('An owner or admin can set one up in Settings.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('shows Retry when the providers cannot be read, and a loader until they are', async () => {
    const held = deferred<Response>();
    let answer = (): Response | Promise<Response> => jsonResponse(500, { message: 'Database unavailable' });
    mockPaymentRequestsApi({ extra: (c) => (c.url === '/payg/payment-requests/providers' ? answer() : undefined) });
    const { user, dialog } = await openFromDevicePage();
    expect(await within(dialog).findByText('Failed to load the ways to ask for payment')).toBeInTheDocument();
    expect(within(dialog).getByText('Database unavailable')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();

    answer = () => held.promise;
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('status', { name: 'Loading the ways to ask for payment' })).toBeInTheDocument();
    held.resolve(jsonResponse(200, { data: MPESA_READY_ONLY }));
    expect(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ })).toBeInTheDocument();
    expect(within(dialog).queryByText(WAITING_TEXT)).not.toBeInTheDocument();
  });
});
