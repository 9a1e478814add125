import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CashSummary, PromisesSummaryReply, TicketsReply } from '@kidogo/contracts';
import { buildCollector } from '@/features/cash/testing/mock-cash-api';
import { buildUser, seedSession } from '@/testing/factories';
import { deferred, jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { ALL_CLEAR, cashFigure, NEEDS_ATTENTION } from './needs-attention-card';

type Part = 'held' | 'tickets' | 'promises' | 'cash';

const held = { data: [{ payment_id: 31, status: 'pending' }], pagination: { total: 3, total_pages: 3, limit: 1, offset: 0 } };
const tickets: TicketsReply = {
  data: { items: [], pagination: { total: 2, total_pages: 2, page: 1, limit: 1 }, counts: { open: 4, in_progress: 1, resolved: 9 } },
};
const promises: PromisesSummaryReply = {
  data: { today: '2026-12-06', from: '2026-11-06', counts: { due: 2, broken: 1, upcoming: 5, kept: 3, paid_late: 0 }, kept_rate: 75 },
};
/** baraka holds KES 5,800.00 (overdue), amina KES 800.00 (1 day), otieno UGX 12,000.00 (overdue). */
const cash: CashSummary = {
  data: [
    buildCollector({ username: 'baraka', in_hand: '5800.00', overdue: true, days_held: 6 }),
    buildCollector({ username: 'amina', in_hand: '800.00', overdue: false, days_held: 1 }),
    buildCollector({ username: 'otieno', currency: 'UGX', in_hand: '12000.00', overdue: true, days_held: 4 }),
  ],
  totals: [
    { currency: 'KES', collected: '9000.00', handed_over: '2400.00', in_hand: '6600.00' },
    { currency: 'UGX', collected: '12000.00', handed_over: '0.00', in_hand: '12000.00' },
  ],
  overdue_days: 3,
};
const NOTHING: Record<Part, unknown> = {
  held: { data: [], pagination: { total: 0, total_pages: 0, limit: 1, offset: 0 } },
  tickets: { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 1 }, counts: { open: 0, in_progress: 0, resolved: 7 } } },
  promises: { data: { ...promises.data, counts: { due: 0, broken: 0, upcoming: 2, kept: 4, paid_late: 1 } } },
  // Everything handed over: a row and a total, at 0.
  cash: {
    data: [buildCollector({ in_hand: '0.00', overdue: false, held_since: null, days_held: null })],
    totals: [{ currency: 'KES', collected: '3800.00', handed_over: '3800.00', in_hand: '0.00' }],
    overdue_days: 3,
  },
};

/** Which part of the card a call is for, if any. */
function partOf(call: RecordedCall): Part | null {
  const url = new URL(call.url, 'http://x');
  if (url.pathname === '/payg/payments' && url.searchParams.get('status') === 'pending') return 'held';
  return (
    (
      {
        '/payg/tickets': 'tickets',
        '/payg/collections/promises/summary': 'promises',
        '/payg/cash': 'cash',
      } as Record<string, Part>
    )[url.pathname] ?? null
  );
}

/**
 * The dashboard's API: the card's four calls answer `replies` (500 for the parts in `fail`, held in flight for
 * `hold`), the rest of the dashboard answers empty figures.
 */
function mockApi({
  replies = {},
  fail = [],
  hold,
}: { replies?: Partial<Record<Part, unknown>>; fail?: Part[]; hold?: { part: Part; until: Promise<void> } } = {}) {
  const ok: Record<Part, unknown> = { held, tickets, promises, cash, ...replies };
  return mockFetch(async (call) => {
    const part = partOf(call);
    if (part) {
      if (hold?.part === part) await hold.until;
      return fail.includes(part) ? jsonResponse(500, { message: `${part} exploded` }) : jsonResponse(200, ok[part]);
    }
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/payg/notifications') return jsonResponse(200, { data: [] });
    if (path === '/payg/health') return jsonResponse(200, { status: 'healthy', database: 'connected', external_services: 'not_configured' });
    if (path === '/payg/payments') return jsonResponse(200, { data: [{ payment_id: 1, currency: 'KES' }] });
    if (path === '/payg/metrics/customers') return jsonResponse(200, { total: 12, active: 10, inactive: 1, suspended: 1, new_this_week: 3, recent: [] });
    return jsonResponse(200, {});
  });
}

async function openDashboard(role: 'owner' | 'admin' | 'staff' = 'owner') {
  seedSession({ user: buildUser({ role }) });
  const view = renderApp('/dashboard');
  const card = await screen.findByRole('region', { name: NEEDS_ATTENTION });
  return { ...view, card };
}

/** The card's lines, by their accessible names, once none is loading. */
async function lineNames(card: HTMLElement) {
  await waitFor(() => expect(within(card).queryAllByRole('link', { name: /: loading$/ })).toHaveLength(0));
  return within(card)
    .getAllByRole('link')
    .map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')]);
}

describe('Needs Attention', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says what waits, each line a link to where it is dealt with, read from the screens’ own endpoints', async () => {
    const { calls } = mockApi();
    const { card } = await openDashboard();
    expect(await lineNames(card)).toEqual([
      ['Payments held for matching: 3', '/messages'],
      ['Promises to pay due today: 2', '/collections?view=promises&status=due'],
      ['Broken promises to pay: 1', '/collections?view=promises&status=broken'],
      ['Service tickets not resolved: 5', '/tickets'],
      ['Tickets assigned to you: 2', '/tickets?mine=true'],
      ['Cash not handed over: KES 6,600.00 · UGX 12,000.00, 2 users hold it more than 3 days', '/cash'],
    ]);
    // What the lines show: the figures, and who holds cash too long under the cash line.
    const cashLine = within(card).getByRole('link', { name: /^Cash not handed over/ });
    expect(within(cashLine).getByText('KES 6,600.00 · UGX 12,000.00')).toBeInTheDocument();
    expect(within(cashLine).getByText('2 users hold it more than 3 days')).toBeInTheDocument();
    expect(within(within(card).getByRole('link', { name: /^Payments held/ })).getByText('3')).toBeInTheDocument();
    expect(within(card).queryByText(ALL_CLEAR)).not.toBeInTheDocument();

    // One call each, for one row: the totals are what is read.
    const asked = (part: Part) => calls.filter((c) => partOf(c) === part).map((c) => new URL(c.url, 'http://x'));
    const [heldCall] = asked('held');
    expect(Object.fromEntries(heldCall!.searchParams)).toEqual({ status: 'pending', limit: '1' });
    const [ticketsCall] = asked('tickets');
    // The caller's unresolved tickets: active (open and in progress) and assigned to them.
    expect(Object.fromEntries(ticketsCall!.searchParams)).toMatchObject({ status: 'active', mine: 'true', limit: '1' });
    expect(asked('promises')).toHaveLength(1);
    expect(asked('cash')).toHaveLength(1);
  });

  it('colors what is broken or held too long, and dims what is 0', async () => {
    mockApi({ replies: { promises: { data: { ...promises.data, counts: { ...promises.data.counts, due: 0 } } } } });
    const { card } = await openDashboard();
    await lineNames(card);
    const badge = (name: RegExp) => within(within(card).getByRole('link', { name })).getByText(/^[\d,]+$|KES/);
    expect(badge(/^Broken promises/).closest('.mantine-Badge-root')).toHaveAttribute('style', expect.stringContaining('--mantine-color-red'));
    expect(badge(/^Cash not handed over/).closest('.mantine-Badge-root')).toHaveAttribute('style', expect.stringContaining('--mantine-color-orange'));
    expect(badge(/^Promises to pay due today/).closest('.mantine-Badge-root')).toHaveAttribute('style', expect.stringContaining('--mantine-color-gray'));
    expect(badge(/^Payments held/).closest('.mantine-Badge-root')).toHaveAttribute('style', expect.stringContaining('--mantine-color-blue'));
  });

  it("speaks to staff of their own cash (the API lists only theirs)", async () => {
    mockApi({
      replies: {
        cash: {
          data: [buildCollector({ username: 'amina', in_hand: '800.00', overdue: true, days_held: 5 })],
          totals: [{ currency: 'KES', collected: '800.00', handed_over: '0.00', in_hand: '800.00' }],
          overdue_days: 3,
        },
      },
    });
    const { card } = await openDashboard('staff');
    const line = await within(card).findByRole('link', { name: 'Your cash in hand: KES 800.00, you have held it more than 3 days' });
    expect(line).toHaveAttribute('href', '/cash');
    expect(within(line).getByText('You have held it more than 3 days')).toBeInTheDocument();
    expect(within(card).queryByText(/Cash not handed over|users? holds?/)).not.toBeInTheDocument();
  });

  it('shows staff with no cash None, and says nothing of holding it too long', async () => {
    mockApi({ replies: { cash: { data: [], totals: [], overdue_days: 3 } } });
    const { card } = await openDashboard('staff');
    const line = await within(card).findByRole('link', { name: 'Your cash in hand: None' });
    expect(within(line).queryByText(/held it/)).not.toBeInTheDocument();
  });

  it("shows Failed to load on a line whose call failed, the other lines and the rest of the dashboard as they are", async () => {
    mockApi({ fail: ['cash', 'tickets'] });
    const { card } = await openDashboard();
    expect(await lineNames(card)).toEqual([
      ['Payments held for matching: 3', '/messages'],
      ['Promises to pay due today: 2', '/collections?view=promises&status=due'],
      ['Broken promises to pay: 1', '/collections?view=promises&status=broken'],
      ['Service tickets not resolved: Failed to load', '/tickets'],
      ['Tickets assigned to you: Failed to load', '/tickets?mine=true'],
      ['Cash not handed over: Failed to load', '/cash'],
    ]);
    expect(within(within(card).getByRole('link', { name: /^Cash not handed over/ })).getByText('Failed to load')).toBeInTheDocument();
    // The dashboard's own sections are untouched, and its banner is about them only.
    expect(await within(screen.getByRole('region', { name: 'Customer Overview' })).findByText('12')).toBeInTheDocument();
    expect(screen.queryByText('Some data failed to load')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to load dashboard data')).not.toBeInTheDocument();
    expect(within(card).queryByText(ALL_CLEAR)).not.toBeInTheDocument();
  });

  it('says all clear when nothing waits, the lines still showing 0', async () => {
    mockApi({ replies: NOTHING });
    const { card } = await openDashboard();
    expect(await within(card).findByText(ALL_CLEAR)).toBeInTheDocument();
    expect((await lineNames(card)).map(([name]) => name)).toEqual([
      'Payments held for matching: 0',
      'Promises to pay due today: 0',
      'Broken promises to pay: 0',
      'Service tickets not resolved: 0',
      'Tickets assigned to you: 0',
      'Cash not handed over: None',
    ]);
  });

  it('does not say all clear while a line is failed, though the others are 0', async () => {
    mockApi({ replies: NOTHING, fail: ['held'] });
    const { card } = await openDashboard();
    await within(card).findByRole('link', { name: 'Payments held for matching: Failed to load' });
    await lineNames(card);
    expect(within(card).queryByText(ALL_CLEAR)).not.toBeInTheDocument();
  });

  it('shows a skeleton on a line while its call is on its way', async () => {
    const gate = deferred<void>();
    mockApi({ hold: { part: 'promises', until: gate.promise } });
    const { card } = await openDashboard();
    await within(card).findByRole('link', { name: 'Payments held for matching: 3' });
    const due = within(card).getByRole('link', { name: 'Promises to pay due today: loading' });
    expect(due).toHaveAttribute('aria-busy', 'true');
    expect(due.querySelector('.mantine-Skeleton-root')).not.toBeNull();
    gate.resolve();
    expect(await within(card).findByRole('link', { name: 'Promises to pay due today: 2' })).not.toHaveAttribute('aria-busy');
  });

  it("the dashboard's Refresh reads the card again", async () => {
    const { calls } = mockApi();
    const { card } = await openDashboard();
    await lineNames(card);
    const count = () => (['held', 'tickets', 'promises', 'cash'] as const).map((p) => calls.filter((c) => partOf(c) === p).length);
    expect(count()).toEqual([1, 1, 1, 1]);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(count()).toEqual([2, 2, 2, 2]));
  });

  it('a line opens its screen', async () => {
    mockApi();
    const { card, router } = await openDashboard();
    await userEvent.click(await within(card).findByRole('link', { name: /^Broken promises to pay: 1/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/collections'));
    expect(router.state.location.search).toBe('?view=promises&status=broken');
  });
});

describe('cashFigure', () => {
  const summary = (over: Partial<CashSummary>): CashSummary => ({ data: [], totals: [], overdue_days: 3, ...over });

  it('counts each user holding cash too long once, whatever their currencies', () => {
    const both = summary({
      data: [buildCollector({ overdue: true }), buildCollector({ currency: 'UGX', in_hand: '500.00', overdue: true })],
      totals: [
        { currency: 'KES', collected: '1', handed_over: '0', in_hand: '1200.00' },
        { currency: 'UGX', collected: '1', handed_over: '0', in_hand: '500.00' },
      ],
    });
    expect(cashFigure(both, false)).toEqual({ text: 'KES 1,200.00 · UGX 500.00', color: 'orange', detail: '1 user holds it more than 3 days', waits: true });
  });

  it('leaves out currencies with nothing in hand, says None for none, and days in the singular for 1', () => {
    expect(
      cashFigure(summary({ totals: [{ currency: 'UGX', collected: '5', handed_over: '5', in_hand: '0.00' }] }), false),
    ).toEqual({ text: 'None', color: 'gray', detail: undefined, waits: false });
    const one = summary({
      data: [buildCollector({ overdue: true })],
      totals: [{ currency: 'KES', collected: '1', handed_over: '0', in_hand: '1200.00' }],
      overdue_days: 1,
    });
    expect(cashFigure(one, true).detail).toBe('You have held it more than 1 day');
    const notLate = summary({ data: [buildCollector({ overdue: false })], totals: one.totals });
    expect(cashFigure(notLate, false)).toEqual({ text: 'KES 1,200.00', color: 'blue', detail: undefined, waits: true });
  });
});
