import dayjs from 'dayjs';
import { NO_AGENT } from '@kidogo/contracts';
import { providersHandler } from '@/features/mpesa-express/testing/mock-mpesa-express-api';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import type { CollectionAccount, Contact, PromiseRow, PromisesSummaryReply } from '../api/types';

/** The browser's day plus `offset` days, YYYY-MM-DD: a promise's day, or the server's today. */
export const day = (offset = 0) => dayjs().add(offset, 'day').format('YYYY-MM-DD');

export function buildAccount(overrides: Partial<CollectionAccount> = {}): CollectionAccount {
  return {
    item_id: 1,
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    phone_number: '0712 345 678',
    sms_opted_out: false,
    credit_until: '2026-11-20T09:00:00Z',
    out_of_credit_since: '2026-11-20T09:00:00Z',
    days_without_credit: 12,
    bucket: '8-30',
    last_payment_at: '2026-11-10T09:00:00Z',
    last_payment_amount: '500.00',
    total_paid: '1500.00',
    template_name: 'Daily 50',
    daily_price: '50.00',
    currency: 'KES',
    remaining: '10500.00',
    last_contact: null,
    open_ticket: null,
    ...overrides,
  };
}

export function buildContact(overrides: Partial<Contact> = {}): Contact {
  return {
    contact_id: 9,
    item_id: 1,
    customer_id: 42,
    outcome: 'no_answer',
    note: null,
    promised_on: null,
    contacted_by: 'amina',
    created_at: '2026-11-24T08:30:00Z',
    paid_at: null,
    promise_status: overrides.outcome === 'promised_to_pay' ? 'upcoming' : null,
    ...overrides,
  };
}

export function buildPromise(overrides: Partial<PromiseRow> = {}): PromiseRow {
  return {
    contact: buildContact({ contact_id: 20, outcome: 'promised_to_pay', promised_on: day(3), note: 'Pays after market day', contacted_by: 'amina' }),
    status: 'upcoming',
    item_id: 1,
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    phone_number: '0712 345 678',
    sms_opted_out: false,
    days_without_credit: 12,
    paid_at: null,
    paid_amount: null,
    ...overrides,
  };
}

export const SUMMARY = {
  open_accounts: 40,
  out_of_credit: 6,
  buckets: [
    { bucket: '0-7', label: '0–7 days', devices: 1, outstanding: '9000.00' },
    { bucket: '8-30', label: '8–30 days', devices: 3, outstanding: '25500.00' },
    { bucket: '31-90', label: '31–90 days', devices: 2, outstanding: '18000.00' },
    { bucket: 'over-90', label: 'Over 90 days', devices: 0, outstanding: '0.00' },
  ],
  outstanding: '360000.00',
  portfolio_at_risk_30: 0.05,
  as_of: '2026-11-25T10:00:00Z',
  // The browser's day: the tests of the form type days relative to it.
  today: day(),
};

/** One agent's counts (GET /collections/summary?agent=): 2 of their 9 open accounts out of credit. */
export const AGENT_SUMMARY = {
  ...SUMMARY,
  open_accounts: 9,
  out_of_credit: 2,
  buckets: [
    { bucket: '0-7', label: '0–7 days', devices: 0, outstanding: '0.00' },
    { bucket: '8-30', label: '8–30 days', devices: 2, outstanding: '17000.00' },
    { bucket: '31-90', label: '31–90 days', devices: 0, outstanding: '0.00' },
    { bucket: 'over-90', label: 'Over 90 days', devices: 0, outstanding: '0.00' },
  ],
  outstanding: '81000.00',
  portfolio_at_risk_30: 0,
};

/** GET /collections/agents: two agents, and customers without one. */
export const AGENTS = ['AGT-001', 'AGT-002', NO_AGENT];

/** 11 promises, 4 of the 7 settled kept. */
export const PROMISES_SUMMARY: PromisesSummaryReply['data'] = {
  today: day(),
  from: day(-90),
  counts: { due: 1, broken: 2, upcoming: 3, kept: 4, paid_late: 1 },
  kept_rate: 57.1,
};

export type Handler = (call: RecordedCall) => Response | undefined;

const pageOf = (items: unknown[], page: number, total?: number) => {
  const count = total ?? items.length;
  return { items, pagination: { total: count, total_pages: Math.ceil(count / 20), page, limit: 20 } };
};

/** GET /collections/promises (`rows(status, page)`, `total` promises in all) and GET /collections/promises/summary. */
export const promisesHandler =
  (rows: (status: string, page: number) => PromiseRow[] = () => [buildPromise()], total?: number) =>
  (call: RecordedCall): Response => {
    if (call.url.startsWith('/payg/collections/promises/summary')) return jsonResponse(200, { data: PROMISES_SUMMARY });
    const q = new URL(call.url, 'http://x').searchParams;
    const page = Number(q.get('page'));
    return jsonResponse(200, { data: pageOf(rows(q.get('status') ?? 'all', page), page, total) });
  };

/**
 * The API of the screen: `rows(bucket, page, agent)` answers GET /collections
 * (agent null without one), `extra` anything first. The counts are SUMMARY,
 * one agent's AGENT_SUMMARY; the agents AGENTS. A device's contacts answer
 * empty unless `extra` says otherwise; the promises, one upcoming promise
 * unless `promises` does. Ask to Pay finds M-Pesa Express ready.
 */
export function mockCollectionsApi(
  rows: (bucket: string, page: number, agent: string | null) => CollectionAccount[] = () => [buildAccount()],
  extra: Handler = () => undefined,
  total?: number,
  promises: (call: RecordedCall) => Response = promisesHandler(),
) {
  return mockFetch((call) => {
    const hit = extra(call) ?? providersHandler()(call);
    if (hit) return hit;
    if (call.url.startsWith('/payg/collections/summary')) {
      const agent = new URL(call.url, 'http://x').searchParams.get('agent');
      return jsonResponse(200, { data: agent === null ? SUMMARY : AGENT_SUMMARY });
    }
    if (call.url === '/payg/collections/agents') return jsonResponse(200, { data: { agents: AGENTS, truncated: false } });
    if (call.url.startsWith('/payg/collections/promises')) return promises(call);
    if (call.url.startsWith('/payg/collections?')) {
      const q = new URL(call.url, 'http://x').searchParams;
      const page = Number(q.get('page'));
      return jsonResponse(200, { data: pageOf(rows(q.get('bucket') ?? 'all', page, q.get('agent')), page, total) });
    }
    if (/^\/payg\/collections\/\d+\/contacts$/.test(call.url) && call.method === 'GET') return jsonResponse(200, { data: [] });
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    if (call.url.startsWith('/payg/payments')) return jsonResponse(200, { data: [] });
    return jsonResponse(404, { detail: 'Not found', message: 'Not found' });
  });
}

/** The Promises view's API (`rows(status, page)`, `total` promises in all) over the rest of the screen's; `extra` anything first. */
export const mockPromisesApi = (rows?: (status: string, page: number) => PromiseRow[], extra?: Handler, total?: number) =>
  mockCollectionsApi(undefined, extra, undefined, promisesHandler(rows, total));

/** The GET /collections calls made, by URL. */
export const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.startsWith('/payg/collections?')).map((c) => c.url);

/** The GET /collections/summary calls made, by URL. */
export const summaryCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.startsWith('/payg/collections/summary')).map((c) => c.url);

/** The GET /collections/promises calls made (not the summary's), by URL. */
export const promiseCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.startsWith('/payg/collections/promises?')).map((c) => c.url);
