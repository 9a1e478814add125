import type { UserNotification, UserNotificationKind } from '@kidogo/contracts';
import type { Handler } from '@/features/tickets/testing/mock-tickets-api';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

export const READ_URL = '/payg/me/notifications/read';
export const SETTINGS_URL = '/payg/me/notification-settings';

export function buildNotification(overrides: Partial<UserNotification> = {}): UserNotification {
  return {
    id: 5,
    kind: 'ticket_assigned',
    message: 'Ticket #12 on SHS-0001 (Device fault) was assigned to you by juma',
    ticket_id: 12,
    serial_number: 'SHS-0001',
    actor: 'juma',
    collector: null,
    created_at: '2026-11-25T09:30:00Z',
    read_at: null,
    ...overrides,
  };
}

/**
 * The signed-in user's notifications as the API keeps them (`initial`, newest
 * first): GET lists `limit` of them (only the unread with unread=true, only
 * those older than `before`), with the unread count and the next page's
 * `before`; POST .../read marks the ids sent (or all) read. `fail` answers a
 * request instead, when it returns a Response.
 */
export function inbox(initial: UserNotification[], fail: (c: RecordedCall) => Response | undefined = () => undefined): Handler {
  let items = initial;
  return (c) => {
    if (!c.url.startsWith('/payg/me/notifications')) return undefined;
    const failure = fail(c);
    if (failure) return failure;
    if (c.method === 'POST' && c.url === READ_URL) {
      const { ids } = JSON.parse(c.body!) as { ids?: number[] };
      const marked = items.filter((n) => n.read_at === null && (!ids || ids.includes(n.id))).length;
      items = items.map((n) => (n.read_at === null && (!ids || ids.includes(n.id)) ? { ...n, read_at: '2026-11-25T10:00:00Z' } : n));
      return jsonResponse(200, { data: { marked, unread: items.filter((n) => n.read_at === null).length } });
    }
    const q = new URL(c.url, 'http://x').searchParams;
    const limit = Number(q.get('limit') ?? 20);
    const before = q.get('before');
    const matching = items.filter((n) => (q.get('unread') !== 'true' || n.read_at === null) && (before === null || n.id < Number(before)));
    const page = matching.slice(0, limit);
    return jsonResponse(200, {
      data: { items: page, unread: items.filter((n) => n.read_at === null).length, next_before: matching.length > limit ? page.at(-1)!.id : null },
    });
  };
}

/**
 * GET and PUT /me/notification-settings over the kinds turned off (`muted`) and emailed (`emailed`, kept when a PUT
 * leaves it out), with the account's address; `fail` answers a request instead.
 */
export function notificationSettings(
  muted: UserNotificationKind[] = [],
  fail: (c: RecordedCall) => Response | undefined = () => undefined,
  { emailed = [], email = 'amina@jua.test', email_available = true }: { emailed?: UserNotificationKind[]; email?: string | null; email_available?: boolean } = {},
): Handler {
  let current = { muted, emailed, daily_summary: false };
  return (c) => {
    if (c.url !== SETTINGS_URL) return undefined;
    const failure = fail(c);
    if (failure) return failure;
    if (c.method === 'PUT') {
      const body = JSON.parse(c.body!) as { muted: UserNotificationKind[]; emailed?: UserNotificationKind[]; daily_summary?: boolean };
      current = { muted: body.muted, emailed: body.emailed ?? current.emailed, daily_summary: body.daily_summary ?? current.daily_summary };
    }
    return jsonResponse(200, { data: { ...current, email, email_available } });
  };
}

/** The bodies of the calls of this method to this URL, parsed. */
export const bodiesOf = (calls: RecordedCall[], method: string, url: string) =>
  calls.filter((c) => c.method === method && c.url === url).map((c) => JSON.parse(c.body!) as unknown);
