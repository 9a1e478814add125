import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { renderApp } from '@/testing/render';
import type { CashCollector, CashLedgerEntry } from '../api/types';
import {
  BARAKA_LEDGER,
  buildCollector,
  buildPaymentEntry,
  COLLECTORS,
  conflict,
  ledgerCalls,
  mockCashApi,
  voidPosts,
  type Handler,
} from '../testing/mock-cash-api';

/** The page as `role`, its API keeping `collectors` and their `ledgers`; `extra` answers first. */
async function open(
  role: 'owner' | 'admin' | 'staff' = 'owner',
  { collectors = COLLECTORS, ledgers, extra, username = 'amina' }: { collectors?: CashCollector[]; ledgers?: Record<string, CashLedgerEntry[]>; extra?: Handler; username?: string } = {},
) {
  const api = mockCashApi(collectors, extra, ledgers);
  seedSession({ user: buildUser({ role, username }) });
  renderApp('/cash');
  await screen.findByRole('table', { name: 'Cash by user' });
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return { ...api, user: userEvent.setup() };
}

/** Opens the ledger of `who` (the button's name after "Ledger of") and waits for its first page. */
async function openLedger(user: ReturnType<typeof userEvent.setup>, who = 'baraka', username = who) {
  await user.click(screen.getByRole('button', { name: `Ledger of ${who}` }));
  const drawer = await screen.findByRole('dialog', { name: `${username}'s cash` });
  await waitFor(() => expect(within(drawer).queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return drawer;
}

const ledgerTable = (drawer: HTMLElement) => within(drawer).getByRole('table', { name: 'Cash ledger' });
const bodyRows = (drawer: HTMLElement) => within(ledgerTable(drawer)).getAllByRole('row').slice(1);
/** The row of the entry of `at`. */
const rowAt = (drawer: HTMLElement, at: string) => within(ledgerTable(drawer)).getByText(formatDate(at, true)).closest('tr')!;

const HANDOVER_AT = '2026-11-26T16:00:00Z';
const VOIDED_AT = '2026-11-21T12:00:00Z';

describe('Cash ledger', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows what the collector holds and since when, and their payments and handovers newest first', async () => {
    const { user, calls } = await open();
    const drawer = await openLedger(user);
    expect(ledgerCalls(calls)).toEqual(['/payg/cash/baraka/ledger?page=1&limit=25']);
    const balances = within(drawer).getByRole('region', { name: 'Balances' });
    expect(within(balances).getByRole('group', { name: 'In Hand' })).toHaveTextContent('KES 1,200.00Held 9 days');
    expect(within(balances).getByRole('group', { name: 'Held Since' })).toHaveTextContent(formatDate('2026-11-27T10:15:00Z', true));

    expect(bodyRows(drawer)).toHaveLength(5);
    const payment = rowAt(drawer, '2026-11-27T10:15:00Z');
    expect(payment).toHaveTextContent('Cash payment');
    expect(within(payment).getByRole('link', { name: 'SN-1001' })).toHaveAttribute('href', '/device-activity/SN-1001');
    expect(within(payment).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/42');
    expect(payment).toHaveTextContent('Ref RCPT-0042');
    expect(within(payment).queryByText('Held')).not.toBeInTheDocument();
    const [, , amount, after] = within(payment).getAllByRole('cell');
    expect(amount).toHaveTextContent('+ KES 1,200.00');
    expect(after).toHaveTextContent('KES 1,200.00');

    const handover = rowAt(drawer, HANDOVER_AT);
    expect(handover).toHaveTextContent('Handover to amina');
    expect(handover).toHaveTextContent('Ref SLIP-7781');
    expect(handover).toHaveTextContent('Banked at Equity Nakuru');
    expect(within(handover).getAllByRole('cell')[2]).toHaveTextContent('− KES 3,800.00');
    expect(within(handover).getAllByRole('cell')[3]).toHaveTextContent('KES 0.00');
    expect(within(handover).getByText('Handover to amina')).not.toHaveStyle({ textDecoration: 'line-through' });

    // A payment reversed off its device, waiting to be matched: the cash is still held.
    const held = rowAt(drawer, '2026-11-25T09:30:00Z');
    expect(within(held).getByText('Held')).toBeInTheDocument();
    expect(within(held).getByRole('link', { name: 'Peter Kamau' })).toHaveAttribute('href', '/customer-payment-details/43');
    // Entered by a clerk for baraka; his own entries say nothing of it.
    expect(within(held).getByText('Entered by wanjiku')).toBeInTheDocument();
    expect(within(drawer).getAllByText(/^Entered by/)).toHaveLength(1);
  });

  it('strikes a voided handover through, with who voided it and why, and offers no Void on it', async () => {
    const { user } = await open();
    const drawer = await openLedger(user);
    const voided = rowAt(drawer, VOIDED_AT);
    expect(within(voided).getByText('Handover to amina')).toHaveStyle({ textDecoration: 'line-through' });
    expect(within(voided).getByText('Voided by mary: Recorded twice')).toBeInTheDocument();
    // What it would have taken, struck through, and the cash still held after it.
    const [, , amount, after] = within(voided).getAllByRole('cell');
    expect(amount).toHaveTextContent('− KES 2,000.00');
    expect(within(amount!).getByText('− KES 2,000.00')).toHaveStyle({ textDecoration: 'line-through' });
    expect(after).toHaveTextContent('KES 2,000.00');
    expect(within(voided).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();
    expect(within(rowAt(drawer, HANDOVER_AT)).getByRole('button', { name: `Void the handover of ${formatDate(HANDOVER_AT, true)}` })).toBeInTheDocument();
    // Payments are not voided here.
    expect(within(rowAt(drawer, '2026-11-27T10:15:00Z')).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();
  });

  it('opens the ledger named in the address (where a notification of cash held too long leads), and closes it there', async () => {
    mockCashApi(COLLECTORS);
    seedSession({ user: buildUser({ role: 'owner', username: 'amina' }) });
    const { router } = renderApp('/cash?ledger=baraka');
    const user = userEvent.setup();
    const drawer = await screen.findByRole('dialog', { name: "baraka's cash" });
    await waitFor(() => expect(bodyRows(drawer)).toHaveLength(5));
    await user.click(within(drawer).getByRole('button', { name: 'Close dialog' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "baraka's cash" })).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('');
    // Opened from its row, the ledger is in the address too.
    await user.click(await screen.findByRole('button', { name: 'Ledger of baraka' }));
    await waitFor(() => expect(router.state.location.search).toBe('?ledger=baraka'));
  });

  it('pages the ledger 25 at a time', async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      buildPaymentEntry({ id: 1000 - i, at: new Date(Date.UTC(2026, 10, 30, 12) - i * 3_600_000).toISOString(), customer_name: `Customer ${i + 1}` }),
    );
    const { user, calls } = await open('owner', { ledgers: { baraka: many } });
    const drawer = await openLedger(user);
    expect(bodyRows(drawer)).toHaveLength(25);
    expect(drawer).toHaveTextContent('Showing 1 to 25 of 30 entries');
    await user.click(within(drawer).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(bodyRows(drawer)).toHaveLength(5));
    expect(ledgerCalls(calls).at(-1)).toBe('/payg/cash/baraka/ledger?page=2&limit=25');
    expect(within(drawer).getByRole('link', { name: 'Customer 26' })).toBeInTheDocument();
  });

  it('asks for the ledger of the row’s currency when the collector holds two', async () => {
    const { user, calls } = await open('owner', { collectors: [buildCollector(), buildCollector({ currency: 'UGX', in_hand: '50000.00', overdue: false })] });
    await openLedger(user, 'baraka (UGX)', 'baraka');
    expect(ledgerCalls(calls)).toEqual(['/payg/cash/baraka/ledger?page=1&limit=25&currency=UGX']);
  });

  it('lets staff read their own ledger, without Void', async () => {
    const { user } = await open('staff', { collectors: [buildCollector()], username: 'baraka' });
    const drawer = await openLedger(user);
    expect(bodyRows(drawer)).toHaveLength(BARAKA_LEDGER.length);
    expect(within(drawer).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();
  });

  it('says when the ledger cannot be read', async () => {
    const { user } = await open();
    const drawer = await openLedger(user, 'amina');
    expect(await within(drawer).findByRole('alert')).toHaveTextContent('No cash recorded by amina');
  });
});

describe('Void Handover', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  async function openVoid(user: ReturnType<typeof userEvent.setup>, drawer: HTMLElement) {
    await user.click(within(rowAt(drawer, HANDOVER_AT)).getByRole('button', { name: /^Void/ }));
    return screen.findByRole('dialog', { name: 'Void Handover' });
  }

  it('asks why, sends the reason, says what it did, and the ledger shows it voided', async () => {
    const { user, calls } = await open();
    const drawer = await openLedger(user);
    const dialog = await openVoid(user, drawer);
    expect(dialog).toHaveTextContent(`KES 3,800.00 handed to amina on ${formatDate(HANDOVER_AT, true)}`);

    await user.type(within(dialog).getByRole('textbox', { name: /^Why\?/ }), 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Void Handover' }));
    expect(await within(dialog).findByText('Say why, in at least 3 characters')).toBeInTheDocument();
    expect(voidPosts(calls)).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: /^Why\?/ }), 't this one: the slip was for another agent');
    await user.click(within(dialog).getByRole('button', { name: 'Void Handover' }));
    expect(await screen.findByText('Voided the handover of KES 3,800.00 by baraka: they hold KES 5,000.00 now')).toBeInTheDocument();
    expect(voidPosts(calls)).toEqual([{ url: '/payg/cash/handovers/31/void', body: { reason: 'not this one: the slip was for another agent' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Void Handover' })).not.toBeInTheDocument());

    // Read again: struck through, with the reason, and the balance back.
    await waitFor(() => expect(within(rowAt(drawer, HANDOVER_AT)).getByText('Voided by amina: not this one: the slip was for another agent')).toBeInTheDocument());
    expect(within(rowAt(drawer, HANDOVER_AT)).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();
    await waitFor(() => expect(within(drawer).getByRole('group', { name: 'In Hand' })).toHaveTextContent('KES 5,000.00'));
  });

  it('shows the API’s 409 in the modal: voided already', async () => {
    const { user, calls } = await open('admin', {
      extra: (call) => (call.method === 'POST' && call.url.endsWith('/void') ? conflict('This handover was voided already') : undefined),
    });
    const drawer = await openLedger(user);
    const dialog = await openVoid(user, drawer);
    await user.type(within(dialog).getByRole('textbox', { name: /^Why\?/ }), 'Entered twice');
    await user.click(within(dialog).getByRole('button', { name: 'Void Handover' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This handover was voided already');
    expect(voidPosts(calls)).toHaveLength(1);
  });
});
