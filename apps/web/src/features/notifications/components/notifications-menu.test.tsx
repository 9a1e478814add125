import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildTicket, mockTicketsApi, type Handler } from '@/features/tickets/testing/mock-tickets-api';
import { seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { bodiesOf, buildNotification, inbox, notificationSettings, READ_URL } from '../testing/mock-inbox';

/** The dashboard (anything but tickets, the bell and the user's notification settings answers an empty 200) with the bell over `inboxHandler`. */
async function openApp(inboxHandler: Handler, platform: unknown[] = []) {
  const settings = notificationSettings();
  const api = mockTicketsApi(
    () => [buildTicket()],
    (c) => {
      const hit = inboxHandler(c) ?? settings(c);
      if (hit) return hit;
      if (c.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: platform });
      if (!c.url.startsWith('/payg/tickets')) return jsonResponse(200, {});
      return undefined;
    },
  );
  seedSession();
  const view = renderApp('/dashboard');
  await screen.findByRole('heading', { name: 'Dashboard' });
  return { ...api, ...view, user: userEvent.setup() };
}

const bell = () => screen.getByRole('button', { name: 'Notifications' });
/** The count on the bell: its text, or null when it shows none. */
const badge = () => bell().querySelector<HTMLElement>('.mantine-Indicator-indicator')?.textContent ?? null;
const reads = (calls: RecordedCall[]) => bodiesOf(calls, 'POST', READ_URL);

describe('the bell', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('counts the unread notifications of the signed-in user', async () => {
    const { calls } = await openApp(inbox([buildNotification({ id: 6 }), buildNotification({ id: 5 }), buildNotification({ id: 4, read_at: '2026-11-24T10:00:00Z' })]));
    await waitFor(() => expect(badge()).toBe('2'));
    const get = calls.find((c) => c.url.startsWith('/payg/me/notifications'))!;
    expect(get.url).toBe('/payg/me/notifications?limit=10');
    expect(get.headers.authorization).toBe('Bearer access-1');
  });

  it('shows 9+ for ten or more unread, and no count when all are read', async () => {
    const user = userEvent.setup();
    const { unmount } = await openApp(inbox(Array.from({ length: 12 }, (_, i) => buildNotification({ id: 20 - i }))));
    await waitFor(() => expect(badge()).toBe('9+'));
    unmount();

    await openApp(inbox([buildNotification({ read_at: '2026-11-25T10:00:00Z' })]));
    await user.click(bell());
    expect(await screen.findByRole('menuitem', { name: /^Ticket #12/ })).toBeInTheDocument();
    expect(badge()).toBeNull();
  });

  it('lists them under For you, the unread in bold with when and by whom, above the notices from the platform', async () => {
    const { user } = await openApp(
      inbox([
        buildNotification({ id: 6 }),
        buildNotification({
          id: 5,
          kind: 'ticket_resolved',
          message: 'Ticket #9 on SHS-0002 (Billing question) was resolved by otieno',
          ticket_id: 9,
          actor: 'otieno',
          created_at: '2026-11-24T08:00:00Z',
          read_at: '2026-11-24T09:00:00Z',
        }),
      ]),
      [{ id: 1, message: 'Token batch finished', level: 'success', created_by: 'system', created_at: '2026-11-21T08:00:00Z' }],
    );
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      `Unread: Ticket #12 on SHS-0001 (Device fault) was assigned to you by juma${formatDate('2026-11-25T09:30:00Z', true)} · juma`,
      `Ticket #9 on SHS-0002 (Billing question) was resolved by otieno${formatDate('2026-11-24T08:00:00Z', true)} · otieno`,
      'See All',
      `Token batch finished${formatDate('2026-11-21T08:00:00Z', true)} · system`,
    ]);
    expect(items[0]).toHaveAttribute('data-unread');
    expect(items[1]).not.toHaveAttribute('data-unread');
    expect(items[0]).toHaveAttribute('href', '/tickets?ticket=12');
    expect(within(items[0]!).getByRole('time')).toHaveAttribute('dateTime', '2026-11-25T09:30:00.000Z');
    const labels = within(menu).getAllByText(/^(For you|For everyone)$/).map((l) => l.textContent);
    expect(labels).toEqual(['For you', 'For everyone']);
    expect(within(menu).getByRole('button', { name: 'Mark All as Read' })).toBeInTheDocument();
  });

  it("marks one read when clicked and opens its ticket's dialog on Service Tickets; the count drops", async () => {
    const { calls, user, router } = await openApp(inbox([buildNotification({ id: 6 }), buildNotification({ id: 5, message: 'Another one', ticket_id: 11 })]));
    await waitFor(() => expect(badge()).toBe('2'));
    await user.click(bell());
    await user.click(await screen.findByRole('menuitem', { name: /assigned to you by juma/ }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets'));
    expect(router.state.location.search).toBe('?ticket=12');
    expect(await screen.findByRole('dialog', { name: 'Ticket #12' })).toBeInTheDocument();
    expect(reads(calls)).toEqual([{ ids: [6] }]);
    await waitFor(() => expect(badge()).toBe('1'));

    // Read, it is no longer bold; clicking it again sends nothing.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await user.click(bell());
    const read = await screen.findByRole('menuitem', { name: /^Ticket #12 on SHS-0001/ });
    expect(read).not.toHaveAttribute('data-unread');
    await user.click(read);
    await waitFor(() => expect(router.state.location.search).toBe('?ticket=12'));
    expect(reads(calls)).toHaveLength(1);
  });

  it("leads from a promise to pay to its device's page, by Kidogo itself", async () => {
    const { calls, user, router } = await openApp(
      inbox([
        buildNotification({
          id: 6,
          kind: 'promise_broken',
          ticket_id: null,
          serial_number: 'LMP-2003',
          actor: null,
          message: 'A promise to pay for LMP-2003 by 24 Nov 2026 was not kept: nothing was paid by that day',
        }),
      ]),
    );
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    const item = await screen.findByRole('menuitem', { name: /LMP-2003/ });
    expect(item).toHaveAttribute('href', '/device-activity/LMP-2003');
    // No one to name: just when.
    expect(within(item).getByText(formatDate('2026-11-25T09:30:00Z', true))).toBeInTheDocument();
    await user.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/device-activity/LMP-2003'));
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [6] }]));
  });

  it('leads from payments held for matching to Messages, where Held Payments is', async () => {
    const { calls, user, router } = await openApp(
      inbox([
        buildNotification({
          id: 8,
          kind: 'payments_held',
          ticket_id: null,
          serial_number: null,
          actor: null,
          message: '3 payments are held for matching; the newest: KES 250.00 (receipt SKD9H0J1K2)',
        }),
      ]),
    );
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    const item = await screen.findByRole('menuitem', { name: /held for matching/ });
    expect(item).toHaveAttribute('href', '/messages');
    await user.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/messages'));
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [8] }]));
  });

  it('leads from cash held too long to the ledger of whoever holds it, on Cash in Hand', async () => {
    const { calls, user, router } = await openApp(
      inbox([
        buildNotification({
          id: 9,
          kind: 'cash_overdue',
          ticket_id: null,
          serial_number: null,
          actor: null,
          collector: 'baraka',
          message: 'baraka has held KES 5,800.00 in cash for 9 days (since 27 Nov 2026) without handing it over',
        }),
      ]),
    );
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    const item = await screen.findByRole('menuitem', { name: /without handing it over/ });
    expect(item).toHaveAttribute('href', '/cash?ledger=baraka');
    await user.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/cash'));
    expect(router.state.location.search).toBe('?ledger=baraka');
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [9] }]));
  });

  it('marks one about neither ticket nor device (deleted since) read where it is', async () => {
    const { calls, user, router } = await openApp(
      inbox([buildNotification({ id: 6, ticket_id: null, serial_number: null, message: 'A ticket since deleted was assigned to you by juma' })]),
    );
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    const item = await screen.findByRole('menuitem', { name: /since deleted/ });
    expect(item).not.toHaveAttribute('href');
    await user.click(item);
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [6] }]));
    await waitFor(() => expect(badge()).toBeNull());
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('marks all read with Mark All as Read, and then offers it no more', async () => {
    const { calls, user } = await openApp(inbox([buildNotification({ id: 6 }), buildNotification({ id: 5 })]));
    await waitFor(() => expect(badge()).toBe('2'));
    await user.click(bell());
    await user.click(await screen.findByRole('button', { name: 'Mark All as Read' }));
    await waitFor(() => expect(badge()).toBeNull());
    expect(reads(calls)).toEqual([{}]);
    const menu = screen.getByRole('menu');
    expect(within(menu).queryByRole('button', { name: 'Mark All as Read' })).not.toBeInTheDocument();
    for (const item of within(menu).getAllByRole('menuitem')) expect(item).not.toHaveAttribute('data-unread');
  });

  it('leads from See All, at the bottom of For you, to the Notifications page', async () => {
    const { user, router } = await openApp(inbox([buildNotification({ id: 6 })]));
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    const seeAll = await screen.findByRole('menuitem', { name: 'See All' });
    expect(seeAll).toHaveAttribute('href', '/notifications');
    await user.click(seeAll);
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications'));
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('says when there is nothing for the user, with no count and no Mark All as Read, and See All all the same', async () => {
    const { user } = await openApp(inbox([]));
    await user.click(bell());
    expect(await screen.findByText('Nothing for you yet')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'See All' })).toBeInTheDocument();
    expect(screen.getByText('No notifications')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark All as Read' })).not.toBeInTheDocument();
    expect(badge()).toBeNull();
  });

  it("shows the server's message when the list fails, with the platform's notices all the same", async () => {
    const { user } = await openApp(
      inbox([buildNotification()], (c) => (c.method === 'GET' ? jsonResponse(503, { message: 'Database unavailable' }) : undefined)),
      [{ id: 1, message: 'Token batch finished', level: 'info', created_by: null, created_at: '2026-11-21T08:00:00Z' }],
    );
    await user.click(bell());
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByText('Token batch finished')).toBeInTheDocument();
    expect(badge()).toBeNull();
  });

  it('says so when marking read fails, and keeps the count', async () => {
    const { user } = await openApp(
      inbox([buildNotification({ ticket_id: null })], (c) => (c.method === 'POST' ? jsonResponse(500, { message: 'Could not save' }) : undefined)),
    );
    await waitFor(() => expect(badge()).toBe('1'));
    await user.click(bell());
    await user.click(await screen.findByRole('button', { name: 'Mark All as Read' }));
    expect(await screen.findByText('Could not save')).toBeInTheDocument();
    expect(badge()).toBe('1');
  });
});
