import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAccount, mockCollectionsApi } from '@/features/collections/testing/mock-collections-api';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { PAYMENT_REQUEST_POLL_MS, paymentRequestQueryOptions } from '../api/get-payment-request';
import { buildCustomerPaymentDetails, buildPaymentRequest, checkCalls, listCalls, mockPaymentRequestsApi, paid, refusal, sentRequests } from '../testing/mock-mpesa-express-api';
import { WAITING_TEXT } from './payment-request-progress';

async function openFromDevicePage() {
  const user = userEvent.setup();
  seedSession();
  renderApp('/device-activity/SHS-0001');
  await screen.findByRole('region', { name: 'Device Information' });
  await user.click(screen.getByRole('button', { name: 'Ask to Pay' }));
  const dialog = await screen.findByRole('dialog', { name: 'Ask to Pay' });
  return { user, dialog };
}

const detailCalls = (calls: { url: string; method: string }[]) => calls.filter((c) => c.method === 'GET' && /^\/payg\/payment-requests\/\d+$/.test(c.url));

describe('Ask to Pay', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is offered on the page of a device that has a customer, and not on one that has none", async () => {
    mockPaymentRequestsApi({ device: { is_assigned: false, customer_id: null, customer_name: null, status: 'available' } });
    seedSession();
    renderApp('/device-activity/SHS-0001');
    await screen.findByRole('region', { name: 'Device Information' });
    expect(screen.getByRole('button', { name: 'Record Payment' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask to Pay' })).not.toBeInTheDocument();
  });

  it("prefills the customer's phone, checks the amount and phone, then sends", async () => {
    const { calls } = mockPaymentRequestsApi();
    const { user, dialog } = await openFromDevicePage();
    const phone = await within(dialog).findByRole('textbox', { name: 'Phone Number' });
    expect(phone).toHaveValue('0712345678');
    expect(within(dialog).getByText('KES 50.00 a day. Whole shillings.')).toBeInTheDocument();
    const amount = within(dialog).getByRole('textbox', { name: /^Amount \(KES\)/ });
    const send = within(dialog).getByRole('button', { name: 'Send' });

    await user.click(send);
    expect(await within(dialog).findByText('Amount is required')).toBeInTheDocument();
    await user.type(amount, '300000');
    await user.clear(phone);
    await user.type(phone, '0201234567');
    await user.click(send);
    expect(await within(dialog).findByText('Amount must be at most 250000 (the most M-Pesa takes at once)')).toBeInTheDocument();
    expect(within(dialog).getByText('Phone Number must be a Kenyan M-Pesa number (07…, 01… or +254…)')).toBeInTheDocument();
    expect(sentRequests(calls)).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '150');
    await user.clear(phone);
    await user.type(phone, '+254 722 000 111');
    await user.click(send);
    expect(await within(dialog).findByText(WAITING_TEXT)).toBeInTheDocument();
    expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mpesa_express', amount: 150, phone_number: '254722000111' }]);
  });

  it('follows the request until the customer has paid: receipt, days bought and the token; the table reads again', async () => {
    const { calls } = mockPaymentRequestsApi({ polls: [paid()] });
    const { user, dialog } = await openFromDevicePage();
    await screen.findByText('No payment requests yet');
    const listsBefore = listCalls(calls).length;
    await user.type(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    const waiting = await within(dialog).findByRole('status');
    expect(waiting).toHaveTextContent(WAITING_TEXT);
    expect(waiting).toHaveTextContent('KES 150.00 from +254 712 345 678, account SHS-0001');
    // The reply to the POST is the first state: nothing asked before the first 3 s are up.
    expect(detailCalls(calls)).toHaveLength(0);
    // Sent: the device's table reads again.
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(listsBefore));
    const listsAfterSend = listCalls(calls).length;
    const activityReads = () => calls.filter((c) => c.url.startsWith('/payg/devices/SHS-0001/activity')).length;
    const activityBefore = activityReads();

    expect(await within(dialog).findByText('Paid', {}, { timeout: PAYMENT_REQUEST_POLL_MS + 5_000 })).toBeInTheDocument();
    expect(detailCalls(calls)[0]!.url).toBe('/payg/payment-requests/31');
    expect(within(dialog).queryByText(WAITING_TEXT)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'M-Pesa Receipt' })).toHaveTextContent('SKL4ABC123');
    expect(within(dialog).getByRole('group', { name: 'Days Bought' })).toHaveTextContent('3');
    expect(within(dialog).getByTestId('payment-request-token')).toHaveTextContent('123 456 789');
    // Paid: the payment is on the device, so the page (its history, its requests) reads again.
    await waitFor(() => expect(activityReads()).toBeGreaterThan(activityBefore));
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(listsAfterSend));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ask to Pay' })).not.toBeInTheDocument());
  });

  it('asks again every 3 s only while the request waits', () => {
    const interval = paymentRequestQueryOptions(31).refetchInterval as (q: unknown) => number | false;
    const at = (status: string) => interval({ state: { data: { data: buildPaymentRequest({ status: status as never }) } } });
    expect(at('pending')).toBe(PAYMENT_REQUEST_POLL_MS);
    for (const status of ['paid', 'cancelled', 'failed', 'expired']) expect(at(status)).toBe(false);
  });

  it("shows why it was not paid, and offers to ask again with the same amount", async () => {
    mockPaymentRequestsApi({
      sent: buildPaymentRequest({ status: 'cancelled', status_text: 'The customer cancelled the M-Pesa prompt', result_code: 1032 }),
    });
    const { user, dialog } = await openFromDevicePage();
    await user.type(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Cancelled by the customer')).toBeInTheDocument();
    expect(within(dialog).getByText('The customer cancelled the M-Pesa prompt')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Ask Again' }));
    expect(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ })).toHaveValue('150');
  });

  it('checks with M-Pesa while the customer has the prompt, and after it expired: paid, the receipt still to come', async () => {
    const waiting = buildPaymentRequest();
    const noReceipt =
      "Paid: M-Pesa says the customer paid, but its receipt has not reached Kidogo yet. The payment is applied when M-Pesa's result, the paybill confirmation, the forwarded SMS or your M-Pesa statement brings it; or record it with the receipt from the customer's SMS";
    let answer: { data: ReturnType<typeof buildPaymentRequest>; message: string } = { data: waiting, message: 'M-Pesa is still waiting for the customer to answer the prompt' };
    // The request as the API has it: what the last check answered (the polls read it too).
    const { calls } = mockPaymentRequestsApi({
      extra: (c) =>
        c.method === 'POST' && c.url.endsWith('/check')
          ? jsonResponse(200, answer)
          : c.method === 'GET' && c.url === '/payg/payment-requests/31'
            ? jsonResponse(200, { data: answer.data })
            : undefined,
    });
    const { user, dialog } = await openFromDevicePage();
    await user.type(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await within(dialog).findByText(WAITING_TEXT);

    await user.click(within(dialog).getByRole('button', { name: 'Check with M-Pesa' }));
    expect(await within(dialog).findByText('M-Pesa is still waiting for the customer to answer the prompt')).toBeInTheDocument();
    expect(within(dialog).getByText(WAITING_TEXT)).toBeInTheDocument();

    answer = {
      data: buildPaymentRequest({ status: 'paid', status_text: noReceipt, answered_by: 'check', result_code: 0, completed_at: '2026-11-25T10:04:00Z' }),
      message: noReceipt,
    };
    await user.click(within(dialog).getByRole('button', { name: 'Check with M-Pesa' }));
    expect(await within(dialog).findByText('Paid', { selector: '.mantine-Alert-label' })).toBeInTheDocument();
    expect(within(dialog).getAllByText(noReceipt).length).toBeGreaterThan(0);
    expect(within(dialog).getByRole('group', { name: 'M-Pesa Receipt' })).toHaveTextContent('—');
    // Checked again later, it looks for the payment that brought the money: the button stays while there is no receipt.
    expect(within(dialog).getByRole('button', { name: 'Check with M-Pesa' })).toBeInTheDocument();
    expect(checkCalls(calls)).toEqual(['/payg/payment-requests/31/check', '/payg/payment-requests/31/check']);
  });

  it('offers to check with M-Pesa a request that got no answer', async () => {
    mockPaymentRequestsApi({ sent: buildPaymentRequest({ status: 'expired', status_text: 'No answer from M-Pesa within 3 minutes: the customer did not pay' }) });
    const { user, dialog } = await openFromDevicePage();
    await user.type(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('No answer')).toBeInTheDocument();
    expect(within(dialog).getByText(/If the customer says they paid, check with M-Pesa\./)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Check with M-Pesa' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Ask Again' })).toBeInTheDocument();
  });

  it("shows the API's 409 in the modal: M-Pesa Express not set up", async () => {
    const { calls } = mockPaymentRequestsApi({
      extra: (c) =>
        c.method === 'POST' && c.url === '/payg/payment-requests'
          ? refusal(409, 'M-Pesa Express is not set up: an owner or admin can set it up in Settings')
          : undefined,
    });
    const { user, dialog } = await openFromDevicePage();
    await user.type(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Payment request not sent')).toBeInTheDocument();
    expect(within(dialog).getByText('M-Pesa Express is not set up: an owner or admin can set it up in Settings')).toBeInTheDocument();
    // The form stays, to try again once it is set up.
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(sentRequests(calls)).toHaveLength(1);
    expect(detailCalls(calls)).toHaveLength(0);
  });

  it("puts a 400's field under its input", async () => {
    mockPaymentRequestsApi({
      extra: (c) =>
        c.method === 'POST' && c.url === '/payg/payment-requests'
          ? jsonResponse(400, { message: 'phone_number: is not on M-Pesa', errors: [{ field: 'phone_number', message: 'is not on M-Pesa' }] })
          : undefined,
    });
    const { user, dialog } = await openFromDevicePage();
    await user.type(await within(dialog).findByRole('textbox', { name: /^Amount \(KES\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Phone Number is not on M-Pesa')).toBeInTheDocument();
    expect(within(dialog).queryByText('Payment request not sent')).not.toBeInTheDocument();
  });

  it("is on each device of the customer's page that is not paid off", async () => {
    const user = userEvent.setup();
    const device = (serial_number: string, paid_off: boolean) => ({
      serial_number,
      product_name: 'Solar Home 50W',
      status: 'assigned',
      days_left: 0,
      credit_until: '2026-11-20T09:00:00Z',
      paid_off,
      total_paid: '1500.00',
      payoff_price: '12000.00',
      remaining: paid_off ? '0.00' : '10500.00',
      payment_plan: { template_id: 3, template_name: 'Daily 50', daily_price: '50.00', currency: 'KES', own: false },
    });
    const { calls } = mockPaymentRequestsApi({
      extra: (c) =>
        c.url === '/payg/customers/11/payment-details' ? jsonResponse(200, buildCustomerPaymentDetails([device('SHS-0001', false), device('SHS-0009', true)])) : undefined,
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    const devices = await screen.findByRole('region', { name: 'Devices' });
    const table = await within(devices).findByRole('table', { name: 'Devices' });
    expect(within(table).queryByRole('button', { name: 'Ask to Pay: Amina Wanjiru · SHS-0009' })).not.toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Ask to Pay: Amina Wanjiru · SHS-0001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask to Pay' });
    expect(within(dialog).getByRole('textbox', { name: 'Phone Number' })).toHaveValue('0712345678');
    expect(within(dialog).getByText('KES 50.00 a day · KES 10,500.00 left to pay. Whole shillings.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount \(KES\)/ }), '200');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(WAITING_TEXT)).toBeInTheDocument();
    expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mpesa_express', amount: 200, phone_number: '254712345678' }]);
  });

  it("is on each Collections row next to Send SMS, with the row's phone and what is left to pay", async () => {
    const user = userEvent.setup();
    const { calls } = mockCollectionsApi(
      () => [buildAccount()],
      (c) =>
        c.method === 'POST' && c.url === '/payg/payment-requests'
          ? jsonResponse(201, { data: buildPaymentRequest({ serial_number: 'SHS-0001', customer_id: 42 }), message: 'Sent' })
          : undefined,
    );
    seedSession();
    renderApp('/collections');
    const table = await screen.findByRole('table', { name: 'Collections' });
    const row = (await within(table).findByText('SHS-0001')).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Send SMS to Amina Wanjiru · SHS-0001' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Ask to Pay: Amina Wanjiru · SHS-0001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask to Pay' });
    expect(within(dialog).getByRole('textbox', { name: 'Phone Number' })).toHaveValue('0712 345 678');
    expect(within(dialog).getByText('KES 50.00 a day · KES 10,500.00 left to pay. Whole shillings.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount \(KES\)/ }), '500');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(WAITING_TEXT)).toBeInTheDocument();
    expect(sentRequests(calls)).toEqual([{ serial_number: 'SHS-0001', provider: 'mpesa_express', amount: 500, phone_number: '254712345678' }]);
  });
});
