import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNTS } from '@/features/tickets/testing/mock-tickets-api';
import { seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const CUSTOMER = {
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
    payment_template: null,
    payment_summary: { total_paid: '0.00', free_code_price: null, remaining_balance: null, payment_progress: 0, is_fully_paid: false },
    payment_history: [],
  },
};
const LINK = { created_at: '2026-12-05T08:00:00Z', created_by: 'amina', expires_at: '2027-01-04T08:00:00Z', expired: false, last_viewed_at: null, views: 0 };

function api(handler: (c: RecordedCall) => Response | undefined) {
  return mockFetch((c) => {
    const hit = handler(c);
    if (hit) return hit;
    if (c.url.includes('payment-details')) return jsonResponse(200, CUSTOMER);
    if (c.url.startsWith('/payg/tickets?')) return jsonResponse(200, { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 10 }, counts: COUNTS } });
    return jsonResponse(200, { data: [] });
  });
}

describe("Customer's Page (the link to the customer's own page)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('makes a link, shows it once, sends it by SMS, and stops it', async () => {
    let link: typeof LINK | null = null;
    const { calls } = api((c) => {
      if (c.url !== '/payg/customers/11/portal-link' && c.url !== '/payg/customers/11/sms') return undefined;
      if (c.method === 'GET') return jsonResponse(200, { link });
      if (c.method === 'POST' && c.url.endsWith('/sms')) return jsonResponse(200, { message: 'SMS queued to 0712345678', message_id: 5 });
      if (c.method === 'POST') {
        link = LINK;
        return jsonResponse(201, { message: 'Link made: it works for 30 days', token: 'tok_abc', url: 'https://payg.example.test/my/tok_abc', link });
      }
      link = null;
      return jsonResponse(200, { message: 'Link stopped: it no longer opens the page' });
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    await userEvent.click(await screen.findByRole('button', { name: "Customer's Page" }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: "Customer's Page" });
    expect(await within(dialog).findByText('Amina Wanjiru has no link yet.')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Make Link' }));
    expect(await within(dialog).findByTestId('portal-url')).toHaveTextContent('https://payg.example.test/my/tok_abc');
    expect(within(dialog).getByLabelText('Current link')).toHaveTextContent('Made by amina');
    expect(within(dialog).getByLabelText('Current link')).toHaveTextContent('Not opened yet.');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send by SMS' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/payg/customers/11/sms')).toBe(true));
    const sms = JSON.parse(calls.find((c) => c.url === '/payg/customers/11/sms')!.body!);
    expect(sms).toEqual({ text: 'Hello Amina, see your device\'s credit, what is left to pay and your codes here: https://payg.example.test/my/tok_abc (works for 30 days)' });
    expect(await within(dialog).findByRole('button', { name: 'Sent' })).toBeDisabled();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop Link' }));
    expect(await screen.findByText('Link stopped: it no longer opens the page')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/payg/customers/11/portal-link')).toBe(true);
    expect(await within(dialog).findByText('Amina Wanjiru has no link yet.')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('portal-url')).not.toBeInTheDocument();
  });

  it('says when a link expired and how often it was opened; without PUBLIC_URL the link is this app\'s address', async () => {
    api((c) => {
      if (c.url !== '/payg/customers/11/portal-link') return undefined;
      if (c.method === 'GET') return jsonResponse(200, { link: { ...LINK, expired: true, views: 3, last_viewed_at: '2026-12-20T10:00:00Z' } });
      return jsonResponse(201, { message: 'Link made', token: 'tok_xyz', url: null, link: LINK });
    });
    seedSession();
    renderApp('/customer-payment-details/11');
    await userEvent.click(await screen.findByRole('button', { name: "Customer's Page" }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: "Customer's Page" });
    const current = await within(dialog).findByLabelText('Current link');
    expect(current).toHaveTextContent('expired');
    expect(current).toHaveTextContent('Opened 3 times');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make New Link' }));
    expect(await within(dialog).findByTestId('portal-url')).toHaveTextContent(`${window.location.origin}/my/tok_xyz`);
  });
});
