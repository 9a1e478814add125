import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { USER_NOTIFICATION_KIND_LABELS, type Role, type UserNotificationKind } from '@kidogo/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildTicket, mockTicketsApi, type Handler } from '@/features/tickets/testing/mock-tickets-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { bodiesOf, buildNotification, inbox, notificationSettings, READ_URL, SETTINGS_URL } from '../testing/mock-inbox';

/** The Notifications page at `url` for a user of `role`, over these notifications and settings (anything else but tickets: an empty 200). */
async function openPage(
  { url = '/notifications', role = 'admin', mine = inbox([]), settings = notificationSettings() }: { url?: string; role?: Role; mine?: Handler; settings?: Handler } = {},
) {
  const api = mockTicketsApi(
    () => [buildTicket()],
    (c) => {
      const hit = mine(c) ?? settings(c);
      if (hit) return hit;
      if (c.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
      if (!c.url.startsWith('/payg/tickets')) return jsonResponse(200, {});
      return undefined;
    },
  );
  seedSession({ user: buildUser({ role }) });
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Notifications' });
  return { ...api, ...view, user: userEvent.setup() };
}

/** The page's list (the bell's menu is another place). */
const list = () => screen.findByRole('list', { name: /^(Unread )?[Nn]otifications$/ });
const rows = async () => within(await list()).getAllByRole('link');
/** The GETs of the user's notifications the page made (not the bell's ten). */
const pageGets = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/me/notifications?limit=20')).map((c) => c.url);
const reads = (calls: RecordedCall[]) => bodiesOf(calls, 'POST', READ_URL);
const puts = (calls: RecordedCall[]) => bodiesOf(calls, 'PUT', SETTINGS_URL);
const badge = () => screen.getByRole('button', { name: 'Notifications' }).querySelector<HTMLElement>('.mantine-Indicator-indicator')?.textContent ?? null;
const settingsCard = () => screen.getByRole('region', { name: 'What I Am Told Of' });
const toggle = (kind: UserNotificationKind) => within(settingsCard()).getByRole('switch', { name: USER_NOTIFICATION_KIND_LABELS[kind] });

/** `n` notifications, newest (highest id) first, every other one read. */
const many = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    buildNotification({ id: 100 - i, message: `Notification ${100 - i}`, read_at: i % 2 ? '2026-11-25T10:00:00Z' : null }),
  );

describe('the Notifications page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("lists the user's notifications like the bell, and a click reads one and opens its ticket", async () => {
    const { calls, user, router } = await openPage({
      mine: inbox([
        buildNotification({ id: 6 }),
        buildNotification({
          id: 5,
          kind: 'promise_broken',
          ticket_id: null,
          serial_number: 'LMP-2003',
          actor: null,
          message: 'A promise to pay for LMP-2003 by 24 Nov 2026 was not kept: nothing was paid by that day',
          created_at: '2026-11-24T08:00:00Z',
          read_at: '2026-11-24T09:00:00Z',
        }),
      ]),
    });
    const [first, second] = await rows();
    expect(first).toHaveTextContent(`Unread: Ticket #12 on SHS-0001 (Device fault) was assigned to you by juma${formatDate('2026-11-25T09:30:00Z', true)} · juma`);
    expect(first).toHaveAttribute('data-unread');
    expect(first).toHaveAttribute('href', '/tickets?ticket=12');
    expect(second).toHaveTextContent(`A promise to pay for LMP-2003 by 24 Nov 2026 was not kept: nothing was paid by that day${formatDate('2026-11-24T08:00:00Z', true)}`);
    expect(second).not.toHaveAttribute('data-unread');
    expect(second).toHaveAttribute('href', '/device-activity/LMP-2003');
    expect(pageGets(calls)).toEqual(['/payg/me/notifications?limit=20']);
    await waitFor(() => expect(badge()).toBe('1'));

    await user.click(first!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets'));
    expect(router.state.location.search).toBe('?ticket=12');
    expect(await screen.findByRole('dialog', { name: 'Ticket #12' })).toBeInTheDocument();
    expect(reads(calls)).toEqual([{ ids: [6] }]);
    await waitFor(() => expect(badge()).toBeNull());
  });

  it('reads one about nothing left (a button, not a link) where it is', async () => {
    const { calls, user, router } = await openPage({
      mine: inbox([buildNotification({ id: 6, ticket_id: null, serial_number: null, message: 'A ticket since deleted was assigned to you by juma' })]),
    });
    const item = within(await list()).getByRole('button', { name: /since deleted/ });
    expect(item).toHaveAttribute('data-unread');
    await user.click(item);
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [6] }]));
    await waitFor(() => expect(item).not.toHaveAttribute('data-unread'));
    expect(router.state.location.pathname).toBe('/notifications');
  });

  it('shows only the unread with ?unread=true, and the filter changes the URL', async () => {
    const { calls, user, router } = await openPage({ url: '/notifications?unread=true', mine: inbox(many(4)) });
    expect((await rows()).map((r) => r.textContent)).toEqual([expect.stringMatching(/^Unread: Notification 100/), expect.stringMatching(/^Unread: Notification 98/)]);
    expect(screen.getByRole('radio', { name: 'Unread' })).toBeChecked();
    expect(pageGets(calls)).toEqual(['/payg/me/notifications?limit=20&unread=true']);

    await user.click(screen.getByRole('radio', { name: 'All' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(async () => expect(await rows()).toHaveLength(4));

    await user.click(screen.getByRole('radio', { name: 'Unread' }));
    await waitFor(() => expect(router.state.location.search).toBe('?unread=true'));
    await waitFor(async () => expect(await rows()).toHaveLength(2));
  });

  it('loads older ones, 20 at a time, from the last page’s next_before', async () => {
    const { calls, user } = await openPage({ mine: inbox(many(25)) });
    await waitFor(async () => expect(await rows()).toHaveLength(20));
    expect((await rows()).at(-1)).toHaveTextContent(/^Notification 81/);

    await user.click(screen.getByRole('button', { name: 'Load Older' }));
    await waitFor(async () => expect(await rows()).toHaveLength(25));
    expect((await rows()).at(-1)).toHaveTextContent(/^Unread: Notification 76/);
    expect(pageGets(calls)).toEqual(['/payg/me/notifications?limit=20', '/payg/me/notifications?limit=20&before=81']);
    // The last page: nothing older.
    expect(screen.queryByRole('button', { name: 'Load Older' })).not.toBeInTheDocument();
  });

  it('marks all read with Mark All as Read, on the page and on the bell, then offers it no more', async () => {
    const { calls, user } = await openPage({ mine: inbox(many(4)) });
    await waitFor(() => expect(badge()).toBe('2'));
    await user.click(screen.getByRole('button', { name: 'Mark All as Read' }));
    await waitFor(() => expect(badge()).toBeNull());
    expect(reads(calls)).toEqual([{}]);
    for (const row of await rows()) expect(row).not.toHaveAttribute('data-unread');
    expect(screen.queryByRole('button', { name: 'Mark All as Read' })).not.toBeInTheDocument();
  });

  it('says when there is nothing, or nothing unread, without Mark All as Read', async () => {
    const { user } = await openPage({ mine: inbox([buildNotification({ read_at: '2026-11-25T10:00:00Z' })]) });
    expect(await rows()).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Mark All as Read' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Unread' }));
    expect(await screen.findByText('No unread notifications')).toBeInTheDocument();
  });

  it('says when the user has none at all', async () => {
    await openPage();
    expect(await screen.findByText('Nothing for you yet')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load Older' })).not.toBeInTheDocument();
  });

  it("shows the server's message when the list fails, and Retry reads it again", async () => {
    let failing = true;
    const { calls, user } = await openPage({
      mine: inbox([buildNotification()], (c) => (failing && c.url.startsWith('/payg/me/notifications?limit=20') ? jsonResponse(503, { message: 'Database unavailable' }) : undefined)),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Database unavailable');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await rows()).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(pageGets(calls)).toHaveLength(2);
  });
});

describe('the way there', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is not in the sidebar; Settings leads to it', async () => {
    mockTicketsApi(() => [], notificationSettings());
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { router } = renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'Notifications' });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Notifications' })).not.toBeInTheDocument();
    await userEvent.setup().click(within(card).getByRole('link', { name: 'Open Notifications' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications'));
    // The page's own heading: the Settings card's (level 4) stays on screen until the page's code has loaded.
    expect(await screen.findByRole('heading', { name: 'Notifications', level: 2 })).toBeInTheDocument();
  });
});

describe('What I Am Told Of', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('has a switch per kind, on unless muted; each change saves the whole list at once', async () => {
    const { calls, user } = await openPage({ role: 'owner', settings: notificationSettings(['promise_due']) });
    await waitFor(() => expect(toggle('promise_due')).not.toBeChecked());
    for (const kind of ['ticket_assigned', 'ticket_resolved', 'ticket_reopened', 'ticket_noted', 'promise_broken', 'payments_held', 'payment_request_answered', 'cash_overdue', 'ticket_reported'] as const) {
      expect(toggle(kind)).toBeChecked();
    }
    // A Bell and an Email switch per kind, and the owner's daily summary.
    expect(within(settingsCard()).getAllByRole('switch')).toHaveLength(21);
    expect(within(settingsCard()).getByText('Turning a kind off stops new notifications of it; those you already have stay.')).toBeInTheDocument();

    await user.click(toggle('ticket_resolved'));
    expect(toggle('ticket_resolved')).not.toBeChecked();
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ muted: ['ticket_resolved', 'promise_due'] }]);

    await user.click(toggle('promise_due'));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]).toEqual({ muted: ['ticket_resolved'] });
    await waitFor(() => expect(toggle('promise_due')).toBeChecked());
  });

  it('emails the chosen kinds: each Email switch saves both lists, and says where the mail goes', async () => {
    const { calls, user } = await openPage({ role: 'owner', settings: notificationSettings(['promise_due'], undefined, { emailed: ['ticket_assigned'] }) });
    const email = (kind: keyof typeof USER_NOTIFICATION_KIND_LABELS) =>
      within(settingsCard()).getByRole('switch', { name: `Email: ${USER_NOTIFICATION_KIND_LABELS[kind]}` });
    await waitFor(() => expect(email('ticket_assigned')).toBeChecked());
    expect(email('ticket_resolved')).not.toBeChecked();
    // A kind off in the bell cannot be emailed.
    expect(email('promise_due')).toBeDisabled();
    expect(within(settingsCard()).getByText(/^Emailed kinds go to amina@jua\.test/)).toBeInTheDocument();

    await user.click(email('payment_request_answered'));
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ muted: ['promise_due'], emailed: ['ticket_assigned', 'payment_request_answered'] }]);
    await waitFor(() => expect(email('payment_request_answered')).toBeChecked());

    // The bell's switch sends only what is muted: what is emailed stays.
    await user.click(toggle('ticket_noted'));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]).toEqual({ muted: ['ticket_noted', 'promise_due'] });
    await waitFor(() => expect(email('payment_request_answered')).toBeChecked());
  });

  it("offers owners and admins the morning's summary by email, not staff", async () => {
    const { calls, user, unmount } = await openPage({ role: 'admin', settings: notificationSettings(['promise_due']) });
    const summary = await within(settingsCard()).findByRole('switch', { name: /^A summary of yesterday each morning, by email/ });
    expect(summary).not.toBeChecked();
    await user.click(summary);
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ muted: ['promise_due'], daily_summary: true }]);
    await waitFor(() => expect(summary).toBeChecked());
    unmount();
    vi.unstubAllGlobals();

    await openPage({ role: 'staff' });
    await waitFor(() => expect(toggle('ticket_assigned')).toBeChecked());
    expect(within(settingsCard()).queryByRole('switch', { name: /^A summary of yesterday/ })).not.toBeInTheDocument();
  });

  it('says why nothing can be emailed: no address, or no mail server', async () => {
    const { unmount } = await openPage({ settings: notificationSettings([], undefined, { email: null }) });
    expect(await within(settingsCard()).findByText('Your account has no email address: ask an owner or admin to add one (Settings → Team → Edit).')).toBeInTheDocument();
    for (const s of within(settingsCard()).getAllByRole('switch', { name: /^Email: / })) expect(s).toBeDisabled();
    unmount();
    vi.unstubAllGlobals();
    await openPage({ settings: notificationSettings([], undefined, { email_available: false }) });
    expect(await within(settingsCard()).findByText('Email is not set up on this installation: notifications reach the bell only.')).toBeInTheDocument();
  });

  it("puts a switch back when the save fails, with the server's message", async () => {
    const { calls, user } = await openPage({
      settings: notificationSettings([], (c) => (c.method === 'PUT' ? jsonResponse(400, { message: 'muted must be a list of notification kinds' }) : undefined)),
    });
    await waitFor(() => expect(toggle('ticket_assigned')).toBeChecked());
    await user.click(toggle('ticket_assigned'));
    expect(await screen.findByText('muted must be a list of notification kinds')).toBeInTheDocument();
    await waitFor(() => expect(toggle('ticket_assigned')).toBeChecked());
    expect(puts(calls)).toEqual([{ muted: ['ticket_assigned'] }]);
    expect(screen.queryByText('Notification settings saved')).not.toBeInTheDocument();
  });

  it('offers payments held for matching and problems customers report to owners and admins only, and keeps them muted for the others', async () => {
    const { calls, user, unmount } = await openPage({ role: 'staff', settings: notificationSettings(['payments_held']) });
    await waitFor(() => expect(toggle('ticket_assigned')).toBeChecked());
    expect(within(settingsCard()).getAllByRole('switch')).toHaveLength(16);
    expect(within(settingsCard()).queryByRole('switch', { name: USER_NOTIFICATION_KIND_LABELS.payments_held })).not.toBeInTheDocument();
    expect(within(settingsCard()).queryByRole('switch', { name: USER_NOTIFICATION_KIND_LABELS.ticket_reported })).not.toBeInTheDocument();
    // What the server keeps is sent back as it is.
    await user.click(toggle('promise_broken'));
    await waitFor(() => expect(puts(calls)).toEqual([{ muted: ['promise_broken', 'payments_held'] }]));
    unmount();
    vi.unstubAllGlobals();

    await openPage({ role: 'admin' });
    await waitFor(() => expect(toggle('payments_held')).toBeChecked());
    expect(toggle('ticket_reported')).toBeChecked();
  });
});
