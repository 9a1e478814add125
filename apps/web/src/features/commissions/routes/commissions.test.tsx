import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { captureDownloads } from '@/testing/downloads';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import {
  badRequest,
  buildFigures,
  buildPayout,
  conflict,
  exportCalls,
  historyCalls,
  mockCommissionsApi,
  monthCalls,
  NOVEMBER,
  payAllPosts,
  payoutPosts,
  voidPosts,
  type Handler,
  type MockMonth,
} from '../testing/mock-commissions-api';

/** The page at `url` as `role`, its API keeping `months`; `extra` answers first. */
function open(url = '/commissions?month=2026-11', { role = 'owner', months, extra }: { role?: 'owner' | 'admin' | 'staff'; months?: Record<string, MockMonth>; extra?: Handler } = {}) {
  const api = mockCommissionsApi(months, extra);
  seedSession({ user: buildUser({ role }) });
  const { router } = renderApp(url);
  return { ...api, router, user: userEvent.setup() };
}

/** The table of agents, once it is read. */
async function table() {
  const t = await screen.findByRole('table', { name: 'Commissions by agent' });
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return t;
}
const rowOf = (t: HTMLElement, agent: string) => within(t).getByRole('button', { name: `Payout history of ${agent}` }).closest('tr')!;
const cellsOf = (t: HTMLElement, agent: string) => within(rowOf(t, agent)).getAllByRole('cell');
const sidebarLabels = () =>
  within(screen.getByRole('navigation', { name: 'Main navigation' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

/** Opens Mark Paid of `agent`'s row. */
async function openMarkPaid(user: ReturnType<typeof userEvent.setup>, t: HTMLElement, agent = 'baraka') {
  await user.click(within(rowOf(t, agent)).getByRole('button', { name: `Mark Paid: ${agent}` }));
  return screen.findByRole('dialog', { name: 'Mark Paid' });
}

describe('Agent Commissions', { timeout: 30_000 }, () => {
  beforeEach(() => {
    // 6 December 2026 in Nairobi: November is the month being paid, December is not over.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-06T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is in the sidebar after Cash in Hand, titled and explained, and shows the last month by default', async () => {
    const { calls, router } = open('/commissions');
    await table();
    const labels = sidebarLabels();
    expect(labels.slice(labels.indexOf('Cash in Hand'), labels.indexOf('Cash in Hand') + 2)).toEqual(['Cash in Hand', 'Agent Commissions']);
    expect(screen.getByRole('link', { name: 'Agent Commissions' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { name: 'Agent Commissions', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('What each sales agent earned in a month, from Settings → Agent Commissions, and whether it was paid.')).toBeInTheDocument();
    expect(monthCalls(calls)).toEqual(['2026-11']);
    expect(screen.getByRole('button', { name: 'Month' })).toHaveTextContent('November 2026');
    expect(screen.getByRole('heading', { name: 'By agent: November 2026' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('lists each agent: devices given, payments, collected, commission, and whether it was paid', async () => {
    open();
    const t = await table();
    expect(within(t).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['baraka', 'amina', 'wanjiku', 'otieno']);

    const baraka = cellsOf(t, 'baraka');
    expect(baraka.slice(1, 5).map((c) => c.textContent)).toEqual(['2', '4', 'KES 10,000.00', 'KES 1,250.00']);
    expect(within(baraka[5]!).getByText('Unpaid')).toBeInTheDocument();
    expect(within(baraka[6]!).getByRole('button', { name: 'Mark Paid: baraka' })).toBeInTheDocument();
    expect(within(baraka[6]!).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();

    const amina = cellsOf(t, 'amina');
    expect(within(amina[5]!).getByText('Paid')).toBeInTheDocument();
    expect(amina[5]).toHaveTextContent(`${formatDate('2026-12-02T09:00:00Z')} · Ref QK71ABC123`);
    expect(amina[4]).toHaveTextContent(/^KES 800\.00$/);
    expect(within(amina[6]!).getByRole('button', { name: 'Void the payout of amina' })).toBeInTheDocument();
    expect(within(amina[6]!).queryByRole('button', { name: /^Mark Paid/ })).not.toBeInTheDocument();

    // Paid KES 400.00; KES 650.00 reckoned now.
    const wanjiku = cellsOf(t, 'wanjiku');
    expect(wanjiku[4]).toHaveTextContent('KES 650.00Reckoned now: +KES 250.00');
    expect(wanjiku[5]).toHaveTextContent(/^Paid/);

    const otieno = cellsOf(t, 'otieno');
    expect(within(otieno[5]!).getByText('Nothing Due')).toBeInTheDocument();
    expect(within(otieno[6]!).queryAllByRole('button')).toEqual([]);
    expect(screen.getByText(/The most commission first, reckoned at KES 500\.00 per device given and 2\.5% of the payments collected\./)).toBeInTheDocument();
  });

  it('totals the commission, what was paid and what is unpaid, with how many agents', async () => {
    open();
    await table();
    expect(screen.getByRole('group', { name: 'Commission' })).toHaveTextContent('KES 2,700.00Reckoned now for 4 agents');
    expect(screen.getByRole('group', { name: 'Paid' })).toHaveTextContent('KES 1,200.002 agents paid');
    expect(screen.getByRole('group', { name: 'Unpaid' })).toHaveTextContent('KES 1,250.001 agent to pay');
  });

  it('lists the payouts of the month voided, with who voided them and why', async () => {
    open();
    await table();
    const voided = screen.getByRole('region', { name: 'Voided payouts' });
    const [row] = within(voided).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent('otieno');
    expect(row).toHaveTextContent('KES 300.00');
    expect(row).toHaveTextContent('by amina');
    expect(row).toHaveTextContent('Paid the wrong agent');
    expect(within(row!).getByText('KES 300.00')).toHaveStyle({ textDecoration: 'line-through' });
  });

  it('says when no agent gave a device or collected a payment in the month', async () => {
    open('/commissions?month=2026-09');
    expect(await screen.findByText('No agent gave a device or collected a payment in September 2026.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Commission' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Voided payouts' })).not.toBeInTheDocument();
  });

  it('says a month that is not over cannot be paid yet, and offers no Mark Paid', async () => {
    open('/commissions?month=2026-12', { months: { '2026-12': { ...NOVEMBER, agents: [buildFigures()] } } });
    const t = await table();
    expect(screen.getByText(`This month is not over yet: its commissions can be paid from ${formatDate(new Date(2027, 0, 1))}.`)).toBeInTheDocument();
    expect(within(cellsOf(t, 'baraka')[5]!).getByText('Unpaid')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Mark Paid/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next month' })).toBeDisabled();
  });

  it('says no commissions are set, leading to Settings', async () => {
    open('/commissions?month=2026-11', { months: { '2026-11': { per_device: '0.00', percent: '0.00', agents: [buildFigures({ commission: '0.00' })] } } });
    const t = await table();
    const alert = screen.getByText(/^No agent commissions are set/).closest('.mantine-Alert-root') as HTMLElement;
    expect(alert).toHaveTextContent('No agent commissions are set: owners and admins set them in Settings, Agent Commissions.');
    expect(within(alert).getByRole('link', { name: 'Settings, Agent Commissions' })).toHaveAttribute('href', '/settings#agent-commissions');
    expect(within(cellsOf(t, 'baraka')[5]!).getByText('Nothing Due')).toBeInTheDocument();
    expect(screen.queryByText(/^This month is not over yet/)).not.toBeInTheDocument();
  });

  it('reads another month when one is chosen, and keeps it in the address', async () => {
    const { calls, user, router } = open();
    await table();
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await waitFor(() => expect(monthCalls(calls)).toEqual(['2026-11', '2026-10']));
    expect(router.state.location.search).toBe('?month=2026-10');
    expect(await screen.findByText('No agent gave a device or collected a payment in October 2026.')).toBeInTheDocument();

    // From the picker.
    await user.click(screen.getByRole('button', { name: 'Month' }));
    await user.click(await screen.findByRole('button', { name: 'Nov' }));
    await waitFor(() => expect(router.state.location.search).toBe('?month=2026-11'));
    expect(within(await table()).getByRole('button', { name: 'Payout history of baraka' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next month' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    await waitFor(() => expect(monthCalls(calls).at(-1)).toBe('2026-12'));
    expect(screen.getByRole('button', { name: 'Next month' })).toBeDisabled();
  });

  it('downloads the month as CSV', async () => {
    const names = captureDownloads();
    const { calls, user } = open();
    await table();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(names).toEqual(['commissions-2026-11.csv']));
    expect(await screen.findByText('Downloaded commissions-2026-11.csv')).toBeInTheDocument();
    expect(exportCalls(calls)).toEqual(['/payg/commissions/export?month=2026-11']);
  });

  it('says when the month cannot be read, with Retry', async () => {
    let fail = true;
    const { user } = open('/commissions?month=2026-11', { extra: (call) => (fail && call.url.startsWith('/payg/commissions?') ? jsonResponse(500, { detail: 'Database unavailable' }) : undefined) });
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(within(await table()).getByRole('button', { name: 'Payout history of baraka' })).toBeInTheDocument();
  });

  it('is not for staff', async () => {
    const { calls } = open('/commissions', { role: 'staff' });
    expect(await screen.findByText('Only owners and admins can see and pay agent commissions.')).toBeInTheDocument();
    expect(sidebarLabels()).not.toContain('Agent Commissions');
    expect(monthCalls(calls)).toEqual([]);
  });
});

describe('Mark Paid', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-06T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("records the agent's commission for the month with the reference and note, says so and reads the month again", async () => {
    const { calls, user } = open();
    const t = await table();
    const reads = monthCalls(calls).length;
    const dialog = await openMarkPaid(user, t);
    expect(within(dialog).getByRole('textbox', { name: 'Agent' })).toHaveValue('baraka');
    expect(within(dialog).getByRole('textbox', { name: 'Month' })).toHaveValue('November 2026');
    expect(within(dialog).getByRole('group', { name: 'Commission' })).toHaveTextContent('KES 1,250.00');
    expect(dialog).toHaveTextContent('An M-Pesa or bank transfer code, a receipt number');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reference/ }), ' QL12MNO345 ');
    await user.type(within(dialog).getByRole('textbox', { name: /^Note/ }), 'Sent from the till');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));

    expect(await screen.findByText('Recorded KES 1,250.00 paid to baraka for 2026-11')).toBeInTheDocument();
    expect(payoutPosts(calls)).toEqual([{ agent: 'baraka', month: '2026-11', reference: 'QL12MNO345', note: 'Sent from the till' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mark Paid' })).not.toBeInTheDocument());
    await waitFor(() => expect(monthCalls(calls).length).toBeGreaterThan(reads));
    await waitFor(() => expect(within(cellsOf(t, 'baraka')[5]!).getByText('Paid')).toBeInTheDocument());
    expect(cellsOf(t, 'baraka')[5]).toHaveTextContent('Ref QL12MNO345');
    expect(screen.getByRole('group', { name: 'Unpaid' })).toHaveTextContent('KES 0.000 agents to pay');
  });

  it('sends no empty reference or note', async () => {
    const { calls, user } = open();
    const dialog = await openMarkPaid(user, await table());
    await user.type(within(dialog).getByRole('textbox', { name: /^Reference/ }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    await waitFor(() => expect(payoutPosts(calls)).toEqual([{ agent: 'baraka', month: '2026-11' }]));
  });

  it('shows the refusal of the API (409) in the red box, keeps the modal open and reads the month again', async () => {
    const detail = 'baraka was already paid for 2026-11: KES 1,250.00 on 5 Dec 2026 by mary';
    const { calls, user } = open('/commissions?month=2026-11', {
      extra: (call) => (call.method === 'POST' && call.url === '/payg/commissions/payouts' ? conflict(detail) : undefined),
    });
    const t = await table();
    const reads = monthCalls(calls).length;
    const dialog = await openMarkPaid(user, t);
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to record the payout');
    expect(alert).toHaveTextContent(detail);
    expect(screen.getByRole('dialog', { name: 'Mark Paid' })).toBeInTheDocument();
    await waitFor(() => expect(monthCalls(calls).length).toBeGreaterThan(reads));
  });

  it('shows a 400 under its field', async () => {
    const { user } = open('/commissions?month=2026-11', {
      extra: (call) => (call.method === 'POST' && call.url === '/payg/commissions/payouts' ? badRequest('reference', 'must be at most 64 characters') : undefined),
    });
    const dialog = await openMarkPaid(user, await table());
    await user.type(within(dialog).getByRole('textbox', { name: /^Reference/ }), 'QL12');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await within(dialog).findByText('Reference must be at most 64 characters')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /^Reference/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Pay All Owed', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-06T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** November with two agents owed: baraka's KES 1,250.00 and juma's KES 300.00. */
  const twoOwed: Record<string, MockMonth> = { '2026-11': { ...NOVEMBER, agents: [...NOVEMBER.agents, buildFigures({ agent: 'juma', commission: '300.00' })] } };

  it('pays every agent owed at once, for the total on screen, with the one reference, and reads the month again', async () => {
    const { calls, user } = open('/commissions?month=2026-11', { months: twoOwed });
    const t = await table();
    await user.click(screen.getByRole('button', { name: 'Pay All Owed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay All Owed' });
    expect(within(dialog).getByRole('group', { name: 'Owed for November 2026' })).toHaveTextContent('KES 1,550.00 to 2 agents');
    const rows = within(within(dialog).getByRole('table', { name: 'Agents to pay' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['barakaKES 1,250.00', 'jumaKES 300.00']);
    await user.type(within(dialog).getByRole('textbox', { name: /^Reference/ }), ' BATCH-1126 ');
    await user.click(within(dialog).getByRole('button', { name: 'Record 2 Payouts' }));

    expect(await screen.findByText('Paid 2 agents their commissions for 2026-11: KES 1,550.00')).toBeInTheDocument();
    expect(payAllPosts(calls)).toEqual([{ month: '2026-11', total: '1550.00', reference: 'BATCH-1126' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pay All Owed' })).not.toBeInTheDocument());
    await waitFor(() => expect(within(cellsOf(t, 'juma')[5]!).getByText('Paid')).toBeInTheDocument());
    expect(cellsOf(t, 'baraka')[5]).toHaveTextContent('Ref BATCH-1126');
    // Nobody is owed now: the button goes.
    expect(screen.queryByRole('button', { name: 'Pay All Owed' })).not.toBeInTheDocument();
  });

  it('shows the refusal of the API (409: the month owes another total now) in the red box, and reads the month again', async () => {
    const detail = 'The commissions owed for November 2026 changed since you looked: 2 agents are owed 1,600.00 now, not 1,550.00.';
    const { calls, user } = open('/commissions?month=2026-11', {
      months: twoOwed,
      extra: (call) => (call.method === 'POST' && call.url === '/payg/commissions/payouts/all' ? conflict(detail) : undefined),
    });
    await table();
    const reads = monthCalls(calls).length;
    await user.click(screen.getByRole('button', { name: 'Pay All Owed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay All Owed' });
    await user.click(within(dialog).getByRole('button', { name: 'Record 2 Payouts' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to record the payouts');
    expect(alert).toHaveTextContent(detail);
    await waitFor(() => expect(monthCalls(calls).length).toBeGreaterThan(reads));
  });

  it('is not offered for a month not over, nor when nobody is owed', async () => {
    open('/commissions?month=2026-12', { months: { '2026-12': { ...NOVEMBER, closed: false } } });
    await table();
    expect(screen.queryByRole('button', { name: 'Pay All Owed' })).not.toBeInTheDocument();
  });
});

describe('Void Payout', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-06T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks why, refusing a reason under 3 characters, then voids: the agent is unpaid again and the payout listed as voided', async () => {
    const { calls, user } = open();
    const t = await table();
    await user.click(within(rowOf(t, 'amina')).getByRole('button', { name: 'Void the payout of amina' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void Payout' });
    expect(dialog).toHaveTextContent('KES 800.00 paid to amina for November 2026');
    const reason = within(dialog).getByRole('textbox', { name: /^Reason/ });
    await user.type(reason, ' ab ');
    await user.click(within(dialog).getByRole('button', { name: 'Void Payout' }));
    expect(await within(dialog).findByText('Reason must say why, in at least 3 characters')).toBeInTheDocument();
    expect(voidPosts(calls)).toEqual([]);

    await user.clear(reason);
    await user.type(reason, '  Paid from the wrong till  ');
    await user.click(within(dialog).getByRole('button', { name: 'Void Payout' }));
    expect(await screen.findByText('Voided the payout of KES 800.00 to amina for 2026-11')).toBeInTheDocument();
    expect(voidPosts(calls)).toEqual([{ url: '/payg/commissions/payouts/11/void', body: { reason: 'Paid from the wrong till' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Void Payout' })).not.toBeInTheDocument());
    await waitFor(() => expect(within(cellsOf(t, 'amina')[5]!).getByText('Unpaid')).toBeInTheDocument());
    expect(within(rowOf(t, 'amina')).getByRole('button', { name: 'Mark Paid: amina' })).toBeInTheDocument();
    const voided = screen.getByRole('region', { name: 'Voided payouts' });
    expect(voided).toHaveTextContent('Paid from the wrong till');
  });

  it("shows the API's word on the reason under it", async () => {
    const { user } = open('/commissions?month=2026-11', {
      extra: (call) => (call.method === 'POST' && call.url.endsWith('/void') ? badRequest('reason', 'must be at most 200 characters') : undefined),
    });
    const t = await table();
    await user.click(within(rowOf(t, 'amina')).getByRole('button', { name: 'Void the payout of amina' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void Payout' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Recorded twice');
    await user.click(within(dialog).getByRole('button', { name: 'Void Payout' }));
    expect(await within(dialog).findByText('Reason must be at most 200 characters')).toBeInTheDocument();
  });
});

describe('Payout history', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-06T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("opens from the agent's name: every month paid, newest first, with the total paid; in the address", async () => {
    const { calls, user, router } = open();
    const t = await table();
    await user.click(within(t).getByRole('button', { name: 'Payout history of amina' }));
    const drawer = await screen.findByRole('dialog', { name: "amina's payouts" });
    const history = await within(drawer).findByRole('table', { name: 'Payout history' });
    await waitFor(() => expect(within(history).getAllByRole('row')).toHaveLength(3));
    expect(historyCalls(calls)).toEqual(['/payg/commissions/payouts?agent=amina&page=1&limit=25']);
    expect(router.state.location.search).toBe('?month=2026-11&agent=amina');
    const [november, october] = within(history).getAllByRole('row').slice(1);
    expect(november).toHaveTextContent('November 2026');
    expect(november).toHaveTextContent('KES 800.00');
    expect(november).toHaveTextContent('QK71ABC123');
    expect(november).toHaveTextContent('by mary');
    expect(october).toHaveTextContent('October 2026');
    expect(october).toHaveTextContent('KES 600.00');
    expect(within(drawer).getByRole('group', { name: 'Total Paid' })).toHaveTextContent('KES 1,400.00');
    expect(within(drawer).getByRole('group', { name: 'Payouts' })).toHaveTextContent('2');
  });

  it('strikes a voided payout through, with who voided it and why, and leaves it out of the total', async () => {
    const { user } = open();
    await user.click(within(await table()).getByRole('button', { name: 'Payout history of otieno' }));
    const drawer = await screen.findByRole('dialog', { name: "otieno's payouts" });
    expect(await within(drawer).findByText('Voided by amina: Paid the wrong agent')).toBeInTheDocument();
    expect(within(drawer).getByText('November 2026')).toHaveStyle({ textDecoration: 'line-through' });
    expect(within(drawer).getByText('KES 300.00')).toHaveStyle({ textDecoration: 'line-through' });
    expect(within(drawer).getByRole('group', { name: 'Total Paid' })).toHaveTextContent('KES 0.00');
    expect(within(drawer).queryByRole('button', { name: /^Void/ })).not.toBeInTheDocument();
  });

  it('voids a payout of another month from there', async () => {
    const { calls, user } = open();
    await user.click(within(await table()).getByRole('button', { name: 'Payout history of amina' }));
    const drawer = await screen.findByRole('dialog', { name: "amina's payouts" });
    await user.click(await within(drawer).findByRole('button', { name: 'Void the payout for October 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void Payout' });
    expect(dialog).toHaveTextContent('KES 600.00 paid to amina for October 2026');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Recorded twice');
    await user.click(within(dialog).getByRole('button', { name: 'Void Payout' }));
    await waitFor(() => expect(voidPosts(calls)).toEqual([{ url: '/payg/commissions/payouts/7/void', body: { reason: 'Recorded twice' } }]));
    expect(await within(drawer).findByText('Voided by amina: Recorded twice')).toBeInTheDocument();
    expect(within(drawer).getByRole('group', { name: 'Total Paid' })).toHaveTextContent('KES 800.00');
  });

  it('pages through 25 payouts at a time', async () => {
    const many = Array.from({ length: 30 }, (_, i) => buildPayout({ payout_id: 100 + i, month: `20${String(24 - Math.floor(i / 12)).padStart(2, '0')}-${String(12 - (i % 12)).padStart(2, '0')}` }));
    const api = mockCommissionsApi(undefined, undefined, many);
    seedSession({ user: buildUser({ role: 'admin' }) });
    renderApp('/commissions?month=2026-11&agent=amina');
    const user = userEvent.setup();
    const drawer = await screen.findByRole('dialog', { name: "amina's payouts" });
    const history = await within(drawer).findByRole('table', { name: 'Payout history' });
    await waitFor(() => expect(within(history).getAllByRole('row')).toHaveLength(26));
    expect(within(drawer).getByText('Showing 1 to 25 of 30 payouts')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(history).getAllByRole('row')).toHaveLength(6));
    expect(historyCalls(api.calls).at(-1)).toBe('/payg/commissions/payouts?agent=amina&page=2&limit=25');
  });
});
