import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalView } from '@kidogo/contracts';
import { seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

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
