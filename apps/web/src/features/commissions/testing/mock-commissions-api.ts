import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import type {
  CommissionAgent,
  CommissionMonth,
  CommissionPayAllInput,
  CommissionPayAllReply,
  CommissionPayout,
  CommissionPayoutInput,
  CommissionPayoutList,
  CommissionPayoutReply,
} from '../api/types';

/**
 * The figures an agent's month is reckoned from; the mock works out the
 * rest (status, payout, difference) from the payouts it keeps.
 */
export type AgentFigures = Pick<CommissionAgent, 'agent' | 'devices_given' | 'payments' | 'revenue' | 'commission'>;

/** What the mock knows of a month: its settings and its agents' figures. Closed unless told (the mock's today is in December 2026). */
export interface MockMonth {
  per_device: string;
  percent: string;
  closed?: boolean;
  agents: AgentFigures[];
}

/** KES 500.00 a device and 2.5% of the payments: baraka's 2 devices and KES 10,000.00 collected make KES 1,250.00. */
export const buildFigures = (overrides: Partial<AgentFigures> = {}): AgentFigures => ({
  agent: 'baraka',
  devices_given: 2,
  payments: 4,
  revenue: '10000.00',
  commission: '1250.00',
  ...overrides,
});

/** November 2026, over: baraka unpaid, amina paid, wanjiku paid KES 400.00 of KES 650.00 reckoned now, otieno nothing due. */
export const NOVEMBER: MockMonth = {
  per_device: '500.00',
  percent: '2.50',
  agents: [
    buildFigures(),
    buildFigures({ agent: 'amina', devices_given: 1, payments: 3, revenue: '12000.00', commission: '800.00' }),
    buildFigures({ agent: 'wanjiku', devices_given: 1, payments: 2, revenue: '6000.00', commission: '650.00' }),
    buildFigures({ agent: 'otieno', devices_given: 0, payments: 0, revenue: '0.00', commission: '0.00' }),
  ],
};

/** A payout as the API answers one: amina's for November 2026, paid by mary. */
export function buildPayout(overrides: Partial<CommissionPayout> = {}): CommissionPayout {
  return {
    payout_id: 11,
    agent: 'amina',
    month: '2026-11',
    devices_given: 1,
    payments: 3,
    revenue: '12000.00',
    per_device: '500.00',
    percent: '2.50',
    amount: '800.00',
    reference: 'QK71ABC123',
    note: null,
    paid_by: 'mary',
    paid_at: '2026-12-02T09:00:00Z',
    voided_at: null,
    voided_by: null,
    void_reason: null,
    ...overrides,
  };
}

/** The payouts the mock starts with, newest month first: amina's and wanjiku's for November, otieno's voided, amina's for October. */
export const PAYOUTS: CommissionPayout[] = [
  buildPayout(),
  buildPayout({ payout_id: 12, agent: 'wanjiku', amount: '400.00', devices_given: 1, payments: 2, revenue: '6000.00', reference: null, note: 'Cash at the Nakuru shop', paid_at: '2026-12-01T15:30:00Z' }),
  buildPayout({
    payout_id: 10,
    agent: 'otieno',
    amount: '300.00',
    reference: 'QK70XYZ999',
    paid_at: '2026-12-01T08:00:00Z',
    voided_at: '2026-12-01T08:20:00Z',
    voided_by: 'amina',
    void_reason: 'Paid the wrong agent',
  }),
  buildPayout({ payout_id: 7, month: '2026-10', amount: '600.00', reference: 'QJ30DEF456', paid_at: '2026-11-03T10:00:00Z' }),
];

const cents = (money: string | number) => Math.round(Number(money) * 100);
const money = (c: number) => (c / 100).toFixed(2);
/** "KES 1,250.00", as the API words amounts in its messages. */
export const said = (amount: string | number) =>
  `KES ${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export type Handler = (call: RecordedCall) => Response | undefined;

/** A 400 of the API naming `field`, as its validation answers. */
export const badRequest = (field: string, message: string) =>
  jsonResponse(400, { detail: `${field}: ${message}`, message: `${field}: ${message}`, errors: [{ field, message }] });

/** A 409 of the API. */
export const conflict = (detail: string) => jsonResponse(409, { detail, message: detail });

const notFound = (detail: string) => jsonResponse(404, { detail, message: detail });

/** The month after `month`'s first day: "2026-12-01" for '2026-11'. */
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/**
 * The API of the screen, keeping the payouts as the server would: GET
 * /commissions?month= answers `months[month]` (an empty month when it knows
 * none, over before December 2026) with each agent's status, payout and
 * difference worked out from the standing payouts, its totals and its voided
 * payouts; POST /commissions/payouts pays an agent their commission now (409
 * when the month is not over, the agent was paid, or nothing is due); POST
 * /commissions/payouts/{id}/void voids one (409 when voided already); GET
 * /commissions/payouts?agent= pages an agent's payouts, newest month first;
 * GET /commissions/export answers a CSV. Every write is made by amina; the
 * organization is paid in KES. `extra` answers anything first.
 */
export function mockCommissionsApi(
  months: Record<string, MockMonth> = { '2026-11': NOVEMBER },
  extra: Handler = () => undefined,
  payouts: CommissionPayout[] = PAYOUTS,
) {
  const state = {
    months: Object.fromEntries(Object.entries(months).map(([m, v]) => [m, { ...v, agents: v.agents.map((a) => ({ ...a })) }])) as Record<string, MockMonth>,
    payouts: payouts.map((p) => ({ ...p })),
    nextPayoutId: 90,
  };
  const monthOf = (month: string): MockMonth => state.months[month] ?? { per_device: '500.00', percent: '2.50', agents: [] };
  const closed = (month: string) => monthOf(month).closed ?? month < '2026-12';
  const standing = (agent: string, month: string) => state.payouts.find((p) => p.agent === agent && p.month === month && p.voided_at === null) ?? null;

  const reply = (month: string): CommissionMonth => {
    const m = monthOf(month);
    const data: CommissionAgent[] = m.agents.map((a) => {
      const payout = standing(a.agent, month);
      return {
        ...a,
        status: payout ? 'paid' : cents(a.commission) > 0 ? 'unpaid' : 'nothing_due',
        payout,
        difference: payout && cents(payout.amount) !== cents(a.commission) ? money(cents(a.commission) - cents(payout.amount)) : null,
      };
    });
    const paid = data.filter((a) => a.payout);
    const unpaid = data.filter((a) => a.status === 'unpaid');
    return {
      month,
      from: `${month}-01T00:00:00+03:00`,
      until: `${nextMonth(month)}-01T00:00:00+03:00`,
      closed: closed(month),
      reckoned_at: new Date().toISOString(),
      per_device: m.per_device,
      percent: m.percent,
      data,
      totals: {
        commission: money(data.reduce((s, a) => s + cents(a.commission), 0)),
        paid: money(paid.reduce((s, a) => s + cents(a.payout!.amount), 0)),
        unpaid: money(unpaid.reduce((s, a) => s + cents(a.commission), 0)),
        paid_count: paid.length,
        unpaid_count: unpaid.length,
      },
      voided: state.payouts.filter((p) => p.month === month && p.voided_at !== null),
    };
  };

  const api = mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    const url = new URL(call.url, 'http://x');
    const q = url.searchParams;
    if (url.pathname === '/payg/commissions' && call.method === 'GET') return jsonResponse(200, reply(q.get('month') ?? ''));
    if (url.pathname === '/payg/commissions/export' && call.method === 'GET') {
      const month = q.get('month') ?? '';
      return new Response('\uFEFFmonth,agent\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="commissions-${month}.csv"` },
      });
    }
    if (url.pathname === '/payg/commissions/payouts' && call.method === 'GET') {
      const agent = q.get('agent');
      const page = Number(q.get('page') ?? 1);
      const limit = Number(q.get('limit') ?? 25);
      const all = state.payouts.filter((p) => !agent || p.agent === agent).sort((a, b) => b.month.localeCompare(a.month) || b.paid_at.localeCompare(a.paid_at));
      const list: CommissionPayoutList = {
        data: all.slice((page - 1) * limit, page * limit),
        total_paid: money(all.filter((p) => p.voided_at === null).reduce((s, p) => s + cents(p.amount), 0)),
        pagination: { total: all.length, total_pages: Math.ceil(all.length / limit), page, limit },
      };
      return jsonResponse(200, list);
    }
    if (url.pathname === '/payg/commissions/payouts' && call.method === 'POST') {
      const body = JSON.parse(call.body!) as CommissionPayoutInput;
      const figures = monthOf(body.month).agents.find((a) => a.agent === body.agent);
      if (!closed(body.month)) return conflict(`The month is not over yet: its commissions can be paid from ${nextMonth(body.month)}-01`);
      if (standing(body.agent, body.month)) return conflict(`${body.agent} was already paid for ${body.month}`);
      if (!figures || cents(figures.commission) <= 0) return conflict(`Nothing to pay ${body.agent} for ${body.month}: their commission is 0`);
      const payout = buildPayout({
        payout_id: state.nextPayoutId++,
        agent: body.agent,
        month: body.month,
        devices_given: figures.devices_given,
        payments: figures.payments,
        revenue: figures.revenue,
        amount: figures.commission,
        reference: body.reference ?? null,
        note: body.note ?? null,
        paid_by: 'amina',
        paid_at: '2026-12-06T10:00:00Z',
      });
      state.payouts = [payout, ...state.payouts];
      const answer: CommissionPayoutReply = { message: `Recorded ${said(payout.amount)} paid to ${body.agent} for ${body.month}`, payout };
      return jsonResponse(201, answer);
    }
    if (url.pathname === '/payg/commissions/payouts/all' && call.method === 'POST') {
      const body = JSON.parse(call.body!) as CommissionPayAllInput;
      if (!closed(body.month)) return conflict(`The month is not over yet: its commissions can be paid from ${nextMonth(body.month)}-01`);
      const owed = monthOf(body.month).agents.filter((a) => !standing(a.agent, body.month) && cents(a.commission) > 0);
      if (!owed.length) return conflict(`Nothing to pay: no agent is owed a commission for ${body.month}`);
      const total = owed.reduce((s, a) => s + cents(a.commission), 0);
      if (total !== cents(body.total as string | number)) return conflict(`The commissions owed for ${body.month} changed since you looked: ${said(money(total))} now`);
      const made = owed.map((a) =>
        buildPayout({
          payout_id: state.nextPayoutId++,
          agent: a.agent,
          month: body.month,
          devices_given: a.devices_given,
          payments: a.payments,
          revenue: a.revenue,
          amount: a.commission,
          reference: body.reference ?? null,
          note: body.note ?? null,
          paid_by: 'amina',
          paid_at: '2026-12-06T10:00:00Z',
        }),
      );
      state.payouts = [...made, ...state.payouts];
      const answer: CommissionPayAllReply = { message: `Paid ${made.length} agents their commissions for ${body.month}: ${said(money(total))}`, payouts: made, total: money(total) };
      return jsonResponse(201, answer);
    }
    const voidOf = /^\/payg\/commissions\/payouts\/(\d+)\/void$/.exec(url.pathname);
    if (voidOf && call.method === 'POST') {
      const id = Number(voidOf[1]);
      const { reason } = JSON.parse(call.body!) as { reason: string };
      const payout = state.payouts.find((p) => p.payout_id === id);
      if (!payout) return notFound('Payout not found');
      if (payout.voided_at) return conflict('This payout was voided already');
      const voided = { ...payout, voided_at: '2026-12-06T10:05:00Z', voided_by: 'amina', void_reason: reason };
      state.payouts = state.payouts.map((p) => (p.payout_id === id ? voided : p));
      const answer: CommissionPayoutReply = { message: `Voided the payout of ${said(payout.amount)} to ${payout.agent} for ${payout.month}`, payout: voided };
      return jsonResponse(200, answer);
    }
    // The organization's currency (useOrganizationCurrency): its latest payment's.
    if (url.pathname === '/payg/payments' && call.method === 'GET') return jsonResponse(200, { data: [{ currency: 'KES' }] });
    if (url.pathname.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    return notFound('Not found');
  });
  return { ...api, state };
}

/** The months GET /commissions was asked for, in order. */
export const monthCalls = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/commissions?')).map((c) => new URL(c.url, 'http://x').searchParams.get('month'));

/** The bodies POSTed to /commissions/payouts, parsed. */
export const payoutPosts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/commissions/payouts').map((c) => JSON.parse(c.body!) as unknown);

/** The bodies POSTed to /commissions/payouts/all, parsed. */
export const payAllPosts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/commissions/payouts/all').map((c) => JSON.parse(c.body!) as unknown);

/** The void calls: the URL and the parsed body. */
export const voidPosts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && /^\/payg\/commissions\/payouts\/\d+\/void$/.test(c.url)).map((c) => ({ url: c.url, body: JSON.parse(c.body!) as unknown }));

/** The GET /commissions/payouts URLs called (an agent's history). */
export const historyCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/commissions/payouts')).map((c) => c.url);

/** The GET /commissions/export URLs called. */
export const exportCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/commissions/export')).map((c) => c.url);
