import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildDevice, buildOutcome, mockRecordPaymentApi, readsOf } from '../testing/mock-record-payment-api';

const posted = (calls: { url: string; method: string; body: string | null }[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/payments').map((c) => JSON.parse(c.body!));

async function openFromDeviceActivity(serial = 'SHS-0001') {
  const user = userEvent.setup();
  seedSession();
  renderApp(`/device-activity/${serial}`);
  await screen.findByRole('region', { name: 'Device Information' });
  await user.click(screen.getByRole('button', { name: 'Record Payment' }));
  const dialog = await screen.findByRole('dialog', { name: 'Record Payment' });
  return { user, dialog };
}

describe('Record Payment', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("refuses what the contract refuses, in the form's words, and sends nothing", async () => {
    const { calls } = mockRecordPaymentApi();
    const { user, dialog } = await openFromDeviceActivity();
    expect(within(dialog).getByRole('textbox', { name: 'Device' })).toHaveValue('SHS-0001');
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    const submit = within(dialog).getByRole('button', { name: 'Record Payment' });

    await user.click(submit);
    expect(await within(dialog).findByText('Amount is required')).toBeInTheDocument();

    await user.type(amount, '0');
    await user.click(submit);
    expect(await within(dialog).findByText('Amount must be at least 0.01')).toBeInTheDocument();

    await user.clear(amount);
    await user.type(amount, '500');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reference' }), 'R'.repeat(65));
    await user.click(submit);
    expect(await within(dialog).findByText('Reference must be at most 64 characters')).toBeInTheDocument();
    expect(within(dialog).queryByText(/^Amount /)).not.toBeInTheDocument();
    expect(posted(calls)).toEqual([]);
  });

  it('records a payment for the page\'s device, shows the token, days, credit and balance, and refreshes the page', async () => {
    const { calls } = mockRecordPaymentApi();
    const { user, dialog } = await openFromDeviceActivity();
    const readsBefore = readsOf(calls, '/payg/devices/SHS-0001/activity');

    await user.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '1500');
    await user.click(within(dialog).getByRole('radio', { name: 'Mobile money' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reference' }), '  RCPT-1 ');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));

    const result = await screen.findByRole('dialog', { name: 'Payment Recorded' });
    expect(posted(calls)).toEqual([{ serial_number: 'SHS-0001', amount: 1500, payment_method: 'mobile_money', reference: 'RCPT-1' }]);
    expect(within(result).getByText(/KES 1,500\.00 \(Mobile money\) applied to SHS-0001, payment #77/)).toBeInTheDocument();
    const token = within(result).getByRole('group', { name: 'Token' });
    expect(within(token).getByTestId('payment-token')).toHaveTextContent('123 456 789');
    expect(within(token).getByText('Activation · 17 days')).toBeInTheDocument();
    expect(within(token).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(within(result).getByRole('group', { name: 'Days' })).toHaveTextContent('17');
    expect(within(result).getByRole('group', { name: 'Credit' })).toHaveTextContent('KES 20.00');
    expect(within(result).getByRole('group', { name: 'Remaining Balance' })).toHaveTextContent('KES 10,500.00');
    expect(within(result).getByText(/Token: 123 456 789 \(17 days\)/)).toBeInTheDocument();
    // The payment is on the device now: its activity is read again behind the modal.
    await waitFor(() => expect(readsOf(calls, '/payg/devices/SHS-0001/activity')).toBeGreaterThan(readsBefore));

    await user.click(within(result).getByRole('button', { name: 'Record another' }));
    const again = await screen.findByRole('dialog', { name: 'Record Payment' });
    expect(within(again).getByRole('textbox', { name: 'Amount' })).toHaveValue('');
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('records cash as collected by another user (a field agent whose receipt a clerk enters), and asks it of cash only', async () => {
    const { calls } = mockRecordPaymentApi({
      handler: (_call, path) =>
        path === '/payg/cash/collectors'
          ? jsonResponse(200, { data: [{ username: 'amina', role: 'owner' }, { username: 'baraka', role: 'staff' }, { username: 'chebet', role: 'staff' }] })
          : undefined,
    });
    const { user, dialog } = await openFromDeviceActivity();
    // Cash by default: the one who records it holds it, unless another is chosen.
    const collector = within(dialog).getByLabelText<HTMLInputElement>('Collected By', { selector: 'input' });
    await waitFor(() => expect(collector.value).toMatch(/^Me \(/));
    await user.click(collector);
    // The signed-in amina is Me, first; then the others.
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Me (amina)', 'baraka', 'chebet']);
    await user.click(screen.getByRole('option', { name: 'baraka' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '300');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    await screen.findByRole('dialog', { name: 'Payment Recorded' });
    expect(posted(calls)).toEqual([{ serial_number: 'SHS-0001', amount: 300, payment_method: 'cash', collected_by: 'baraka' }]);
  });

  it('asks no collector of a payment by bank or mobile money', async () => {
    const { calls } = mockRecordPaymentApi();
    const { user, dialog } = await openFromDeviceActivity();
    expect(within(dialog).getByLabelText('Collected By', { selector: 'input' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Bank' }));
    expect(within(dialog).queryByLabelText('Collected By', { selector: 'input' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '300');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    await screen.findByRole('dialog', { name: 'Payment Recorded' });
    expect(posted(calls)).toEqual([{ serial_number: 'SHS-0001', amount: 300, payment_method: 'bank' }]);
  });

  it("chooses among the customer's devices on Customer Payment Details, starting with the page's device", async () => {
    const devices = [
      buildDevice({ item_id: 3, serial_number: 'LMP-0009', product_name: 'Lamp Lite' }),
      buildDevice({ item_id: 2, serial_number: 'OLD-0001', product_name: 'Old Lamp', status: 'retired' }),
      buildDevice({ item_id: 1, serial_number: 'SHS-0001' }),
    ];
    const { calls } = mockRecordPaymentApi({ devices, outcome: buildOutcome({ serial_number: 'LMP-0009' }) });
    const user = userEvent.setup();
    seedSession();
    renderApp('/customer-payment-details/11');
    await screen.findByRole('region', { name: 'Customer Information' });
    const readsBefore = readsOf(calls, '/payg/customers/11/payment-details');
    await user.click(screen.getByRole('button', { name: 'Record Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payment' });
    const device = await within(dialog).findByRole('combobox', { name: 'Device' });
    expect(device).toHaveValue('SHS-0001 · Solar Home 50W');

    await user.click(device);
    // A retired device takes no payments (the API answers 409): it is listed but cannot be chosen.
    expect(await screen.findByRole('option', { name: 'OLD-0001 · Old Lamp (retired)' })).toHaveAttribute('data-combobox-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'LMP-0009 · Lamp Lite' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '250.5');
    await user.click(within(dialog).getByRole('radio', { name: 'Bank' }));
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));

    await screen.findByRole('dialog', { name: 'Payment Recorded' });
    expect(posted(calls)).toEqual([{ serial_number: 'LMP-0009', amount: 250.5, payment_method: 'bank' }]);
    await waitFor(() => expect(readsOf(calls, '/payg/customers/11/payment-details')).toBeGreaterThan(readsBefore));
  });

  it('puts a 400 under its field, and shows a 409 in the red box with the form kept', async () => {
    let reply = jsonResponse(400, { detail: 'amount: must be at most 100000000', message: 'amount: must be at most 100000000', errors: [{ field: 'amount', message: 'must be at most 100000000' }] });
    const { calls } = mockRecordPaymentApi({ handler: (c, path) => (path === '/payg/payments' && c.method === 'POST' ? reply : undefined) });
    const { user, dialog } = await openFromDeviceActivity();
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    expect(await within(dialog).findByText('Amount must be at most 100000000')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    const unassigned = 'Device SHS-0001 is not assigned to a customer: assign it before applying a payment to it';
    reply = jsonResponse(409, { detail: unassigned, message: unassigned });
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to record payment');
    expect(alert).toHaveTextContent(unassigned);
    expect(within(dialog).getByRole('textbox', { name: 'Amount' })).toHaveValue('100');
    expect(posted(calls)).toHaveLength(2);
  });

  it('says when a reference was recorded before, and why a payment bought no token', async () => {
    let outcome = buildOutcome({ status: 'duplicate' });
    mockRecordPaymentApi({ handler: (c, path) => (path === '/payg/payments' && c.method === 'POST' ? jsonResponse(200, outcome) : undefined) });
    const { user, dialog } = await openFromDeviceActivity();
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '1500');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reference' }), 'RCPT-1');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    const duplicate = await screen.findByRole('dialog', { name: 'Payment Already Recorded' });
    expect(within(duplicate).getByText(/Reference RCPT-1 was recorded before/)).toBeInTheDocument();
    expect(within(duplicate).getByTestId('payment-token')).toHaveTextContent('123 456 789');

    outcome = buildOutcome({ token: undefined, tokens: [], days: 0, reason: 'below_activation', credit: '1200.00' });
    await user.click(within(duplicate).getByRole('button', { name: 'Record another' }));
    const form = await screen.findByRole('dialog', { name: 'Record Payment' });
    await user.type(within(form).getByRole('textbox', { name: 'Amount' }), '1200');
    await user.click(within(form).getByRole('button', { name: 'Record Payment' }));
    const none = await screen.findByRole('dialog', { name: 'Payment Recorded' });
    expect(within(none).getByText('No token issued')).toBeInTheDocument();
    expect(within(none).getByText(/Not enough yet to activate the device/)).toBeInTheDocument();
    expect(within(none).getByRole('group', { name: 'Credit' })).toHaveTextContent('KES 1,200.00');
  });
});
