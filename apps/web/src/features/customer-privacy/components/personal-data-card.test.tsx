import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERASED_CUSTOMER_NAME, type Customer, type EraseCustomerReply } from '@kidogo/contracts';
import { buildCustomer, seedSession } from '@/testing/factories';
import { captureDownloads } from '@/testing/downloads';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const NAME = 'Grace Wanjiku';

const buildGrace = (overrides: Partial<Customer> = {}): Customer => buildCustomer({ customer_id: 11, customer_name: NAME, county: null, ...overrides });

const ERASED = buildGrace({ customer_name: ERASED_CUSTOMER_NAME, id_number: '', phone_contact: '', status: 'erased', updated_at: '2026-11-25T10:00:00Z' });

const details = (customer: Customer) => ({
  data: {
    customer_info: {
      customer_id: customer.customer_id,
      customer_name: customer.customer_name,
      phone_contact: customer.phone_contact,
      email: null,
      status: customer.status,
      sms_opted_out_at: null,
      sms_opt_out_source: null,
      device_serial: null,
      product_name: null,
      product_oem: null,
    },
    payment_template: null,
    payment_summary: { total_paid: '12000.00', free_code_price: '12000.00', remaining_balance: '0.00', payment_progress: 100, is_fully_paid: true, payment_count: 3 },
    payment_history: [],
    devices: [],
  },
});

const eraseReply: EraseCustomerReply = {
  message: "Grace Wanjiku's personal data was erased",
  customer: ERASED,
  erased: { payments: 3, tokens: 2, messages: 4, collection_contacts: 0, service_tickets: 0, payment_requests: 0, payment_plans: 1, activity_entries: 6, webhook_deliveries: 0, documents: 2, ussd_sessions: 0 },
};

/** The customer's page over an API in memory: `erase` answers POST /erase, and once it succeeds the customer reads back erased. */
async function openPage({ customer = buildGrace(), erase }: { customer?: Customer; erase?: (call: RecordedCall) => Response } = {}) {
  let current = customer;
  const api = mockFetch((call) => {
    if (call.url === '/payg/customers/11/payment-details') return jsonResponse(200, details(current));
    if (call.url === '/payg/customers/11' && call.method === 'GET') return jsonResponse(200, current);
    if (call.url === '/payg/customers/11/personal-data?format=zip') {
      return new Response(new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...Array.from({ length: 18 }, () => 0)]), {
        status: 200,
        headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="customer-11-personal-data.zip"' },
      });
    }
    if (call.url === '/payg/customers/11/erase' && call.method === 'POST') {
      const res = erase?.(call) ?? jsonResponse(200, eraseReply);
      if (res.ok) current = ERASED;
      return res;
    }
    return jsonResponse(200, { data: [] });
  });
  seedSession();
  renderApp('/customer-payment-details/11');
  const card = await screen.findByRole('region', { name: 'Personal Data' }, { timeout: 5000 });
  const erasures = () => api.calls.filter((c) => c.url === '/payg/customers/11/erase');
  return { ...api, card, erasures };
}

async function openEraseDialog(card: HTMLElement) {
  await userEvent.click(within(card).getByRole('button', { name: 'Erase Personal Data' }));
  const dialog = await screen.findByRole('dialog', { name: 'Erase personal data?' });
  return {
    dialog,
    reason: within(dialog).getByRole('textbox', { name: 'Reason' }),
    name: within(dialog).getByRole('textbox', { name: "Type the customer's name to confirm" }),
    confirm: within(dialog).getByRole('button', { name: 'Erase Personal Data' }),
  };
}

describe('Personal Data card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('explains the rights and downloads everything held about the customer as one ZIP file', async () => {
    const names = captureDownloads();
    const { card, calls } = await openPage();
    expect(card).toHaveTextContent(
      'Under data-protection law a customer may ask for a copy of everything held about them, and, once they owe nothing, for it to be erased. Payments and codes stay in the books, without their name or phone. The copy is one ZIP file: the data, and the files of their documents.',
    );
    await userEvent.click(within(card).getByRole('button', { name: 'Download Personal Data' }));
    await waitFor(() => expect(names).toEqual(['customer-11-personal-data.zip']));
    const sent = calls.filter((c) => c.url.startsWith('/payg/customers/11/personal-data'));
    expect(sent.map((c) => c.url)).toEqual(['/payg/customers/11/personal-data?format=zip']);
    expect(sent[0]!.method).toBe('GET');
    expect(sent[0]!.headers.accept).toBe('application/zip');
    expect(await screen.findByText('Downloaded customer-11-personal-data.zip')).toBeInTheDocument();
  });

  it('says why a download failed', async () => {
    captureDownloads();
    const { card } = await openPage();
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(403, { detail: 'Only owners and admins may do this' })));
    await userEvent.click(within(card).getByRole('button', { name: 'Download Personal Data' }));
    expect(await screen.findByText('Only owners and admins may do this')).toBeInTheDocument();
  });

  it('says what erasing does, and keeps the button off until the name is typed', async () => {
    const { card, erasures } = await openPage();
    const { dialog, name, confirm } = await openEraseDialog(card);
    for (const said of [
      'their name, ID number, phone, email, address and the rest of their profile are removed;',
      'payer names and phone numbers are taken out of their payments;',
      'texts from and to them are blanked;',
      'activity log entries no longer name them.',
    ]) {
      expect(within(dialog).getByText(said)).toBeInTheDocument();
    }
    expect(dialog).toHaveTextContent('Their payments, codes and devices stay in the books, under “Erased customer”. This cannot be undone.');
    expect(confirm).toBeDisabled();
    await userEvent.type(name, 'Grace');
    expect(confirm).toBeDisabled();
    await userEvent.type(name, ' Wanjikuu');
    expect(confirm).toBeDisabled();
    await userEvent.clear(name);
    // Trimmed, in any case.
    await userEvent.type(name, '  grace WANJIKU ');
    expect(confirm).toBeEnabled();
    expect(erasures()).toHaveLength(0);
  });

  it('asks for a reason before sending anything', async () => {
    const { card, erasures } = await openPage();
    const { reason, name, confirm } = await openEraseDialog(card);
    await userEvent.type(name, NAME);
    await userEvent.click(confirm);
    expect(await screen.findByText('Reason must say why, in at least 3 characters')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(erasures()).toHaveLength(0);
  });

  it('erases with the reason, says so, and the page then shows the customer erased', async () => {
    const { card, erasures, calls } = await openPage();
    const { dialog, reason, name, confirm } = await openEraseDialog(card);
    const reads = calls.filter((c) => c.url === '/payg/customers/11/payment-details').length;
    await userEvent.type(reason, '  The customer asked in writing on 12 Nov ');
    await userEvent.type(name, NAME);
    await userEvent.click(confirm);

    expect(await screen.findByText("Grace Wanjiku's personal data was erased")).toBeInTheDocument();
    expect(erasures()).toHaveLength(1);
    expect(JSON.parse(erasures()[0]!.body!)).toEqual({ reason: 'The customer asked in writing on 12 Nov' });
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/customers/11/payment-details').length).toBeGreaterThan(reads));
    expect(await within(card).findByText('Personal data erased')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Erase Personal Data' })).not.toBeInTheDocument();
  });

  it("puts the server's 400 under Reason", async () => {
    const { card, erasures } = await openPage({
      erase: () =>
        jsonResponse(400, {
          detail: 'reason: must be at most 200 characters',
          message: 'reason: must be at most 200 characters',
          errors: [{ field: 'reason', message: 'must be at most 200 characters' }],
        }),
    });
    const { dialog, reason, name, confirm } = await openEraseDialog(card);
    await userEvent.type(reason, 'Asked by phone');
    await userEvent.type(name, NAME);
    await userEvent.click(confirm);
    expect(await within(dialog).findByText('Reason must be at most 200 characters')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(erasures()).toHaveLength(1);
    // Changing the reason clears it.
    await userEvent.type(reason, '.');
    expect(within(dialog).queryByText('Reason must be at most 200 characters')).not.toBeInTheDocument();
  });

  it('shows a refusal (409) in the dialog and keeps it open', async () => {
    const refusal = 'Grace Wanjiku still pays for device SHS-0042: take it back (Repossess) or wait until it is paid off, then erase';
    const { card } = await openPage({ erase: () => jsonResponse(409, { detail: refusal, message: refusal }) });
    const { dialog, reason, name, confirm } = await openEraseDialog(card);
    await userEvent.type(reason, 'Asked by phone');
    await userEvent.type(name, NAME);
    await userEvent.click(confirm);
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(refusal);
    expect(reason).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Erase personal data?' })).toBeInTheDocument();
    expect(within(card).queryByText('Personal data erased')).not.toBeInTheDocument();
  });

  it('for an erased customer, says when, and offers the download only', async () => {
    const { card, calls } = await openPage({ customer: ERASED });
    expect(await within(card).findByText('Personal data erased')).toBeInTheDocument();
    expect(card).toHaveTextContent(/This customer's personal data was erased on .+\. Their payments, codes and devices stay in the books without it\./);
    expect(await within(card).findByRole('time')).toHaveAttribute('dateTime', '2026-11-25T10:00:00.000Z');
    expect(within(card).queryByText(/^Under data-protection law/)).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Erase Personal Data' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Download Personal Data' })).toBeEnabled();
    expect(calls.some((c) => c.url === '/payg/customers/11')).toBe(true);
  });
});
