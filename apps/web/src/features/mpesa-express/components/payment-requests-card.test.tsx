import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mpesaExpressKeys } from '../api/keys';
import {
  airtelPaid,
  buildAirtelPaymentRequest,
  buildCustomerPaymentDetails,
  buildMtnPaymentRequest,
  buildPaymentRequest,
  checkCalls,
  listCalls,
  mockPaymentRequestsApi,
  mtnPaid,
  paid,
  refusal,
} from '../testing/mock-mpesa-express-api';

async function openDevicePage() {
  seedSession();
  renderApp('/device-activity/SHS-0001');
  return screen.findByRole('region', { name: 'Payment Requests' });
}

describe('Payment Requests card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the device's requests, newest first, with what became of each", async () => {
    const { calls } = mockPaymentRequestsApi({
      rows: () => [
        paid({ request_id: 33, created_at: '2026-11-25T12:00:00Z', requested_by: 'juma' }),
        buildPaymentRequest({ request_id: 32, status: 'failed', status_text: 'The customer has too little money on M-Pesa', amount: '500.00', requested_by: null }),
        buildPaymentRequest({ request_id: 31, phone_number: '254722000111' }),
        buildPaymentRequest({
          request_id: 30,
          status: 'cancelled',
          status_text: 'The customer cancelled the prompt',
          requested_by: null,
          from_customer_page: true,
        }),
      ],
    });
    const card = await openDevicePage();
    const table = within(card).getByRole('table', { name: 'Payment Requests of SHS-0001' });
    await within(table).findByText('SKL4ABC123');
    expect(listCalls(calls)[0]).toBe('/payg/payment-requests?page=1&limit=10&serial_number=SHS-0001');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Sent', 'Phone', 'Amount', 'Status', 'Receipt', 'Sent by', 'Actions']);
    expect(rows[1]).toHaveTextContent(/\+254 712 345 678.*KES 150\.00.*Paid.*Paid: the payment was applied to SHS-0001.*SKL4ABC123.*3 days · 123 456 789.*juma/);
    expect(rows[2]).toHaveTextContent(/KES 500\.00.*Failed.*The customer has too little money on M-Pesa.*—.*—/);
    expect(rows[3]).toHaveTextContent(/\+254 722 000 111.*Waiting for the customer.*waiting for their PIN.*amina/);
    // Pay Now on the customer's own page: sent by no user, and said so (a removed user's, above, is a dash).
    expect(rows[4]).toHaveTextContent(/The customer cancelled the prompt.*The customer \(their page or USSD\)/);
    expect(within(rows[1]!).getByText('Paid', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(within(card).getByText('4 requests · 1 waiting')).toBeInTheDocument();
  });

  it('names the provider of each request, shows an MTN MoMo one in its money with its transaction id, and checks it with MTN MoMo', async () => {
    const user = userEvent.setup();
    const expired = buildMtnPaymentRequest({ request_id: 61, status: 'expired', status_text: 'No answer from MTN MoMo: the customer did not approve in time' });
    const { calls } = mockPaymentRequestsApi({
      rows: () => [mtnPaid({ request_id: 62 }), expired, paid({ request_id: 33 })],
      check: refusal(502, 'MTN MoMo could not say what became of the request: 503 Service Unavailable'),
    });
    const card = await openDevicePage();
    const table = within(card).getByRole('table', { name: 'Payment Requests of SHS-0001' });
    await within(table).findByText('76662021700');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/\+256 772 123 456MTN MoMo.*UGX 5,000\.50.*Paid, MTN MoMo transaction 76662021700: 3 days of credit.*76662021700.*3 days · 987 654 321/);
    expect(rows[2]).toHaveTextContent(/\+256 772 123 456MTN MoMo.*UGX 5,000\.50.*No answer.*the customer did not approve in time.*—/);
    expect(rows[3]).toHaveTextContent(/\+254 712 345 678M-Pesa Express.*KES 150\.00.*SKL4ABC123/);

    // Only the MTN request without an answer can be checked, with MTN MoMo.
    const check = within(table).getByRole('button', { name: /^Check with/ });
    expect(check).toHaveAccessibleName(`Check with MTN MoMo: request of ${expired.created_at}`);
    expect(check).toHaveTextContent('Check with MTN MoMo');
    await user.click(check);
    expect(await screen.findByText('MTN MoMo could not say what became of the request: 503 Service Unavailable')).toBeInTheDocument();
    expect(screen.getByText('Could not check with MTN MoMo')).toBeInTheDocument();
    expect(checkCalls(calls)).toEqual(['/payg/payment-requests/61/check']);
  });

  it('shows Airtel Money requests with their transaction id or why they were not paid, and checks a waiting one with Airtel Money', async () => {
    const user = userEvent.setup();
    const waiting = buildAirtelPaymentRequest({ request_id: 73, created_at: '2026-11-25T12:00:00Z' });
    const { calls } = mockPaymentRequestsApi({
      rows: () => [
        waiting,
        buildAirtelPaymentRequest({ request_id: 72, status: 'cancelled', status_text: 'The customer declined the payment', result_desc: 'DP00800001008' }),
        airtelPaid({ request_id: 71 }),
      ],
      check: { data: waiting, message: 'Airtel Money is still waiting for the customer to approve the payment' },
    });
    const card = await openDevicePage();
    const table = within(card).getByRole('table', { name: 'Payment Requests of SHS-0001' });
    await within(table).findByText('MP261206.1015.A00001');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/\+256 752 123 456Airtel Money.*UGX 5,000\.00.*Waiting for the customer to approve with their Airtel Money PIN/);
    expect(rows[2]).toHaveTextContent(/\+256 752 123 456Airtel Money.*UGX 5,000\.00.*Cancelled.*The customer declined the payment.*—/);
    expect(rows[3]).toHaveTextContent(/Airtel Money.*Paid, Airtel Money transaction MP261206\.1015\.A00001: 3 days of credit.*MP261206\.1015\.A00001.*3 days · 555 666 777/);

    // Only the one still waiting can be checked, with Airtel Money; its answer is told in a toast.
    const check = within(table).getByRole('button', { name: /^Check with/ });
    expect(check).toHaveAccessibleName(`Check with Airtel Money: request of ${waiting.created_at}`);
    await user.click(check);
    expect(await screen.findByText('Airtel Money is still waiting for the customer to approve the payment')).toBeInTheDocument();
    expect(checkCalls(calls)).toEqual(['/payg/payment-requests/73/check']);
  });

  it('reads the page again when a request it saw waiting turns up paid', async () => {
    let answered = false;
    const { calls } = mockPaymentRequestsApi({ rows: () => [answered ? paid() : buildPaymentRequest()] });
    seedSession();
    const { queryClient } = renderApp('/device-activity/SHS-0001');
    const card = await screen.findByRole('region', { name: 'Payment Requests' });
    expect(await within(card).findByText('1 request · 1 waiting')).toBeInTheDocument();
    const activityReads = () => calls.filter((c) => c.url.startsWith('/payg/devices/SHS-0001/activity')).length;
    const before = activityReads();
    answered = true;
    // What the list's own refresh (every 10 s while a request waits) does.
    await queryClient.invalidateQueries({ queryKey: mpesaExpressKeys.lists() });
    expect(await within(card).findByText('SKL4ABC123')).toBeInTheDocument();
    await waitFor(() => expect(activityReads()).toBeGreaterThan(before));
  });

  it('checks with M-Pesa a request whose result never came, and says what M-Pesa answered', async () => {
    const user = userEvent.setup();
    let checked = false;
    const expired = buildPaymentRequest({ request_id: 40, status: 'expired', status_text: 'No answer from M-Pesa within 3 minutes: the customer did not pay' });
    const cancelled = { ...expired, status: 'cancelled' as const, status_text: 'The customer cancelled the prompt', answered_by: 'check' as const, result_code: 1032 };
    const { calls } = mockPaymentRequestsApi({
      rows: () => [checked ? cancelled : expired, paid({ request_id: 39 })],
      extra: (c) => {
        if (c.method !== 'POST' || !c.url.endsWith('/check')) return undefined;
        checked = true;
        return jsonResponse(200, { data: cancelled, message: 'The customer cancelled the prompt' });
      },
    });
    const card = await openDevicePage();
    const table = within(card).getByRole('table', { name: 'Payment Requests of SHS-0001' });
    await within(table).findByText('SKL4ABC123');
    // Only the request without an answer can be checked.
    expect(within(table).getAllByRole('button', { name: /^Check with M-Pesa/ })).toHaveLength(1);
    await user.click(within(table).getByRole('button', { name: /^Check with M-Pesa/ }));
    expect(await screen.findByText('The customer cancelled the prompt', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(checkCalls(calls)).toEqual(['/payg/payment-requests/40/check']);
    // The table reads again: the row has M-Pesa's answer, and nothing left to check.
    expect(await within(table).findByText('Cancelled by the customer')).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByRole('button', { name: /^Check with M-Pesa/ })).not.toBeInTheDocument());
  });

  it("says why M-Pesa could not be asked", async () => {
    const user = userEvent.setup();
    mockPaymentRequestsApi({
      rows: () => [buildPaymentRequest({ request_id: 41, status: 'expired', status_text: 'No answer from M-Pesa within 3 minutes: the customer did not pay' })],
      check: refusal(502, 'M-Pesa could not say what became of the request: Service is currently unavailable'),
    });
    const card = await openDevicePage();
    await user.click(await within(card).findByRole('button', { name: /^Check with M-Pesa/ }));
    expect(await screen.findByText('M-Pesa could not say what became of the request: Service is currently unavailable')).toBeInTheDocument();
    expect(screen.getByText('Could not check with M-Pesa')).toBeInTheDocument();
  });

  it("lists a customer's requests on their page, each with its device linked", async () => {
    const { calls } = mockPaymentRequestsApi({
      rows: () => [paid({ request_id: 51, serial_number: 'PH-0002' }), buildPaymentRequest({ request_id: 50, status: 'cancelled', status_text: 'The customer cancelled the prompt' })],
      extra: (c) =>
        c.url === '/payg/customers/11/payment-details' ? jsonResponse(200, buildCustomerPaymentDetails()) : undefined,
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    const card = await screen.findByRole('region', { name: 'Payment Requests' });
    const table = within(card).getByRole('table', { name: 'Payment Requests of Amina Wanjiru' });
    await within(table).findByText('SKL4ABC123');
    expect(listCalls(calls)[0]).toBe('/payg/payment-requests?page=1&limit=10&customer_id=11');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Sent', 'Device', 'Phone', 'Amount', 'Status', 'Receipt', 'Sent by', 'Actions']);
    expect(within(rows[1]!).getByRole('link', { name: 'PH-0002' })).toHaveAttribute('href', '/device-activity/PH-0002');
    expect(within(rows[2]!).getByRole('link', { name: 'SHS-0001' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('The customer cancelled the prompt');
  });

  it('says there are none yet', async () => {
    mockPaymentRequestsApi();
    const card = await openDevicePage();
    expect(await within(card).findByText('No payment requests yet')).toBeInTheDocument();
  });

  it('pages ten at a time', async () => {
    const user = userEvent.setup();
    const { calls } = mockPaymentRequestsApi({
      rows: (q) => (q.get('page') === '2' ? [buildPaymentRequest({ request_id: 1, status: 'expired', status_text: 'No answer from M-Pesa' })] : [paid({ request_id: 20 })]),
      total: 11,
    });
    const card = await openDevicePage();
    expect(await within(card).findByText('Showing 1 to 10 of 11 requests')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Page 2' }));
    expect(await within(card).findByText('No answer from M-Pesa')).toBeInTheDocument();
    expect(listCalls(calls)).toContain('/payg/payment-requests?page=2&limit=10&serial_number=SHS-0001');
  });

  it('offers Retry when the list cannot be read', async () => {
    const user = userEvent.setup();
    let fail = true;
    mockPaymentRequestsApi({
      extra: (c) => (c.url.startsWith('/payg/payment-requests?') && fail ? jsonResponse(500, { message: 'Database unavailable' }) : undefined),
    });
    const card = await openDevicePage();
    expect(await within(card).findByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(within(card).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(card).getByText('No payment requests yet')).toBeInTheDocument());
  });
});
