import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerDeviceStatus } from '@kidogo/contracts';
import { seedSession } from '@/testing/factories';
import { captureDownloads } from '@/testing/downloads';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const device = (serial: string, plan: boolean): CustomerDeviceStatus => ({
  serial_number: serial,
  product_name: 'Solar Home System 50W',
  status: 'assigned',
  days_left: 3,
  credit_until: '2026-12-01T00:00:00Z',
  paid_off: false,
  total_paid: '1500.00',
  payoff_price: plan ? '18000.00' : null,
  remaining: plan ? '16500.00' : null,
  payment_plan: plan ? { template_id: 1, template_name: 'Solar Home 50W - Daily', daily_price: '50.00', currency: 'KES', own: false } : null,
  repayment: plan
    ? { expected_by_today: '1500.00', paid_towards: '1500.00', repaid_share: 100, standing: 'on_track' }
    : { expected_by_today: null, paid_towards: null, repaid_share: null, standing: null },
});

function openCustomer(devices: CustomerDeviceStatus[], agreement: () => Response = () => new Response('%PDF-1.4', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="agreement-SHS-1001.pdf"' } })) {
  const api = mockFetch((call) => {
    if (call.url === '/payg/customers/11/payment-details') {
      return jsonResponse(200, {
        data: {
          customer_info: { customer_id: 11, customer_name: 'Amina Wanjiru', phone_contact: '0712345601', email: null, status: 'active', sms_opted_out_at: null, sms_opt_out_source: null, device_serial: devices[0]?.serial_number ?? null, product_name: null, product_oem: null },
          payment_template: null,
          payment_summary: { total_paid: '1500.00', free_code_price: '18000.00', remaining_balance: '16500.00', payment_progress: 8.33, is_fully_paid: false, payment_count: 1 },
          payment_history: [],
          devices,
        },
      });
    }
    if (call.url.startsWith('/payg/devices/SHS-1001/agreement')) return agreement();
    return jsonResponse(200, { data: [] });
  });
  seedSession();
  renderApp('/customer-payment-details/11');
  return api;
}

describe('the agreement to print', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("downloads a device's agreement from the customer's page, in the language chosen", async () => {
    const names = captureDownloads();
    const { calls } = openCustomer([device('SHS-1001', true), device('LMP-2001', false)]);
    const devices = await screen.findByRole('region', { name: 'Devices' });
    // Only a device on a plan with a price has an agreement.
    await userEvent.click(await within(devices).findByRole('button', { name: 'Agreement for SHS-1001' }));
    expect(within(devices).queryByRole('button', { name: 'Agreement for LMP-2001' })).toBeNull();
    expect(await screen.findByText('PAYG agreement to print and sign (PDF)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'In Kiswahili' }));
    await waitFor(() => expect(names).toEqual(['agreement-SHS-1001.pdf']));
    expect(calls.filter((c) => c.url.startsWith('/payg/devices/')).map((c) => c.url)).toEqual(['/payg/devices/SHS-1001/agreement?language=sw']);
    expect(await screen.findByText('Downloaded agreement-SHS-1001.pdf')).toBeInTheDocument();
    // And in French.
    await userEvent.click(within(devices).getByRole('button', { name: 'Agreement for SHS-1001' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'In French' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/devices/SHS-1001/agreement?language=fr')).toHaveLength(1));
  });

  it('says why one could not be made', async () => {
    captureDownloads();
    const refusal = 'Device SHS-1001 has no payment plan: put its customer or the device on a plan first';
    openCustomer([device('SHS-1001', true)], () => jsonResponse(409, { detail: refusal, message: refusal }));
    const devices = await screen.findByRole('region', { name: 'Devices' });
    await userEvent.click(await within(devices).findByRole('button', { name: 'Agreement for SHS-1001' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: "In the customer's language" }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });
});
