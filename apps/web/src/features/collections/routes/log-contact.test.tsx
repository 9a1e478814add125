import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onPhoneWidth } from '@/testing/media';
import { dayIn } from '@/lib/business-day';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { CollectionAccount, Contact } from '../api/types';
import { validateContact } from '../components/contact-form';
import { buildAccount, buildContact, listCalls, mockCollectionsApi, SUMMARY, type Handler } from '../testing/mock-collections-api';

const day = (offset: number) => dayjs().add(offset, 'day').format('YYYY-MM-DD');
/** A YYYY-MM-DD as the screen writes it (a local day). */
const shown = (ymd: string) => formatDate(dayjs(ymd).toDate());
const CONTACTS_URL = '/payg/collections/1/contacts';
const posted = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST' && c.url === CONTACTS_URL).map((c) => JSON.parse(c.body!));
const reads = (calls: RecordedCall[], prefix: string) => calls.filter((c) => c.method === 'GET' && c.url.startsWith(prefix)).length;

async function openCollections(rows: CollectionAccount[] = [buildAccount()], extra?: Handler) {
  const api = mockCollectionsApi(() => rows, extra);
  seedSession();
  renderApp('/collections');
  const table = await screen.findByRole('table', { name: 'Collections' });
  await within(table).findByRole('link', { name: rows[0]?.customer_name ?? '' });
  return { ...api, table, user: userEvent.setup() };
}

async function openModal(user: ReturnType<typeof userEvent.setup>, name = 'Amina Wanjiru · SHS-0001') {
  await user.click(screen.getByRole('button', { name: `Log Contact for ${name}` }));
  return screen.findByRole('dialog', { name: `Log Contact — ${name}` });
}

async function chooseOutcome(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, label: string) {
  await user.click(within(dialog).getByLabelText(/^Outcome/, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

const dateInput = (dialog: HTMLElement) => within(dialog).queryByLabelText(/^Promised Payment Date/, { selector: 'input' });

/** The calendar's first day not greyed out: the first day a promise may name. */
const firstPickableDay = () =>
  screen
    .getAllByRole('button')
    .find((b) => /^\d{1,2} \S+ \d{4}$/.test(b.getAttribute('aria-label') ?? '') && !b.hasAttribute('disabled'))
    ?.getAttribute('aria-label');

async function typeDate(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, value: string) {
  const input = dateInput(dialog)!;
  await user.type(input, value);
  fireEvent.blur(input);
}

describe('Collections: Log Contact', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows each device’s last contact: a promise with its day, a broken promise, a refusal, none', async () => {
    const { table } = await openCollections([
      buildAccount({ last_contact: buildContact({ outcome: 'promised_to_pay', promised_on: day(3), contacted_by: 'amina' }) }),
      buildAccount({
        item_id: 2,
        serial_number: 'SHS-0002',
        customer_name: 'Baraka Otieno',
        last_contact: buildContact({ item_id: 2, outcome: 'promised_to_pay', promised_on: day(-2), contacted_by: 'juma', promise_status: 'broken' }),
      }),
      buildAccount({
        item_id: 3,
        serial_number: 'SHS-0003',
        customer_name: 'Chausiku Mwangi',
        last_contact: buildContact({ item_id: 3, outcome: 'refused', contacted_by: null }),
      }),
      buildAccount({ item_id: 4, serial_number: 'SHS-0004', customer_name: 'Daudi Kamau', last_contact: null }),
    ]);
    expect(within(table).getByRole('columnheader', { name: 'Last Contact' })).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.indexOf('Last Contact')).toBe(headers.indexOf('Last Payment') + 1);

    const [, promised, broken, refused, none] = within(table).getAllByRole('row');
    const promiseBadge = within(promised).getByText('Promised to pay');
    expect(promiseBadge.closest('.mantine-Badge-root')).toHaveAttribute('data-variant', 'light');
    expect(promiseBadge.closest('.mantine-Badge-root')!.getAttribute('style')).toContain('green');
    expect(within(promised).getByText(/^Pays by /)).toHaveTextContent(`Pays by ${shown(day(3))}`);
    expect(within(promised).getByText(/ · amina$/)).toBeInTheDocument();

    const brokenBadge = within(broken).getByText('Promise broken');
    expect(brokenBadge.closest('.mantine-Badge-root')).toHaveAttribute('data-variant', 'filled');
    expect(brokenBadge.closest('.mantine-Badge-root')!.getAttribute('style')).toContain('red');
    expect(within(broken).getByText(/^Was due /)).toBeInTheDocument();
    expect(within(broken).queryByText('Promised to pay')).not.toBeInTheDocument();
    expect(within(broken).getByText(/ · juma$/)).toBeInTheDocument();

    expect(within(refused).getByText('Refused to pay').closest('.mantine-Badge-root')!.getAttribute('style')).toContain('red');
    // The user who logged it was deleted: the day alone.
    expect(within(refused).getByText(formatDate('2026-11-24T08:30:00Z'))).toBeInTheDocument();
    expect(within(none).getAllByText('—')).toHaveLength(1);
  });

  it('shows how a promise stands as the server judges it: kept with the day paid, paid late, due today', async () => {
    const { table } = await openCollections([
      buildAccount({
        last_contact: buildContact({ outcome: 'promised_to_pay', promised_on: day(-9), promise_status: 'kept', paid_at: '2026-11-16T07:00:00Z' }),
      }),
      buildAccount({
        item_id: 2,
        serial_number: 'SHS-0002',
        customer_name: 'Baraka Otieno',
        last_contact: buildContact({ item_id: 2, outcome: 'promised_to_pay', promised_on: day(-11), promise_status: 'paid_late', paid_at: '2026-11-16T07:00:00Z' }),
      }),
      buildAccount({ item_id: 3, serial_number: 'SHS-0003', customer_name: 'Chausiku Mwangi', last_contact: buildContact({ item_id: 3, outcome: 'promised_to_pay', promised_on: day(0), promise_status: 'due' }) }),
    ]);
    const [, kept, late, due] = within(table).getAllByRole('row');
    // The promised day is past but the customer paid on time: not broken.
    expect(within(kept).getByText('Promise kept').closest('.mantine-Badge-root')!.getAttribute('style')).toContain('green');
    expect(within(kept).getByText(`Paid ${formatDate('2026-11-16T07:00:00Z')}`)).toBeInTheDocument();
    expect(within(kept).queryByText('Promise broken')).not.toBeInTheDocument();
    expect(within(late).getByText('Paid late')).toBeInTheDocument();
    expect(within(late).getByText(`Was due ${shown(day(-11))}`)).toBeInTheDocument();
    expect(within(due).getByText('Promised to pay')).toBeInTheDocument();
    expect(within(due).getByText('Pays today')).toBeInTheDocument();
  });

  it('asks for the promised day only for a promise to pay, and lists the device’s earlier contacts', async () => {
    const history: Contact[] = [
      buildContact({ contact_id: 12, outcome: 'promised_to_pay', promised_on: '2026-12-05', note: 'Will pay after harvest', contacted_by: 'juma' }),
      buildContact({ contact_id: 11, outcome: 'no_answer', note: null, contacted_by: 'amina' }),
    ];
    const { user, calls } = await openCollections([buildAccount()], (c) =>
      c.method === 'GET' && c.url === CONTACTS_URL ? jsonResponse(200, { data: history }) : undefined,
    );
    const dialog = await openModal(user);
    expect(dateInput(dialog)).not.toBeInTheDocument();

    await chooseOutcome(user, dialog, 'Promised to pay');
    expect(dateInput(dialog)).toBeInTheDocument();
    await chooseOutcome(user, dialog, 'No answer');
    expect(dateInput(dialog)).not.toBeInTheDocument();

    const list = await within(dialog).findByRole('list', { name: 'Previous contacts' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first).getByText('Promised to pay')).toBeInTheDocument();
    expect(within(first).getByText(/ · juma$/)).toBeInTheDocument();
    expect(within(first).getByText(`Promised for ${shown('2026-12-05')}`)).toBeInTheDocument();
    expect(within(first).getByText('Will pay after harvest')).toBeInTheDocument();
    expect(within(second).getByText('No answer')).toBeInTheDocument();
    expect(within(second).getByText(/ · amina$/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url === CONTACTS_URL).map((c) => c.method)).toEqual(['GET']);
  });

  it('says when the device has no contacts yet', async () => {
    const { user } = await openCollections();
    const dialog = await openModal(user);
    expect(await within(dialog).findByText('No contacts logged yet.')).toBeInTheDocument();
  });

  it('refuses a promise without its day, or no outcome at all, and sends nothing', async () => {
    const { user, calls } = await openCollections();
    const dialog = await openModal(user);
    const save = within(dialog).getByRole('button', { name: 'Save' });

    await user.click(save);
    expect(await within(dialog).findByText('Outcome is required')).toBeInTheDocument();

    await chooseOutcome(user, dialog, 'Promised to pay');
    await user.click(save);
    expect(await within(dialog).findByText('Promised Payment Date is required when the customer promised to pay')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'x'.repeat(501));
    await typeDate(user, dialog, day(5));
    await user.click(save);
    expect(await within(dialog).findByText('Note must be at most 500 characters')).toBeInTheDocument();
    expect(within(dialog).queryByText(/^Promised Payment Date /)).not.toBeInTheDocument();
    expect(posted(calls)).toEqual([]);
  });

  it('logs a promise to pay with its day and note, says so, closes and shows it in the refreshed list', async () => {
    let logged: Contact | null = null;
    const rows = () => [buildAccount({ last_contact: logged })];
    const api = mockCollectionsApi(rows, (c) => {
      if (c.method === 'POST' && c.url === CONTACTS_URL) {
        const body = JSON.parse(c.body!);
        logged = buildContact({ contact_id: 30, outcome: body.outcome, promised_on: body.promised_on, note: body.note, created_at: new Date().toISOString() });
        return jsonResponse(201, { data: logged });
      }
      if (c.method === 'GET' && c.url === CONTACTS_URL) return jsonResponse(200, { data: logged ? [logged] : [] });
      return undefined;
    });
    seedSession();
    renderApp('/collections');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Collections' });
    await within(table).findByRole('link', { name: 'Amina Wanjiru' });
    const listsBefore = listCalls(api.calls).length;
    const summariesBefore = reads(api.calls, '/payg/collections/summary');

    const dialog = await openModal(user);
    expect(await within(dialog).findByText('No contacts logged yet.')).toBeInTheDocument();
    await chooseOutcome(user, dialog, 'Promised to pay');
    await typeDate(user, dialog, day(7));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), '  Pays when the chama meets  ');
    expect(within(dialog).getByText('25 / 500')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Contact logged')).toBeInTheDocument();
    expect(posted(api.calls)).toEqual([{ outcome: 'promised_to_pay', promised_on: day(7), note: 'Pays when the chama meets' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(listCalls(api.calls).length).toBeGreaterThan(listsBefore));
    expect(reads(api.calls, '/payg/collections/summary')).toBeGreaterThan(summariesBefore);
    const [, row] = within(table).getAllByRole('row');
    expect(await within(row).findByText('Promised to pay')).toBeInTheDocument();
    expect(within(row).getByText(/^Pays by /)).toBeInTheDocument();

    // Opened again: an empty form, and the new contact at the top of the history.
    const again = await openModal(user);
    expect(within(again).getByLabelText(/^Outcome/, { selector: 'input' })).toHaveValue('');
    expect(within(again).getByRole('textbox', { name: 'Note' })).toHaveValue('');
    const [latest] = within(await within(again).findByRole('list', { name: 'Previous contacts' })).getAllByRole('listitem');
    expect(within(latest).getByText(`Promised for ${shown(day(7))}`)).toBeInTheDocument();
    expect(within(latest).getByText('Pays when the chama meets')).toBeInTheDocument();
  });

  it('sends another outcome without a date or an empty note', async () => {
    const { user, calls } = await openCollections([buildAccount()], (c) =>
      c.method === 'POST' && c.url === CONTACTS_URL ? jsonResponse(201, { data: buildContact({ outcome: 'wrong_number' }) }) : undefined,
    );
    const dialog = await openModal(user);
    // A day picked for a promise is dropped when the outcome changes.
    await chooseOutcome(user, dialog, 'Promised to pay');
    await typeDate(user, dialog, day(1));
    await chooseOutcome(user, dialog, 'Wrong number');
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posted(calls)).toEqual([{ outcome: 'wrong_number' }]));
  });

  it("shows the server's 400 under its field, and any other refusal in the red box", async () => {
    // The server's today is a day later than the browser's (its time zone is past midnight already).
    const serverToday = day(1);
    let reply = jsonResponse(400, {
      detail: `promised_on: must be today (${serverToday}) or later`,
      message: `promised_on: must be today (${serverToday}) or later`,
      errors: [{ field: 'promised_on', message: `must be today (${serverToday}) or later` }],
    });
    const { user } = await openCollections([buildAccount()], (c) => (c.method === 'POST' && c.url === CONTACTS_URL ? reply : undefined));
    const dialog = await openModal(user);
    await chooseOutcome(user, dialog, 'Promised to pay');
    await typeDate(user, dialog, day(0));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const field = await within(dialog).findByText(`Promised Payment Date must be today (${serverToday}) or later`);
    expect(dateInput(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(field).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    reply = jsonResponse(409, { detail: 'Device SHS-0001 has no customer to contact', message: 'Device SHS-0001 has no customer to contact' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('Failed to log contact')).toBeInTheDocument();
    expect(within(alert).getByText('Device SHS-0001 has no customer to contact')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: /^Log Contact/ })).toBeInTheDocument();
  });

  it.each([
    // The server's day is already tomorrow on the browser's calendar (its time zone is past midnight).
    ["the server's today on", day(1), day(1)],
    ["today in the business time zone (GET /me) on when the summaries do not say", undefined, dayIn(buildUser().time_zone)],
  ])('lets a promise name days from %s', async (_, serverToday, firstDay) => {
    const { user } = await openCollections([buildAccount()], (c) =>
      c.url.startsWith('/payg/collections/summary') ? jsonResponse(200, { data: { ...SUMMARY, today: serverToday } }) : undefined,
    );
    await screen.findByRole('radio', { name: 'All: 6 devices' });
    const dialog = await openModal(user);
    await chooseOutcome(user, dialog, 'Promised to pay');
    await user.click(dateInput(dialog)!);
    await waitFor(() => expect(firstPickableDay()).toBe(dayjs(firstDay).format('D MMMM YYYY')));
  });

  it('opens full screen on a phone', async () => {
    onPhoneWidth();
    const { user } = await openCollections();
    const dialog = await openModal(user);
    expect(dialog.closest('[data-full-screen]')).not.toBeNull();
  });
});

describe('validateContact', () => {
  const promise = (promised_on: string | null) => ({ outcome: 'promised_to_pay' as const, promised_on, note: '' });

  it('takes a promised day from today to 90 days ahead, as the server does', () => {
    expect(validateContact(promise('2026-11-25'), '2026-11-25')).toEqual({});
    expect(validateContact(promise('2027-02-23'), '2026-11-25')).toEqual({});
    expect(validateContact(promise('2026-11-24'), '2026-11-25')).toEqual({ promised_on: 'Promised Payment Date must be today (2026-11-25) or later' });
    expect(validateContact(promise('2027-02-24'), '2026-11-25')).toEqual({
      promised_on: 'Promised Payment Date must be at most 90 days ahead (2027-02-23)',
    });
    expect(validateContact({ outcome: 'reached', promised_on: '2026-11-30', note: '' }, '2026-11-25')).toEqual({});
  });
});
