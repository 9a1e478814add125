import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { MessageRow, Payment } from '../api/types';

const row = (overrides: Partial<MessageRow> = {}): MessageRow => ({
  id: 1,
  Incoming: 'QK12AB34CD Confirmed. Ksh500.00 received from JOHN DOE 0712345678. Account SHS-0001',
  Outgoing: 'Payment of KES 500.00 received for SHS-0001. Token: 123 456 789',
  'Phone No.': '+254712345678',
  sender: 'MPESA',
  recipient_number: '+254712345678',
  amount: '500.00',
  date: '2026-11-20T09:30:00Z',
  status: 'processed',
  delivery_status: 'sent',
  payment_id: 9,
  transaction_code: 'QK12AB34CD',
  ...overrides,
});

function mockMessagesApi(rows: MessageRow[], extra: (c: RecordedCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.url.startsWith('/payg/fetch_messages'))
      return jsonResponse(200, {
        data: rows,
        total_pages: 1,
        current_page: 1,
        page_size: 20,
        total_items: rows.length,
        has_next: false,
        has_previous: false,
      });
    if (call.url.startsWith('/payg/messages/stats'))
      return jsonResponse(200, { today: 2, this_week: 5, processed: 4, duplicate: 0, unmatched: 1, unparsed: 0, amount_received: '2500.00', outbox: { queued: 0, sent: 4, failed: 0 } });
    if (call.url === '/payg/items/search')
      return jsonResponse(200, { data: [{ serial_number: 'SHS-0002', product_name: 'Lamp', manufacturer: null, customer_name: 'Amina', is_assigned: true }] });
    return jsonResponse(200, { data: [] });
  });
}

describe('Message History', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the columns, the processing and delivery status, and asks for page size 20', async () => {
    const { calls } = mockMessagesApi([row()]);
    seedSession();
    renderApp('/messages');
    expect(await screen.findByText(/QK12AB34CD Confirmed/, {}, { timeout: 5000 })).toBeInTheDocument();
    for (const h of ['Incoming', 'Outgoing', 'Recipient Number', 'Amount', 'Date']) {
      expect(within(screen.getByRole('table', { name: 'Messages' })).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(screen.getByRole('table', { name: 'Messages' })).getByText('Processed')).toBeInTheDocument();
    expect(screen.getByText('SMS Sent')).toBeInTheDocument();
    expect(calls.find((c) => c.url.startsWith('/payg/fetch_messages'))?.url).toBe('/payg/fetch_messages?page=1&page_size=20');
    expect(within(screen.getByRole('group', { name: 'Unmatched' })).getByText('1')).toBeInTheDocument();
  });

  it('marks a payment reminder, which answers no message and no payment', async () => {
    mockMessagesApi([
      row(),
      row({ id: 4, Incoming: null, Outgoing: 'Kidogo: Hi Grace, the credit on device SHS-0001 runs out tomorrow.', sender: null, amount: null, status: 'processed', delivery_status: 'queued', payment_id: null, transaction_code: null }),
    ]);
    seedSession();
    renderApp('/messages');
    const table = await screen.findByRole('table', { name: 'Messages' }, { timeout: 5000 });
    const marker = await within(table).findByText('Payment reminder');
    expect(marker.closest('tr')).toHaveTextContent('runs out tomorrow');
    expect(within(table).getAllByText('Payment reminder')).toHaveLength(1);
    expect(screen.getByText('4 SMS sent · 0 queued')).toBeInTheDocument();
  });

  it('names who wrote an SMS to a customer, which is not a reminder', async () => {
    mockMessagesApi([
      row({ id: 5, Incoming: null, Outgoing: 'Habari Grace, we called about your lamp.', sender: null, amount: null, status: 'processed', delivery_status: 'queued', payment_id: null, transaction_code: null, sent_by: 'otieno' }),
    ]);
    seedSession();
    renderApp('/messages');
    const table = await screen.findByRole('table', { name: 'Messages' }, { timeout: 5000 });
    const marker = await within(table).findByText('SMS from otieno');
    expect(marker.closest('tr')).toHaveTextContent('we called about your lamp');
    expect(within(table).queryByText('Payment reminder')).not.toBeInTheDocument();
  });

  it('shows a dash, not the sender, as the recipient of a message nobody was answered for, and the sender under the text', async () => {
    mockMessagesApi([
      row(),
      row({ id: 2, Outgoing: null, 'Phone No.': 'MPESA', recipient_number: null, amount: '750.00', status: 'unmatched', delivery_status: 'none', payment_id: 10 }),
      row({ id: 3, Incoming: 'Hello', Outgoing: null, 'Phone No.': '+254733000111', sender: '+254733000111', recipient_number: null, amount: null, status: 'unparsed', delivery_status: 'none', payment_id: null }),
    ]);
    seedSession();
    renderApp('/messages');
    const table = await screen.findByRole('table', { name: 'Messages' }, { timeout: 5000 });
    await within(table).findByText('+254712345678');
    expect(within(table).queryByText('MPESA')).not.toBeInTheDocument();
    const recipients = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[2]!.textContent);
    expect(recipients).toEqual(['+254712345678', '—', '—']);
    const senders = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
    expect(senders.map((t) => t!.replace(/^.*(From .*)$/, '$1'))).toEqual(['From MPESA', 'From MPESA', 'From +254733000111']);
  });

  it("shows a rejected message as Rejected with the reason, and offers no Match", async () => {
    mockMessagesApi([row({ id: 5, Outgoing: null, recipient_number: null, status: 'rejected', delivery_status: 'none', payment_id: 12, note: 'Rejected by demo: Refunded' })]);
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    const table = await screen.findByRole('table', { name: 'Messages' }, { timeout: 5000 });
    expect(await within(table).findByText('Rejected')).toBeInTheDocument();
    expect(within(table).getByText('Rejected by demo: Refunded')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Match' })).not.toBeInTheDocument();
  });

  it('says what the Processed figure counts: incoming messages processed, over all time', async () => {
    mockMessagesApi([row()]);
    seedSession();
    renderApp('/messages');
    const card = await screen.findByRole('group', { name: 'Incoming Processed' }, { timeout: 5000 });
    await waitFor(() => expect(card).toHaveTextContent(/^Incoming Processed4All time$/));
  });

  it("says 'Messages will appear here when they are received' when there are none, and the search hint when searching", async () => {
    const user = userEvent.setup();
    const { calls } = mockMessagesApi([]);
    seedSession();
    renderApp('/messages');
    expect(await screen.findByText('No messages found', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Messages will appear here when they are received')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search messages' }), 'QK12');
    expect(await screen.findByText('Try adjusting your search terms', {}, { timeout: 8000 })).toBeInTheDocument();
    // The hint follows the typed text; the search itself is sent after the 500 ms debounce.
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/payg/fetch_messages?page=1&page_size=20&search=QK12'), { timeout: 5000 });
  });

  it("shows the server's message, else 'Failed to fetch messages'", async () => {
    mockMessagesApi([], (c) => (c.url.startsWith('/payg/fetch_messages') ? jsonResponse(502, 'Bad gateway') : undefined));
    seedSession();
    renderApp('/messages');
    expect(await screen.findByText('HTTP error! status: 502', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('lets an owner match an unmatched payment to a device', async () => {
    const user = userEvent.setup();
    const { calls } = mockMessagesApi([row({ status: 'unmatched', Outgoing: null, delivery_status: 'none' })], (c) =>
      c.url === '/payg/payments/9/match' ? jsonResponse(200, { status: 'processed', payment_id: 9, token: '123456789', days: 10 }) : undefined,
    );
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    await user.click(await screen.findByRole('button', { name: 'Match' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Match Payment to a Device' });
    await user.click(within(dialog).getByRole('button', { name: 'Match Payment' }));
    expect(within(dialog).getByText('Please select the device this payment is for.')).toBeInTheDocument();
    await user.click(await within(dialog).findByRole('radio', { name: 'SHS-0002' }));
    await user.click(within(dialog).getByRole('button', { name: 'Match Payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(JSON.parse(calls.find((c) => c.url === '/payg/payments/9/match')!.body!)).toEqual({ serial_number: 'SHS-0002' });
    expect(await screen.findByText('Payment matched to SHS-0002. Token 123456789 (10 days).')).toBeInTheDocument();
  });

  it('says why a payment is held or a message was not read', async () => {
    const held = 'Sent from the phone number 0712345678, not by a mobile-money service: held until staff match it';
    mockMessagesApi([row({ status: 'unmatched', note: held }), row({ id: 2, status: 'unparsed', payment_id: null, note: 'No amount found' })]);
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    expect(await screen.findByText(held, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('No amount found')).toBeInTheDocument();
  });

  it('offers no Match to staff', async () => {
    mockMessagesApi([row({ status: 'unmatched' })]);
    seedSession({ user: buildUser({ role: 'staff' }) });
    renderApp('/messages');
    await screen.findByText(/QK12AB34CD Confirmed/, {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Match' })).not.toBeInTheDocument();
  });
});

const heldPayment = (overrides: Partial<Payment> = {}): Payment => ({
  payment_id: 41,
  amount: '1200.00',
  currency: 'UGX',
  status: 'pending',
  payment_method: 'bank',
  source: 'statement',
  customer_id: null,
  customer_name: null,
  serial_number: null,
  transaction_code: 'STMT-0041',
  account_reference: 'SHS-9999',
  payer_phone: '+256700000001',
  payer_name: 'GRACE N',
  days_bought: 0,
  credit_after: null,
  recorded_by: null,
  hold_reason: 'No single device matches the account reference SHS-9999',
  paid_at: '2026-11-21T08:00:00Z',
  created_at: '2026-11-21T08:05:00Z',
  ...overrides,
});

const HELD_URL = '/payg/payments?status=pending&limit=10&offset=0';

function mockHeldApi(held: Payment[], extra: (c: RecordedCall) => Response | undefined = () => undefined) {
  return mockMessagesApi([], (c) => {
    const hit = extra(c);
    if (hit) return hit;
    if (c.url === HELD_URL) return jsonResponse(200, { data: held, pagination: { total: held.length, total_pages: 1, limit: 10, offset: 0 } });
    return undefined;
  });
}

describe('Held Payments', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the pending payments with their amount, currency, code, payer and why each was held', async () => {
    const { calls } = mockHeldApi([
      heldPayment(),
      heldPayment({ payment_id: 42, transaction_code: 'QK99', payer_name: null, payer_phone: '0712345678', amount: '500.00', currency: 'KES', hold_reason: null }),
    ]);
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    const table = await screen.findByRole('table', { name: 'Held Payments' }, { timeout: 5000 });
    await within(table).findByText('STMT-0041');
    for (const h of ['Paid At', 'Amount', 'Transaction Code', 'Payer', 'Why Held', 'Action']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(table).getByText('No single device matches the account reference SHS-9999')).toBeInTheDocument();
    expect(within(table).getByText(/UGX\s*1,200\.00/)).toBeInTheDocument();
    expect(within(table).getByText('GRACE N · +256700000001')).toBeInTheDocument();
    expect(within(table).getByText('0712345678')).toBeInTheDocument();
    expect(within(table).getAllByRole('button', { name: /^Match / })).toHaveLength(2);
    expect(calls.map((c) => c.url)).toContain(HELD_URL);
  });

  it("says 'No payments are waiting to be matched.' when none are held, and offers staff no Match", async () => {
    mockHeldApi([]);
    seedSession({ user: buildUser({ role: 'staff' }) });
    renderApp('/messages');
    expect(await screen.findByText('No payments are waiting to be matched.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Held Payments' })).queryByRole('columnheader', { name: 'Action' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Reject / })).not.toBeInTheDocument();
  });

  it('matches a held payment to a device, then reads the held payments and the messages again', async () => {
    const user = userEvent.setup();
    const { calls } = mockHeldApi([heldPayment()], (c) =>
      c.url === '/payg/payments/41/match' ? jsonResponse(200, { status: 'processed', payment_id: 41, token: '987654321', days: 3 }) : undefined,
    );
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    await user.click(await screen.findByRole('button', { name: 'Match STMT-0041' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Match Payment to a Device' });
    expect(within(dialog).getByText(/UGX\s*1,200\.00 · STMT-0041 · from GRACE N · \+256700000001/)).toBeInTheDocument();
    const heldReads = calls.filter((c) => c.url === HELD_URL).length;
    const messageReads = calls.filter((c) => c.url.startsWith('/payg/fetch_messages')).length;
    await user.click(await within(dialog).findByRole('radio', { name: 'SHS-0002' }));
    await user.click(within(dialog).getByRole('button', { name: 'Match Payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = calls.find((c) => c.url === '/payg/payments/41/match')!;
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body!)).toEqual({ serial_number: 'SHS-0002' });
    expect(await screen.findByText('Payment matched to SHS-0002. Token 987654321 (3 days).')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.url === HELD_URL).length).toBeGreaterThan(heldReads));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/fetch_messages')).length).toBeGreaterThan(messageReads));
  });

  it('rejects a held payment with a reason, then reads the held payments and the messages again', async () => {
    const user = userEvent.setup();
    const { calls } = mockHeldApi([heldPayment()], (c) =>
      c.url === '/payg/payments/41/reject'
        ? jsonResponse(200, { message: 'Payment rejected', payment_id: 41, status: 'failed', hold_reason: 'Rejected by demo: Refunded' })
        : undefined,
    );
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    await user.click(await screen.findByRole('button', { name: 'Reject STMT-0041' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Payment' });
    expect(within(dialog).getByText(/UGX\s*1,200\.00 · STMT-0041 · from GRACE N · \+256700000001/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reject Payment' }));
    expect(await within(dialog).findByText('Say why this payment is rejected')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/payg/payments/41/reject')).toBe(false);
    const heldReads = calls.filter((c) => c.url === HELD_URL).length;
    const messageReads = calls.filter((c) => c.url.startsWith('/payg/fetch_messages')).length;
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), '  Refunded to the sender ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject Payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(JSON.parse(calls.find((c) => c.url === '/payg/payments/41/reject')!.body!)).toEqual({ reason: 'Refunded to the sender' });
    expect(await screen.findByText('Payment STMT-0041 rejected.')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.url === HELD_URL).length).toBeGreaterThan(heldReads));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/payg/fetch_messages')).length).toBeGreaterThan(messageReads));
  });

  it("shows the server's 409 in the dialog and keeps it open", async () => {
    const user = userEvent.setup();
    const refusal = 'The payment is in UGX but the device is priced in KES';
    mockHeldApi([heldPayment()], (c) => (c.url === '/payg/payments/41/match' ? jsonResponse(409, { detail: refusal, message: refusal }) : undefined));
    seedSession({ user: buildUser({ role: 'owner' }) });
    renderApp('/messages');
    await user.click(await screen.findByRole('button', { name: 'Match STMT-0041' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Match Payment to a Device' });
    await user.click(await within(dialog).findByRole('radio', { name: 'SHS-0002' }));
    await user.click(within(dialog).getByRole('button', { name: 'Match Payment' }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Match Payment to a Device' })).toBeInTheDocument();
  });
});
