import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { summarize } from '../api/get-collections-summary';
import { summarizePromises } from '../api/get-promises-summary';
import {
  buildContact,
  buildPromise as promise,
  day,
  listCalls,
  mockPromisesApi,
  PROMISES_SUMMARY,
  promiseCalls,
  type Handler,
} from '../testing/mock-collections-api';

/** A YYYY-MM-DD as the screen writes it (a local day). */
const shown = (ymd: string) => formatDate(dayjs(ymd).toDate());
/** The calendar's first day not greyed out: the first day a promise may name. */
const firstPickableDay = () =>
  screen
    .getAllByRole('button')
    .find((b) => /^\d{1,2} \S+ \d{4}$/.test(b.getAttribute('aria-label') ?? '') && !b.hasAttribute('disabled'))
    ?.getAttribute('aria-label');
const reads = (calls: RecordedCall[], prefix: string) => calls.filter((c) => c.method === 'GET' && c.url.startsWith(prefix)).length;

/** The organization is paid in shillings (its latest payment says so). */
const paidInShillings: Handler = (c) => (c.url.startsWith('/payg/payments?') ? jsonResponse(200, { data: [{ currency: 'KES' }] }) : undefined);

/** The promises summary with other fields: another business day, no promise settled, … */
const promisesSummary =
  (data: Partial<typeof PROMISES_SUMMARY>): Handler =>
  (c) =>
    c.url.startsWith('/payg/collections/promises/summary') ? jsonResponse(200, { data: { ...PROMISES_SUMMARY, ...data } }) : undefined;

async function openCollections(url = '/collections?view=promises') {
  seedSession();
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Collections' });
  return { ...view, user: userEvent.setup() };
}

describe('Collections: Promises to Pay', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('opens from its URL with the count of each status, the kept rate and the days counted, and no export', async () => {
    const { calls } = mockPromisesApi();
    await openCollections();
    expect(screen.getByRole('tab', { name: 'Promises to Pay' })).toHaveAttribute('aria-selected', 'true');
    const all = await screen.findByRole('radio', { name: 'All: 11 promises' });
    expect(all).toHaveAttribute('aria-checked', 'true');
    expect(within(all).getByText('Kept rate: 57.1% of settled promises')).toBeInTheDocument();
    expect(within(screen.getByRole('radiogroup', { name: 'Promise status' })).getAllByRole('radio')).toHaveLength(6);
    expect(screen.getByRole('radio', { name: 'Due today: 1 promise' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Broken: 2 promises' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Upcoming: 3 promises' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Kept: 4 promises' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Paid late: 1 promise' })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`^Promises for days from ${shown(day(-90))} on;`))).toBeInTheDocument();

    await screen.findByRole('table', { name: 'Promises to pay' });
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    // Only the shown view is asked for.
    expect(promiseCalls(calls)).toEqual(['/payg/collections/promises?page=1&limit=20&status=all']);
    expect(listCalls(calls)).toEqual([]);
    expect(reads(calls, '/payg/collections/summary')).toBe(0);
  });

  it('switches views with the tabs, keeps the view in the URL and leaves the other view’s filter behind', async () => {
    const { calls } = mockPromisesApi();
    const { router, user } = await openCollections('/collections?bucket=8-30');
    expect(screen.getByRole('tab', { name: 'Out of Credit' })).toHaveAttribute('aria-selected', 'true');
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Promises to Pay' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=promises'));
    expect(await screen.findByRole('table', { name: 'Promises to pay' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Collections' })).not.toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: /^Due today/ })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /^0–7 days/ })).not.toBeInTheDocument();
    expect(promiseCalls(calls)).toEqual(['/payg/collections/promises?page=1&limit=20&status=all']);

    await user.click(screen.getByRole('tab', { name: 'Out of Credit' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('table', { name: 'Collections' })).toBeInTheDocument();
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=all');
  });

  it('reads a view or status it does not know as the default', async () => {
    mockPromisesApi();
    const first = await openCollections('/collections?view=later&status=broken');
    expect(screen.getByRole('tab', { name: 'Out of Credit' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('table', { name: 'Collections' })).toBeInTheDocument();
    first.unmount();

    const { calls } = mockPromisesApi();
    await openCollections('/collections?view=promises&status=forgotten&bucket=8-30');
    expect(await screen.findByRole('radio', { name: /^All/ })).toHaveAttribute('aria-checked', 'true');
    expect(promiseCalls(calls)).toEqual(['/payg/collections/promises?page=1&limit=20&status=all']);
  });

  it('lists each promise with its customer, phone, device, day, status, payment and credit', async () => {
    mockPromisesApi(
      () => [
        promise(),
        promise({
          contact: buildContact({
            contact_id: 21,
            item_id: 2,
            outcome: 'promised_to_pay',
            promised_on: day(-5),
            note: null,
            contacted_by: 'juma',
            created_at: `${day(-9)}T08:00:00Z`,
          }),
          status: 'kept',
          item_id: 2,
          serial_number: 'SHS-0002',
          customer_id: 43,
          customer_name: 'Baraka Otieno',
          days_without_credit: null,
          paid_at: `${day(-7)}T09:00:00Z`,
          paid_amount: '750.00',
        }),
        promise({
          contact: buildContact({ contact_id: 22, item_id: 3, outcome: 'promised_to_pay', promised_on: day(-10), contacted_by: null }),
          status: 'broken',
          item_id: 3,
          serial_number: 'SHS-0003',
          customer_id: 44,
          customer_name: 'Chausiku Mwangi',
          phone_number: null,
          days_without_credit: 95,
        }),
      ],
      paidInShillings,
    );
    await openCollections();
    const table = await screen.findByRole('table', { name: 'Promises to pay' });
    for (const h of ['Customer', 'Phone', 'Device', 'Promised Day', 'Status', 'Payment', 'Credit']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    const [, upcoming, kept, broken] = within(table).getAllByRole('row');
    expect(within(upcoming).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/42');
    expect(within(upcoming).getByRole('link', { name: '0712 345 678' })).toHaveAttribute('href', 'tel:0712345678');
    expect(within(upcoming).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(within(upcoming).getByText('Solar Home 50W')).toBeInTheDocument();
    expect(within(upcoming).getByText(shown(day(3)))).toBeInTheDocument();
    expect(within(upcoming).getByText(`Logged ${formatDate('2026-11-24T08:30:00Z')} · amina`)).toBeInTheDocument();
    expect(within(upcoming).getByText('Pays after market day')).toHaveAttribute('title', 'Pays after market day');
    const upcomingBadge = within(upcoming).getByText('Upcoming').closest('.mantine-Badge-root')!;
    expect(upcomingBadge.getAttribute('style')).toContain('blue');
    expect(within(upcoming).getByText('Not paid yet')).toBeInTheDocument();
    expect(within(upcoming).getByText('12 days')).toBeInTheDocument();
    expect(within(upcoming).getByText('without credit')).toBeInTheDocument();
    expect(within(upcoming).getByRole('button', { name: 'Log Contact for Amina Wanjiru · SHS-0001' })).toBeInTheDocument();

    expect(within(kept).getByText('Kept').closest('.mantine-Badge-root')!.getAttribute('style')).toContain('green');
    expect(within(kept).getByText(formatDate(`${day(-7)}T09:00:00Z`))).toBeInTheDocument();
    expect(await within(kept).findByText('KES 750.00')).toBeInTheDocument();
    expect(within(kept).getByText('Has credit')).toBeInTheDocument();
    expect(within(kept).getByText(/ · juma$/)).toBeInTheDocument();

    const brokenBadge = within(broken).getByText('Broken').closest('.mantine-Badge-root')!;
    expect(brokenBadge).toHaveAttribute('data-variant', 'filled');
    expect(brokenBadge.getAttribute('style')).toContain('red');
    expect(within(broken).getByText('95 days').closest('.mantine-Badge-root')).toHaveAttribute('data-variant', 'filled');
    // The user who logged it was deleted: the day alone. No phone: a dash.
    expect(within(broken).getByText(`Logged ${formatDate('2026-11-24T08:30:00Z')}`)).toBeInTheDocument();
    expect(within(broken).getAllByText('—')).toHaveLength(1);
  });

  it('filters by a status, keeps it in the URL and starts again at page 1', async () => {
    const { calls } = mockPromisesApi((status) => (status === 'kept' ? [] : [promise()]), undefined, 45);
    const { router, user } = await openCollections();
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=promises&page=2'));
    expect(promiseCalls(calls)).toContain('/payg/collections/promises?page=2&limit=20&status=all');
    expect(screen.getByText('Showing 21 to 40 of 45 promises')).toBeInTheDocument();

    await user.click(await screen.findByRole('radio', { name: /^Broken/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=promises&status=broken'));
    expect(promiseCalls(calls).at(-1)).toBe('/payg/collections/promises?page=1&limit=20&status=broken');
    expect(screen.getByRole('radio', { name: /^Broken/ })).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByRole('radio', { name: /^Kept/ }));
    expect(await screen.findByText('No promises kept yet.')).toBeInTheDocument();
    expect(screen.getByText('Choose All to see every promise.')).toBeInTheDocument();
    expect(promiseCalls(calls).at(-1)).toBe('/payg/collections/promises?page=1&limit=20&status=kept');

    await user.click(screen.getByRole('radio', { name: /^Due today/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=promises&status=due'));
    await user.click(screen.getByRole('radio', { name: /^All/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=promises'));
  });

  it('opens on the status and page of its URL, and moves a page past the end back to the last one', async () => {
    const { calls } = mockPromisesApi((_, page) => (page <= 2 ? [promise()] : []), undefined, 25);
    const { router } = await openCollections('/collections?view=promises&status=due&page=6');
    expect(await screen.findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?view=promises&status=due&page=2');
    expect(promiseCalls(calls)).toEqual([
      '/payg/collections/promises?page=6&limit=20&status=due',
      '/payg/collections/promises?page=2&limit=20&status=due',
    ]);
    expect(screen.getByRole('radio', { name: /^Due today/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('says when nobody has promised to pay yet', async () => {
    mockPromisesApi(
      () => [],
      promisesSummary({ counts: { due: 0, broken: 0, upcoming: 0, kept: 0, paid_late: 0 }, kept_rate: null }),
    );
    await openCollections();
    const all = await screen.findByRole('radio', { name: 'All: 0 promises' });
    expect(within(all).getByText('No promises settled yet')).toBeInTheDocument();
    expect(await screen.findByText('Nobody has promised to pay yet.')).toBeInTheDocument();
    expect(screen.getByText(/^A promise logged with Log Contact on Out of Credit shows here/)).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it("shows the server's message with Retry when the list fails, and the counts' failure apart", async () => {
    const user = userEvent.setup();
    let listFails = true;
    mockPromisesApi(undefined, (c) => {
      if (c.url.startsWith('/payg/collections/promises/summary')) return jsonResponse(500, { message: 'Counting failed' });
      if (c.url.startsWith('/payg/collections/promises?') && listFails) return jsonResponse(503, { message: 'Database unavailable' });
      return undefined;
    });
    await openCollections();
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(await screen.findByText('Counting failed')).toBeInTheDocument();
    expect(screen.getByText('Counts unavailable')).toBeInTheDocument();
    // Without counts the statuses still filter.
    expect(screen.getByRole('radio', { name: 'Broken' })).toBeInTheDocument();

    listFails = false;
    const failure = screen.getByText('Database unavailable').closest<HTMLElement>('[role="alert"]')!;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
  });

  it("logs a contact from a promise's row, from the server's today on, and reads the promises again", async () => {
    // The server's day is two days after the browser's (another time zone, or a wrong clock).
    const serverToday = day(2);
    const summary = promisesSummary({ today: serverToday });
    const { calls } = mockPromisesApi(undefined, (c) => {
      if (c.method === 'POST' && c.url === '/payg/collections/1/contacts') {
        return jsonResponse(201, { data: buildContact({ contact_id: 30, outcome: 'promised_to_pay', promised_on: serverToday }) });
      }
      return summary(c);
    });
    const { user } = await openCollections();
    await screen.findByRole('radio', { name: 'All: 11 promises' });
    const table = await screen.findByRole('table', { name: 'Promises to pay' });
    await user.click(await within(table).findByRole('button', { name: 'Log Contact for Amina Wanjiru · SHS-0001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log Contact — Amina Wanjiru · SHS-0001' });
    expect(await within(dialog).findByText('No contacts logged yet.')).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText(/^Outcome/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Promised to pay' }));
    const date = within(dialog).getByLabelText(/^Promised Payment Date/, { selector: 'input' });
    await user.click(date);
    await waitFor(() => expect(firstPickableDay()).toBe(dayjs(serverToday).format('D MMMM YYYY')));
    // The browser's tomorrow is before the server's today: the picker does not take it.
    await user.type(date, day(1));
    fireEvent.blur(date);
    await waitFor(() => expect(date).toHaveValue(''));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Promised Payment Date is required when the customer promised to pay')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    const listsBefore = promiseCalls(calls).length;
    const countsBefore = reads(calls, '/payg/collections/promises/summary');
    await user.type(date, serverToday);
    fireEvent.blur(date);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Contact logged')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => JSON.parse(c.body!))).toEqual([
      { outcome: 'promised_to_pay', promised_on: serverToday },
    ]);
    await waitFor(() => expect(promiseCalls(calls).length).toBeGreaterThan(listsBefore));
    expect(reads(calls, '/payg/collections/promises/summary')).toBeGreaterThan(countsBefore);
  });
});

describe('the summaries', () => {
  it("take the server's today, and do without it from a server that does not send it", () => {
    const counted = { open_accounts: 1, out_of_credit: 0, buckets: [], as_of: '2026-11-25T10:00:00Z' };
    expect(summarize({ ...counted, today: '2026-11-25' }).today).toBe('2026-11-25');
    expect(summarize(counted).today).toBeNull();
    expect(summarize(undefined).today).toBeNull();
  });

  it('add up the promises, and count a status left out as none', () => {
    const counts = { due: 1, broken: 2, upcoming: 3, kept: 4, paid_late: 1 };
    expect(summarizePromises({ today: '2026-11-25', from: '2026-08-27', counts, kept_rate: 57.1 })).toEqual({
      counts: { due: 1, broken: 2, upcoming: 3, kept: 4, paid_late: 1 },
      total: 11,
      keptRate: 57.1,
      today: '2026-11-25',
      from: '2026-08-27',
    });
    expect(summarizePromises({ counts: { due: 2 } as never })).toMatchObject({ total: 2, keptRate: null, today: null, from: null });
  });
});
