import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import type { Ticket, TicketAssignee, TicketHistoryEntry } from '../api/types';

export function buildTicket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    ticket_id: 12,
    item_id: 1,
    serial_number: 'SHS-0001',
    product_name: 'Solar Home 50W',
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    phone_number: '0712 345 678',
    category: 'device_fault',
    status: 'open',
    description: 'The lamp flickers and the battery is empty by evening.',
    resolution: null,
    assigned_to: null,
    opened_by: 'juma',
    opened_at: '2026-11-20T09:00:00Z',
    updated_at: '2026-11-20T09:00:00Z',
    resolved_at: null,
    days_open: 5,
    compensation_days: null,
    warranty: null,
    ...overrides,
  };
}

/** The organization's tickets by status, whatever the filters: 2 open, 3 in progress, 4 resolved. */
export const COUNTS = { open: 2, in_progress: 3, resolved: 4 };

export const ASSIGNEES: TicketAssignee[] = [
  { user_id: 7, username: 'amina', role: 'admin' },
  { user_id: 8, username: 'otieno', role: 'staff' },
];

/** A line of a ticket's history: by default, buildTicket()'s opening. */
export function buildHistoryEntry(overrides: Partial<TicketHistoryEntry> = {}): TicketHistoryEntry {
  return {
    at: '2026-11-20T09:00:00Z',
    action: 'ticket.opened',
    description: 'Ticket #12 opened for device SHS-0001: Device fault',
    actor_username: 'juma',
    ...overrides,
  };
}

/** The path of a ticket's history, as the client asks for it. */
export const historyUrl = (ticketId: number) => `/payg/tickets/${ticketId}/history`;

/** The GET calls made for a ticket's history. */
export const historyCalls = (calls: RecordedCall[], ticketId = 12) => calls.filter((c) => c.method === 'GET' && c.url === historyUrl(ticketId));

export type Handler = (call: RecordedCall) => Response | undefined;

/** The query of a GET /tickets call. */
export const queryOf = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams;

/** How many tickets GET /tickets says there are in all: one number for every query, or by query. */
export type Total = number | ((q: URLSearchParams) => number);

/**
 * The API of the tickets screens: `rows(query)` answers GET /tickets (`total`
 * tickets in all, 25 a page unless the query says), GET /tickets/{id} the
 * `rows` ticket of that id (404 when none has it), the assignees ASSIGNEES,
 * a ticket's history its opening by juma, the bell an empty "For you",
 * `extra` anything first. A POST or PATCH answers 404 unless `extra` does.
 */
export function mockTicketsApi(rows: (q: URLSearchParams) => Ticket[] = () => [buildTicket()], extra: Handler = () => undefined, total?: Total) {
  return mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.method === 'GET' && call.url === '/payg/tickets/assignees') return jsonResponse(200, { data: ASSIGNEES });
    const history = call.method === 'GET' ? /^\/payg\/tickets\/(\d+)\/history$/.exec(call.url) : null;
    if (history) {
      const id = history[1];
      return jsonResponse(200, { data: [buildHistoryEntry({ description: `Ticket #${id} opened for device SHS-0001: Device fault` })] });
    }
    if (call.method === 'GET' && call.url.startsWith('/payg/tickets?')) {
      const q = queryOf(call);
      const items = rows(q);
      const count = typeof total === 'function' ? total(q) : (total ?? items.length);
      const limit = Number(q.get('limit'));
      return jsonResponse(200, {
        data: { items, pagination: { total: count, total_pages: Math.ceil(count / limit), page: Number(q.get('page')), limit }, counts: COUNTS },
      });
    }
    const one = call.method === 'GET' ? /^\/payg\/tickets\/(\d+)$/.exec(call.url) : null;
    if (one) {
      const ticket = rows(new URLSearchParams({ status: 'all' })).find((t) => t.ticket_id === Number(one[1]));
      return ticket ? jsonResponse(200, { data: ticket }) : jsonResponse(404, { detail: 'Ticket not found', message: 'Ticket not found' });
    }
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    if (call.url.startsWith('/payg/me/notifications')) return jsonResponse(200, { data: { items: [], unread: 0, next_before: null } });
    return jsonResponse(404, { detail: 'Not found', message: 'Not found' });
  });
}

/** The GET /tickets calls made (not the assignees'), by URL. */
export const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/tickets?')).map((c) => c.url);

/** The bodies sent with `method` to `url`. */
export const sent = (calls: RecordedCall[], method: string, url: string) =>
  calls.filter((c) => c.method === method && c.url === url).map((c) => JSON.parse(c.body!) as unknown);

/** A 400 as the API words one: the field and its message, also in `errors` for the form. */
export const fieldError = (field: string, message: string) =>
  jsonResponse(400, { detail: `${field}: ${message}`, message: `${field}: ${message}`, errors: [{ field, message }] });
