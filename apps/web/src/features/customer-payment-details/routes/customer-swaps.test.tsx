import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceSwapKeys } from '@/features/device-swaps/api/keys';
import type { DeviceSwap } from '@/features/device-swaps/api/types';
import { buildDeviceSwap, swapListCalls, swapsReply } from '@/features/device-swaps/testing/mock-device-swaps-api';
import { COUNTS } from '@/features/tickets/testing/mock-tickets-api';
import { seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

/** Amina Wanjiru (customer 11), with SHS-0042 now. */
const details = {
  data: {
    customer_info: {
      customer_id: 11,
      customer_name: 'Amina Wanjiru',
      phone_contact: '0712345678',
      email: null,
      sms_opted_out_at: null,
      sms_opt_out_source: null,
      device_serial: 'SHS-0042',
      product_name: 'Solar Home 50W',
      product_oem: 'SunKing',
    },
    payment_template: null,
    payment_summary: { total_paid: '2400.00', free_code_price: '20000.00', remaining_balance: '17600.00', payment_progress: 12, is_fully_paid: false },
    payment_history: [],
  },
};

/** The customer's page: GET /device-swaps answers `swaps`, their tickets none, the rest empty. */
function mockCustomerPage(swaps: DeviceSwap[]) {
  return mockFetch((c) => {
    if (c.url === '/payg/customers/11/payment-details') return jsonResponse(200, details);
    if (c.url.startsWith('/payg/device-swaps?')) return swapsReply(c, swaps);
    if (c.url.startsWith('/payg/tickets?')) return jsonResponse(200, { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 10 }, counts: COUNTS } });
    return jsonResponse(200, { data: [] });
  });
}

async function openCustomerPage() {
  seedSession();
  const view = renderApp('/customer-payment-details/11');
  await screen.findByRole('region', { name: 'Customer Information' }, { timeout: 5000 });
  return view;
}

describe('Customer Payment Details: Device Swaps', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the customer's swaps with both devices linked, without a customer column", async () => {
    const { calls } = mockCustomerPage([buildDeviceSwap()]);
    await openCustomerPage();
    const card = await screen.findByRole('region', { name: 'Device Swaps' });
    expect(swapListCalls(calls)).toEqual(['/payg/device-swaps?page=1&limit=10&customer_id=11']);
    expect(within(card).getByText(/^1 swap:/)).toBeInTheDocument();
    const table = within(card).getByRole('table', { name: 'Device Swaps' });
    const [head, row] = within(table).getAllByRole('row');
    expect(within(head!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Date', 'Old → New', 'Days Moved', 'Paid Off', 'Warranty', 'By', 'Reason']);
    expect(within(row!).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(within(row!).getByRole('link', { name: 'SHS-0042' })).toHaveAttribute('href', '/device-activity/SHS-0042');
    expect(row).toHaveTextContent(/13 days.*No.*amina.*Battery fails after an hour/);
  });

  it('has no Device Swaps card for a customer whose device was never swapped', async () => {
    const { calls } = mockCustomerPage([]);
    const { queryClient } = await openCustomerPage();
    await waitFor(() => expect(queryClient.getQueriesData({ queryKey: deviceSwapKeys.lists() }).some(([, data]) => data !== undefined)).toBe(true));
    expect(swapListCalls(calls)).toEqual(['/payg/device-swaps?page=1&limit=10&customer_id=11']);
    expect(screen.queryByRole('region', { name: 'Device Swaps' })).not.toBeInTheDocument();
  });
});
