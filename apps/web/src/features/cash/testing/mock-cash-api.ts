import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import type { CashCollector, CashHandoverInput, CashHandoverReply, CashLedgerEntry, CashLedgerReply, CashSummary } from '../api/types';

/** baraka, a field agent: KES 1,200.00 in hand since 27 Nov, 9 days, overdue. */
export function buildCollector(overrides: Partial<CashCollector> = {}): CashCollector {
  return {
    username: 'baraka',
    role: 'staff',
    is_active: true,
    currency: 'KES',
    collected: '5000.00',
    collected_count: 3,
    handed_over: '3800.00',
    handover_count: 1,
    in_hand: '1200.00',
    held_since: '2026-11-27T10:15:00Z',
    days_held: 9,
    overdue: true,
    last_collected_at: '2026-11-27T10:15:00Z',
    last_handover_at: '2026-11-26T16:00:00Z',
    ...overrides,
  };
}

/** The collectors the mock answers by default: baraka (overdue), amina (an admin, 1 day) and wanjiku (gone, holding nothing). */
export const COLLECTORS: CashCollector[] = [
  buildCollector(),
  buildCollector({
    username: 'amina',
    role: 'admin',
    collected: '800.00',
    collected_count: 1,
    handed_over: '0.00',
    handover_count: 0,
    in_hand: '800.00',
    held_since: '2026-12-05T11:00:00Z',
    days_held: 1,
    overdue: false,
    last_collected_at: '2026-12-05T11:00:00Z',
    last_handover_at: null,
  }),
  buildCollector({
    username: 'wanjiku',
    role: null,
    is_active: null,
    collected: '2000.00',
    collected_count: 2,
    handed_over: '2000.00',
    handover_count: 2,
    in_hand: '0.00',
    held_since: null,
    days_held: null,
    overdue: false,
    last_collected_at: '2026-10-02T09:00:00Z',
    last_handover_at: '2026-10-03T15:30:00Z',
  }),
];

const ENTRY: CashLedgerEntry = {
  kind: 'payment',
  id: 0,
  at: '2026-11-20T08:00:00Z',
  currency: 'KES',
  amount: '0.00',
  in_hand_after: '0.00',
  serial_number: null,
  item_id: null,
  customer_id: null,
  customer_name: null,
  payment_status: null,
  recorded_by: null,
  reference: null,
  received_by: null,
  note: null,
  voided_at: null,
  voided_by: null,
  void_reason: null,
};

/** A cash payment for Amina Wanjiru's SN-1001. */
export const buildPaymentEntry = (overrides: Partial<CashLedgerEntry> = {}): CashLedgerEntry => ({
  ...ENTRY,
  kind: 'payment',
  id: 500,
  amount: '2000.00',
  in_hand_after: '2000.00',
  serial_number: 'SN-1001',
  item_id: 11,
  customer_id: 42,
  customer_name: 'Amina Wanjiru',
  payment_status: 'completed',
  ...overrides,
});

/** A handover received by amina. */
export const buildHandoverEntry = (overrides: Partial<CashLedgerEntry> = {}): CashLedgerEntry => ({
  ...ENTRY,
  kind: 'handover',
  id: 31,
  amount: '-3800.00',
  received_by: 'amina',
  ...overrides,
});

/** baraka's ledger, newest first: a payment, a handover banked, a payment held off its device, a voided handover, the first payment. */
export const BARAKA_LEDGER: CashLedgerEntry[] = [
  buildPaymentEntry({ id: 501, at: '2026-11-27T10:15:00Z', amount: '1200.00', in_hand_after: '1200.00', reference: 'RCPT-0042' }),
  buildHandoverEntry({ id: 31, at: '2026-11-26T16:00:00Z', amount: '-3800.00', in_hand_after: '0.00', reference: 'SLIP-7781', note: 'Banked at Equity Nakuru' }),
  buildPaymentEntry({
    id: 502,
    at: '2026-11-25T09:30:00Z',
    amount: '1800.00',
    in_hand_after: '3800.00',
    serial_number: 'SN-1002',
    item_id: 12,
    customer_id: 43,
    customer_name: 'Peter Kamau',
    payment_status: 'pending',
    // A clerk entered baraka's receipt.
    recorded_by: 'wanjiku',
  }),
  buildHandoverEntry({
    id: 30,
    at: '2026-11-21T12:00:00Z',
    amount: '-2000.00',
    in_hand_after: '2000.00',
    voided_at: '2026-11-21T12:30:00Z',
    voided_by: 'mary',
    void_reason: 'Recorded twice',
  }),
  buildPaymentEntry({ id: 500, at: '2026-11-20T08:00:00Z', amount: '2000.00', in_hand_after: '2000.00' }),
];

const cents = (money: string | number) => Math.round(Number(money) * 100);
const money = (c: number) => (c / 100).toFixed(2);
/** "KES 1,200.00", as the API words amounts in its messages. */
export const said = (amount: string | number, currency: string) =>
  `${currency} ${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The totals GET /cash answers: by currency, over the collectors listed. */
export function totalsOf(collectors: CashCollector[]): CashSummary['totals'] {
  const by = new Map<string, { collected: number; handed_over: number; in_hand: number }>();
  for (const c of collectors) {
    const t = by.get(c.currency) ?? { collected: 0, handed_over: 0, in_hand: 0 };
    t.collected += cents(c.collected);
    t.handed_over += cents(c.handed_over);
    t.in_hand += cents(c.in_hand);
    by.set(c.currency, t);
  }
  return [...by].map(([currency, t]) => ({ currency, collected: money(t.collected), handed_over: money(t.handed_over), in_hand: money(t.in_hand) }));
}

export type Handler = (call: RecordedCall) => Response | undefined;

/** A 400 of the API naming `field`, as its validation answers. */
export const badRequest = (field: string, message: string) =>
  jsonResponse(400, { detail: `${field}: ${message}`, message: `${field}: ${message}`, errors: [{ field, message }] });

/** A 409 of the API. */
export const conflict = (detail: string) => jsonResponse(409, { detail, message: detail });

const notFound = (detail: string) => jsonResponse(404, { detail, message: detail });

/**
 * The API of the screen, keeping the cash as the server would: GET /cash
 * answers `collectors` with their totals; GET /cash/{username}/ledger answers
 * `ledgers[username]` newest first, of the currency asked, paged (25 by
 * default), with the collector's balances, and 404 for a username without a
 * ledger; POST /cash/handovers takes cash off the collector (400 on the amount
 * when it is more than they hold) and adds the handover to their ledger; POST
 * /cash/handovers/{id}/void gives it back (409 when voided already). Every
 * write is received by amina. `extra` answers anything first.
 */
export function mockCashApi(
  collectors: CashCollector[] = COLLECTORS,
  extra: Handler = () => undefined,
  ledgers: Record<string, CashLedgerEntry[]> = { baraka: BARAKA_LEDGER },
) {
  const state = {
    collectors: collectors.map((c) => ({ ...c })),
    ledgers: Object.fromEntries(Object.entries(ledgers).map(([u, entries]) => [u, entries.map((e) => ({ ...e }))])) as Record<string, CashLedgerEntry[]>,
    /** What each handover recorded here took, so voiding it gives it back (a voided entry keeps its amount; in_hand_after leaves it out). */
    handed: new Map<number, { username: string; amount: string; currency: string; at: string }>(),
    nextHandoverId: 90,
  };
  for (const [username, entries] of Object.entries(state.ledgers)) {
    for (const e of entries) if (e.kind === 'handover' && !e.voided_at) state.handed.set(e.id, { username, amount: e.amount.replace('-', ''), currency: e.currency, at: e.at });
  }
  const rowOf = (username: string, currency: string) => state.collectors.find((c) => c.username === username && c.currency === currency);
  const replace = (row: CashCollector) => {
    state.collectors = state.collectors.map((c) => (c.username === row.username && c.currency === row.currency ? row : c));
  };
  const handover = (id: number, input: { username: string; amount: string; currency: string; at: string; reference?: string | null; note?: string | null }) => ({
    handover_id: id,
    collector: input.username,
    amount: input.amount,
    currency: input.currency,
    handed_at: input.at,
    received_by: 'amina',
    reference: input.reference ?? null,
    note: input.note ?? null,
    created_at: input.at,
    voided_at: null as string | null,
    voided_by: null as string | null,
    void_reason: null as string | null,
  });

  const api = mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.url === '/payg/cash' && call.method === 'GET') {
      const reply: CashSummary = { data: state.collectors, totals: totalsOf(state.collectors), overdue_days: 3 };
      return jsonResponse(200, reply);
    }
    const ledgerOf = /^\/payg\/cash\/([^/?]+)\/ledger(?:\?|$)/.exec(call.url);
    if (ledgerOf && call.method === 'GET') {
      const username = decodeURIComponent(ledgerOf[1]!);
      const entries = state.ledgers[username];
      if (!entries) return notFound(`No cash recorded by ${username}`);
      const q = new URL(call.url, 'http://x').searchParams;
      const page = Number(q.get('page') ?? 1);
      const limit = Number(q.get('limit') ?? 25);
      const currency = q.get('currency');
      const all = entries.filter((e) => !currency || e.currency === currency);
      const reply: CashLedgerReply = {
        username,
        balances: state.collectors.filter((c) => c.username === username),
        data: all.slice((page - 1) * limit, page * limit),
        pagination: { total: all.length, total_pages: Math.ceil(all.length / limit), page, limit },
      };
      return jsonResponse(200, reply);
    }
    if (call.url === '/payg/cash/handovers' && call.method === 'POST') {
      const body = JSON.parse(call.body!) as CashHandoverInput;
      const row = state.collectors.find((c) => c.username === body.collector && (!body.currency || c.currency === body.currency));
      if (!row) return badRequest('collector', `${body.collector} holds no cash`);
      const amount = cents(String(body.amount));
      if (amount > cents(row.in_hand)) return badRequest('amount', `must be at most ${row.in_hand}: ${row.username} holds ${said(row.in_hand, row.currency)}`);
      const at = body.handed_at ?? '2026-12-06T10:00:00Z';
      const after: CashCollector = {
        ...row,
        handed_over: money(cents(row.handed_over) + amount),
        handover_count: row.handover_count + 1,
        in_hand: money(cents(row.in_hand) - amount),
        overdue: cents(row.in_hand) - amount > 0 && row.overdue,
        days_held: cents(row.in_hand) - amount > 0 ? row.days_held : null,
        held_since: cents(row.in_hand) - amount > 0 ? row.held_since : null,
        last_handover_at: at,
      };
      replace(after);
      const id = state.nextHandoverId++;
      state.handed.set(id, { username: row.username, amount: money(amount), currency: row.currency, at });
      state.ledgers[row.username] = [
        { ...buildHandoverEntry({ id, at, currency: row.currency, amount: `-${money(amount)}`, in_hand_after: after.in_hand }), reference: body.reference ?? null, note: body.note ?? null },
        ...(state.ledgers[row.username] ?? []),
      ];
      const reply: CashHandoverReply = {
        message: `Recorded ${said(money(amount), row.currency)} handed over by ${row.username}: they hold ${said(after.in_hand, row.currency)} now`,
        handover: handover(id, { username: row.username, amount: money(amount), currency: row.currency, at, reference: body.reference, note: body.note }),
        collector: after,
      };
      return jsonResponse(201, reply);
    }
    const voidOf = /^\/payg\/cash\/handovers\/(\d+)\/void$/.exec(call.url);
    if (voidOf && call.method === 'POST') {
      const id = Number(voidOf[1]);
      const { reason } = JSON.parse(call.body!) as { reason: string };
      const voided = Object.values(state.ledgers).some((entries) => entries.some((e) => e.kind === 'handover' && e.id === id && e.voided_at));
      if (voided) return conflict('This handover was voided already');
      const h = state.handed.get(id);
      if (!h) return notFound('Handover not found');
      const row = rowOf(h.username, h.currency)!;
      const after: CashCollector = { ...row, handed_over: money(cents(row.handed_over) - cents(h.amount)), handover_count: row.handover_count - 1, in_hand: money(cents(row.in_hand) + cents(h.amount)) };
      replace(after);
      state.handed.delete(id);
      state.ledgers[h.username] = state.ledgers[h.username]!.map((e) =>
        e.kind === 'handover' && e.id === id ? { ...e, voided_at: '2026-12-06T10:05:00Z', voided_by: 'amina', void_reason: reason } : e,
      );
      const reply: CashHandoverReply = {
        message: `Voided the handover of ${said(h.amount, h.currency)} by ${h.username}: they hold ${said(after.in_hand, h.currency)} now`,
        handover: { ...handover(id, { username: h.username, amount: h.amount, currency: h.currency, at: h.at }), voided_at: '2026-12-06T10:05:00Z', voided_by: 'amina', void_reason: reason },
        collector: after,
      };
      return jsonResponse(200, reply);
    }
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    return notFound('Not found');
  });
  return { ...api, state };
}

/** The bodies POSTed to /cash/handovers, parsed. */
export const handoverPosts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/cash/handovers').map((c) => JSON.parse(c.body!) as CashHandoverInput);

/** The void calls: the URL and the parsed body. */
export const voidPosts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && /^\/payg\/cash\/handovers\/\d+\/void$/.test(c.url)).map((c) => ({ url: c.url, body: JSON.parse(c.body!) as unknown }));

/** The GET /cash/{username}/ledger URLs called. */
export const ledgerCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && /^\/payg\/cash\/[^/]+\/ledger/.test(c.url)).map((c) => c.url);

/** The GET /cash calls made. */
export const summaryCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url === '/payg/cash');
