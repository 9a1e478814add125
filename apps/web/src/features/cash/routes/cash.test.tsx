import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { captureDownloads } from '@/testing/downloads';
import type { CashCollector } from '../api/types';
import { validateHandover } from '../components/record-handover-modal';
import { badRequest, buildCollector, COLLECTORS, handoverPosts, mockCashApi, summaryCalls, type Handler } from '../testing/mock-cash-api';

/** The page as `role` (signed in as `username`), its API keeping `collectors`; `extra` answers first. */
async function open(role: 'owner' | 'admin' | 'staff' = 'owner', collectors: CashCollector[] = COLLECTORS, extra?: Handler, username = 'amina') {
  const api = mockCashApi(collectors, extra);
  seedSession({ user: buildUser({ role, username }) });
  renderApp('/cash');
  return { ...api, user: userEvent.setup() };
}

/** The table of collectors, once it is read. */
async function table() {
  const t = await screen.findByRole('table', { name: 'Cash by user' });
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return t;
}
const rowOf = (t: HTMLElement, username: string) => within(t).getByText(username).closest('tr')!;
const sidebarLabels = () =>
  within(screen.getByRole('navigation', { name: 'Main navigation' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

/** Opens Record Handover of `username`'s row. */
async function openHandover(user: ReturnType<typeof userEvent.setup>, t: HTMLElement, username = 'baraka') {
  await user.click(within(rowOf(t, username)).getByRole('button', { name: /^Record Handover/ }));
  return screen.findByRole('dialog', { name: 'Record Handover' });
}
const amountBox = (dialog: HTMLElement) => within(dialog).getByRole('textbox', { name: /^Amount/ });

describe('Cash in Hand', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is in the sidebar after Bulk SMS, the page titled and explained', async () => {
    const { calls } = await open('admin');
    await table();
    const labels = sidebarLabels();
    expect(labels.slice(labels.indexOf('Bulk SMS'), labels.indexOf('Bulk SMS') + 2)).toEqual(['Bulk SMS', 'Cash in Hand']);
    expect(screen.getByRole('link', { name: 'Cash in Hand' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { name: 'Cash in Hand', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('Cash payments recorded by each user, what they have handed over and what they hold now.')).toBeInTheDocument();
    expect(summaryCalls(calls)).toHaveLength(1);
  });

  it('lists each collector: role, in hand, collected and handed over with counts, the last payment and handover', async () => {
    await open();
    const t = await table();
    const rows = within(t).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['barakaStaff', 'aminaAdmin', 'wanjikuno longer a user']);

    const baraka = rowOf(t, 'baraka');
    const cells = within(baraka).getAllByRole('cell');
    expect(within(cells[1]!).getByText('KES 1,200.00')).toHaveStyle({ fontWeight: '700' });
    expect(cells[2]).toHaveTextContent(/KES 5,000\.00.*3 payments/);
    expect(cells[3]).toHaveTextContent(/KES 3,800\.00.*1 handover$/);
    expect(cells[4]).toHaveTextContent(formatDate('2026-11-27T10:15:00Z'));
    expect(cells[5]).toHaveTextContent(formatDate('2026-11-26T16:00:00Z'));
    expect(within(baraka).getByRole('button', { name: 'Ledger of baraka' })).toBeInTheDocument();
    expect(within(baraka).getByRole('button', { name: 'Record Handover by baraka' })).toBeEnabled();

    const amina = rowOf(t, 'amina');
    expect(within(amina).getAllByRole('cell')[5]).toHaveTextContent('—');
    expect(amina).toHaveTextContent('1 payment');
    expect(amina).toHaveTextContent('0 handovers');
  });

  it('totals the cash of every collector: collected, handed over, in hand, and how many held it too long', async () => {
    await open();
    await table();
    expect(screen.getByRole('group', { name: 'Collected' })).toHaveTextContent('KES 7,800.00');
    expect(screen.getByRole('group', { name: 'Handed Over' })).toHaveTextContent('KES 5,800.00');
    expect(screen.getByRole('group', { name: 'In Hand' })).toHaveTextContent('KES 2,000.00');
    expect(screen.getByRole('group', { name: 'Held Too Long' })).toHaveTextContent(/^Held Too Long1Holding cash more than 3 days$/);
  });

  it('never adds currencies together: the others are the hint of each card', async () => {
    await open('owner', [buildCollector(), buildCollector({ currency: 'UGX', collected: '90000.00', handed_over: '40000.00', in_hand: '50000.00', overdue: false })]);
    const t = await table();
    expect(screen.getByRole('group', { name: 'In Hand' })).toHaveTextContent('KES 1,200.00+ UGX 50,000.00');
    expect(screen.getByRole('group', { name: 'Collected' })).toHaveTextContent('KES 5,000.00+ UGX 90,000.00');
    // One row per currency, each with its own buttons.
    expect(within(t).getByRole('button', { name: 'Record Handover by baraka (UGX)' })).toBeInTheDocument();
    expect(within(t).getByRole('button', { name: 'Ledger of baraka (KES)' })).toBeInTheDocument();
  });

  it('marks who held cash too long with a red badge, and nobody else', async () => {
    await open();
    const t = await table();
    expect(within(rowOf(t, 'baraka')).getByText('Held 9 days')).toBeInTheDocument();
    expect(within(t).getAllByText(/^Held \d+ days?$/)).toHaveLength(1);
    expect(within(rowOf(t, 'amina')).queryByText(/^Held/)).not.toBeInTheDocument();
  });

  it('offers no handover of a collector who holds nothing', async () => {
    await open();
    const t = await table();
    expect(within(rowOf(t, 'wanjiku')).getByRole('button', { name: 'Record Handover by wanjiku' })).toBeDisabled();
    expect(within(rowOf(t, 'wanjiku')).getByRole('button', { name: 'Ledger of wanjiku' })).toBeEnabled();
  });

  it('shows staff their own cash: the line on handing it over, their Ledger, no Record Handover', async () => {
    const { calls } = await open('staff', [buildCollector()], undefined, 'baraka');
    const t = await table();
    expect(screen.getByText('Hand the cash you collect to an owner or admin; they record it here.')).toBeInTheDocument();
    expect(within(t).getAllByRole('row')).toHaveLength(2);
    expect(within(rowOf(t, 'baraka')).getByText('Held 9 days')).toBeInTheDocument();
    expect(within(t).getByRole('button', { name: 'Ledger of baraka' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Record Handover/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export Handovers' })).not.toBeInTheDocument();
    const labels = sidebarLabels();
    expect(labels).not.toContain('Bulk SMS');
    expect(labels[labels.indexOf('Messages') + 1]).toBe('Cash in Hand');
    expect(summaryCalls(calls)).toHaveLength(1);
  });

  it("exports the last 30 days' handovers of everyone or one collector as CSV", async () => {
    const names = captureDownloads();
    const csv = () =>
      new Response('\uFEFFhandover_id\r\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="cash-handovers-2026-12-06.csv"' } });
    const { calls, user } = await open('owner', COLLECTORS, (c) => (c.url.startsWith('/payg/cash/handovers/export') ? csv() : undefined));
    await table();
    const exports = () => calls.filter((c) => c.url.startsWith('/payg/cash/handovers/export')).map((c) => new URL(c.url, 'http://x').searchParams);
    await user.click(screen.getByRole('button', { name: 'Export Handovers' }));
    let dialog = await screen.findByRole('dialog', { name: 'Export Handovers' });
    await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(names).toEqual(['cash-handovers-2026-12-06.csv']));
    expect(await screen.findByText('Downloaded cash-handovers-2026-12-06.csv')).toBeInTheDocument();
    const [all] = exports();
    expect(all!.get('collector')).toBeNull();
    expect(dayjs(all!.get('to')).diff(dayjs(all!.get('from')), 'day')).toBe(29);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Export Handovers' })).not.toBeInTheDocument());

    // One collector's.
    await user.click(screen.getByRole('button', { name: 'Export Handovers' }));
    dialog = await screen.findByRole('dialog', { name: 'Export Handovers' });
    await user.click(within(dialog).getByLabelText('Collector', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'baraka' }));
    await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(exports()).toHaveLength(2));
    expect(exports()[1]!.get('collector')).toBe('baraka');
  });

  it('does not show the staff line to owners', async () => {
    await open('owner');
    await table();
    expect(screen.queryByText('Hand the cash you collect to an owner or admin; they record it here.')).not.toBeInTheDocument();
  });

  it('says when no cash payment is recorded yet', async () => {
    await open('owner', []);
    expect(await screen.findByText('No cash payments recorded yet.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'In Hand' })).not.toBeInTheDocument();
  });

  it('says when the cash cannot be read, with Retry', async () => {
    let fail = true;
    const { user } = await open('owner', COLLECTORS, (call) => (fail && call.url === '/payg/cash' ? jsonResponse(500, { detail: 'Database unavailable' }) : undefined));
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(within(await table()).getByText('baraka')).toBeInTheDocument();
  });
});

describe('Record Handover', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('records all they hold by default: the collector, the row’s currency, now, the slip; says so and reads the cash again', async () => {
    const { user, calls } = await open();
    const t = await table();
    const reads = summaryCalls(calls).length;
    const dialog = await openHandover(user, t);
    expect(within(dialog).getByRole('textbox', { name: 'Collector' })).toHaveValue('baraka');
    expect(within(dialog).getByRole('textbox', { name: 'Collector' })).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('KES');
    expect(amountBox(dialog)).toHaveValue('1,200');
    expect(dialog).toHaveTextContent('baraka holds KES 1,200.00');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reference/ }), ' SLIP-9001 ');
    await user.click(within(dialog).getByRole('button', { name: 'Record Handover' }));

    expect(await screen.findByText('Recorded KES 1,200.00 handed over by baraka: they hold KES 0.00 now')).toBeInTheDocument();
    const [body] = handoverPosts(calls);
    expect(body).toEqual({ collector: 'baraka', amount: '1200.00', currency: 'KES', handed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/), reference: 'SLIP-9001' });
    expect(Math.abs(Date.parse(body!.handed_at!) - Date.now())).toBeLessThan(2 * 60_000);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Record Handover' })).not.toBeInTheDocument());
    await waitFor(() => expect(summaryCalls(calls).length).toBeGreaterThan(reads));
    const row = rowOf(screen.getByRole('table', { name: 'Cash by user' }), 'baraka');
    await waitFor(() => expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('KES 0.00'));
    expect(within(row).queryByText('Held 9 days')).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Record Handover by baraka' })).toBeDisabled();
  });

  it('records part of it with a note, in the currency of the row', async () => {
    const { user, calls } = await open('admin', [buildCollector(), buildCollector({ currency: 'UGX', in_hand: '50000.00', overdue: false })]);
    const t = await table();
    await user.click(within(t).getByRole('button', { name: 'Record Handover by baraka (UGX)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Handover' });
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('UGX');
    await user.clear(amountBox(dialog));
    await user.type(amountBox(dialog), '20000.5');
    await user.type(within(dialog).getByRole('textbox', { name: /^Note/ }), 'Counted at the Kampala shop');
    await user.click(within(dialog).getByRole('button', { name: 'Record Handover' }));
    expect(await screen.findByText('Recorded UGX 20,000.50 handed over by baraka: they hold UGX 29,999.50 now')).toBeInTheDocument();
    expect(handoverPosts(calls)).toEqual([
      { collector: 'baraka', amount: '20000.50', currency: 'UGX', handed_at: expect.any(String), note: 'Counted at the Kampala shop' },
    ]);
  });

  it('refuses an amount that is empty, 0, or more than they hold, before asking the API', async () => {
    const { user, calls } = await open();
    const t = await table();
    const dialog = await openHandover(user, t);
    const submit = () => user.click(within(dialog).getByRole('button', { name: 'Record Handover' }));

    await user.clear(amountBox(dialog));
    await submit();
    expect(await within(dialog).findByText('Amount is required')).toBeInTheDocument();
    expect(amountBox(dialog)).toHaveAttribute('aria-invalid', 'true');

    await user.type(amountBox(dialog), '0');
    await submit();
    expect(await within(dialog).findByText('Amount must be more than 0')).toBeInTheDocument();

    await user.clear(amountBox(dialog));
    await user.type(amountBox(dialog), '1200.01');
    await submit();
    expect(await within(dialog).findByText('Amount must be at most KES 1,200.00: that is what baraka holds')).toBeInTheDocument();
    expect(handoverPosts(calls)).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Record Handover' })).toBeInTheDocument();
  });

  it('shows the API’s 400 under its field, and keeps the modal open', async () => {
    const refusal = 'must be at most 1000.00: baraka holds KES 1,000.00';
    const { user, calls } = await open('owner', COLLECTORS, (call) => (call.method === 'POST' && call.url === '/payg/cash/handovers' ? badRequest('amount', refusal) : undefined));
    const t = await table();
    const dialog = await openHandover(user, t);
    await user.click(within(dialog).getByRole('button', { name: 'Record Handover' }));
    expect(await within(dialog).findByText(`Amount ${refusal}`)).toBeInTheDocument();
    expect(amountBox(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(handoverPosts(calls)).toHaveLength(1);
  });

  it('shows a refusal of no field in the red box', async () => {
    const { user } = await open('owner', COLLECTORS, (call) =>
      call.method === 'POST' && call.url === '/payg/cash/handovers' ? jsonResponse(403, { detail: 'Only owners and admins record handovers' }) : undefined,
    );
    const dialog = await openHandover(user, await table());
    await user.click(within(dialog).getByRole('button', { name: 'Record Handover' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only owners and admins record handovers');
  });

  it('checks the time: required, and not in the future', () => {
    const baraka = buildCollector();
    const values = { amount: 100, reference: '', note: '' };
    expect(validateHandover({ ...values, handed_at: dayjs().subtract(1, 'hour').format('YYYY-MM-DD HH:mm:ss') }, baraka)).toEqual({});
    expect(validateHandover({ ...values, handed_at: dayjs().add(1, 'hour').format('YYYY-MM-DD HH:mm:ss') }, baraka)).toEqual({ handed_at: 'Handed At must not be in the future' });
    expect(validateHandover({ ...values, handed_at: null }, baraka)).toEqual({ handed_at: 'Handed At is required' });
  });
});
