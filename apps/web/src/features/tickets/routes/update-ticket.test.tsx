import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { seedSession } from '@/testing/factories';
import { deferred, jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { Ticket, TicketHistoryEntry, TicketUpdate } from '../api/types';
import { historyText } from '../components/ticket-history';
import { toTicketUpdate, updateValuesOf, validateUpdateTicket } from '../components/update-ticket-modal';
import { buildHistoryEntry, buildTicket, fieldError, historyCalls, historyUrl, listCalls, mockTicketsApi, sent, type Handler } from '../testing/mock-tickets-api';

type User = ReturnType<typeof userEvent.setup>;
const PATCH_URL = '/payg/tickets/12';

/** The API's answer to a PATCH: the ticket with the change applied. */
const patched = (ticket: Ticket): Handler => (c) => {
  if (c.method !== 'PATCH' || c.url !== PATCH_URL) return undefined;
  const input = JSON.parse(c.body!) as TicketUpdate;
  const assigned = input.assigned_to === undefined ? ticket.assigned_to : input.assigned_to === null ? null : { user_id: Number(input.assigned_to), username: 'otieno' };
  return jsonResponse(200, { data: { ...ticket, ...input, assigned_to: assigned } });
};

async function openUpdate(ticket: Ticket = buildTicket(), extra: Handler = patched(ticket)) {
  const api = mockTicketsApi(() => [ticket], extra);
  seedSession();
  renderApp('/tickets');
  await screen.findByRole('link', { name: ticket.serial_number });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Update Ticket #${ticket.ticket_id}` }));
  const dialog = await screen.findByRole('dialog', { name: `Ticket #${ticket.ticket_id}` });
  return { ...api, user, dialog };
}

const field = (dialog: HTMLElement, label: RegExp) => within(dialog).getByLabelText(label, { selector: 'input, textarea' });
const resolution = (dialog: HTMLElement) => within(dialog).queryByLabelText(/^Resolution/, { selector: 'textarea' });
const freeDays = (dialog: HTMLElement) => within(dialog).queryByRole('textbox', { name: 'Free Days' });

/** The code the API issues for the free days given with a resolution. */
const CODE = { code_token: '482913570', code_type: 'add_time', days: 3, token_count: 7, serial_number: 'SHS-0001', isOrganizationSuspended: false };

/** The API's answer to a PATCH with free days: the ticket resolved, with its code. */
const resolvedWithCode = (ticket: Ticket): Handler => (c) => {
  if (c.method !== 'PATCH' || c.url !== PATCH_URL) return undefined;
  const input = JSON.parse(c.body!) as TicketUpdate;
  return jsonResponse(200, { data: { ...ticket, ...input, resolved_at: '2026-11-25T10:00:00Z' }, token: { ...CODE, days: input.compensation_days } });
};

/** The ticket's history as GET /tickets/12/history answers it: `entries()` at each call, or a Response to refuse. */
const historyOf = (entries: () => TicketHistoryEntry[] | Response): Handler => (c) => {
  if (c.method !== 'GET' || c.url !== historyUrl(12)) return undefined;
  const reply = entries();
  return reply instanceof Response ? reply : jsonResponse(200, { data: reply });
};

/** A handler per request, the first that answers. */
const firstOf = (...handlers: Handler[]): Handler => (c) => handlers.reduce<Response | undefined>((hit, h) => hit ?? h(c), undefined);

const HISTORY: TicketHistoryEntry[] = [
  buildHistoryEntry(),
  buildHistoryEntry({
    at: '2026-11-21T08:30:00Z',
    action: 'ticket.status_changed',
    description: 'Ticket #12 (device SHS-0001): Open → In progress; assigned to otieno',
    actor_username: 'amina',
  }),
  buildHistoryEntry({ at: '2026-11-22T10:15:00Z', action: 'ticket.updated', description: 'Ticket #12 (device SHS-0001): category Billing', actor_username: null }),
];

/** The history's lines, top to bottom, as read: what happened, then when and who. */
const historyLines = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: 'History' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

async function choose(user: User, dialog: HTMLElement, label: RegExp, option: string) {
  await user.click(field(dialog, label));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Service Tickets: Update Ticket', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows what the ticket is about: the device, its customer, the report, who opened it and when', async () => {
    const { dialog } = await openUpdate();
    expect(within(dialog).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(within(dialog).getByText('Solar Home 50W')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/42');
    expect(within(dialog).getByText('0712 345 678')).toBeInTheDocument();
    expect(within(dialog).getByText('The lamp flickers and the battery is empty by evening.')).toBeInTheDocument();
    expect(within(dialog).getByText(`${formatDate('2026-11-20T09:00:00Z', true)} by juma`, { exact: false })).toBeInTheDocument();
    expect(within(dialog).getByText('5 days open')).toBeInTheDocument();
    expect(field(dialog, /^Status/)).toHaveValue('Open');
    expect(field(dialog, /^Category/)).toHaveValue('Device fault');
    expect(field(dialog, /^Assign To/)).toHaveValue('');
    // The resolution belongs to resolving.
    expect(resolution(dialog)).not.toBeInTheDocument();
    // No warranty set for its product: nothing said of one.
    expect(within(dialog).queryByText('Warranty')).not.toBeInTheDocument();
  });

  it('says whether the device was in warranty when the ticket was opened', async () => {
    const warranty = { months: 12, starts_at: '2026-03-01T08:00:00Z', until: '2027-03-01T08:00:00Z', in_warranty: true };
    const { dialog } = await openUpdate(buildTicket({ warranty }));
    expect(within(dialog).getByText('Warranty')).toBeInTheDocument();
    expect(within(dialog).getByText(`In warranty until ${formatDate('2027-03-01T08:00:00Z')}`)).toBeInTheDocument();
    expect(within(dialog).getByText(`When the ticket was opened · 12 months from ${formatDate('2026-03-01T08:00:00Z')}`)).toBeInTheDocument();
    cleanup();
    const out = await openUpdate(buildTicket({ warranty: { ...warranty, in_warranty: false } }));
    expect(within(out.dialog).getByText(`Out of warranty since ${formatDate('2027-03-01T08:00:00Z')}`)).toBeInTheDocument();
  });

  it('assigns the ticket and moves it to in progress, sending only what changed, then reads the list again', async () => {
    const { user, dialog, calls } = await openUpdate();
    await choose(user, dialog, /^Assign To/, 'otieno');
    await choose(user, dialog, /^Status/, 'In progress');
    const reads = listCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket #12 is now in progress')).toBeInTheDocument();
    expect(sent(calls, 'PATCH', PATCH_URL)).toEqual([{ status: 'in_progress', assigned_to: 8 }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ticket #12' })).not.toBeInTheDocument());
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(reads));
  });

  it('hands a ticket to nobody with null', async () => {
    const { user, dialog, calls } = await openUpdate(buildTicket({ status: 'in_progress', assigned_to: { user_id: 8, username: 'otieno' } }));
    expect(field(dialog, /^Assign To/)).toHaveValue('otieno');
    await user.click(within(dialog).getByRole('button', { name: 'Unassign' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket #12 updated')).toBeInTheDocument();
    expect(sent(calls, 'PATCH', PATCH_URL)).toEqual([{ assigned_to: null }]);
  });

  it('asks for the resolution before resolving, and sends it with the status', async () => {
    const { user, dialog, calls } = await openUpdate(buildTicket({ status: 'in_progress' }));
    await choose(user, dialog, /^Status/, 'Resolved');
    expect(resolution(dialog)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Resolution is required to resolve a ticket')).toBeInTheDocument();
    expect(sent(calls, 'PATCH', PATCH_URL)).toHaveLength(0);

    await user.type(resolution(dialog)!, ' Replaced the battery. ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket #12 is now resolved')).toBeInTheDocument();
    expect(sent(calls, 'PATCH', PATCH_URL)).toEqual([{ status: 'resolved', resolution: 'Replaced the battery.' }]);
  });

  it("shows the server's refusal of a resolution under the field, and any other in the red box", async () => {
    let reply = fieldError('resolution', 'is required to resolve a ticket');
    const { user, dialog } = await openUpdate(buildTicket(), (c) => (c.method === 'PATCH' ? reply : undefined));
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(resolution(dialog)!, 'Fixed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Resolution is required to resolve a ticket')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    reply = jsonResponse(404, { detail: 'Ticket not found', message: 'Ticket not found' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to update the ticket');
    expect(alert).toHaveTextContent('Ticket not found');
  });

  it('offers free days only when resolving a ticket not resolved yet, for a device that had a customer', async () => {
    const { user, dialog } = await openUpdate(buildTicket({ status: 'in_progress' }));
    expect(freeDays(dialog)).not.toBeInTheDocument();
    await choose(user, dialog, /^Status/, 'Resolved');
    const input = freeDays(dialog)!;
    expect(input).toHaveValue('');
    expect(within(dialog).getByText('Days of use given for the time the device was down; a code for them is made when you save')).toBeInTheDocument();
    // Moved away from resolved, the field goes with the resolution.
    await choose(user, dialog, /^Status/, 'Open');
    expect(freeDays(dialog)).not.toBeInTheDocument();
    cleanup();

    // Already resolved: free days for it are given on the Tokens page.
    let view = await openUpdate(buildTicket({ status: 'resolved', resolution: 'Replaced the battery.', resolved_at: '2026-11-22T10:00:00Z' }));
    expect(field(view.dialog, /^Status/)).toHaveValue('Resolved');
    expect(freeDays(view.dialog)).not.toBeInTheDocument();
    cleanup();

    // A device given out to nobody: nobody to give free days to.
    view = await openUpdate(buildTicket({ customer_id: null, customer_name: null, phone_number: null }));
    await choose(view.user, view.dialog, /^Status/, 'Resolved');
    expect(resolution(view.dialog)).toBeInTheDocument();
    expect(freeDays(view.dialog)).not.toBeInTheDocument();
  });

  it('resolves with free days, then shows their code to give the customer, and reads the lists again', async () => {
    const ticket = buildTicket({ status: 'in_progress' });
    const { user, dialog, calls } = await openUpdate(ticket, resolvedWithCode(ticket));
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(resolution(dialog)!, 'Replaced the battery.');
    await user.type(freeDays(dialog)!, '3');
    const reads = listCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const result = await screen.findByRole('dialog', { name: 'Code for 3 free days' });
    expect(sent(calls, 'PATCH', PATCH_URL)).toEqual([{ status: 'resolved', resolution: 'Replaced the battery.', compensation_days: 3 }]);
    expect(within(result).getByTestId('free-days-code')).toHaveTextContent('482 913 570');
    expect(within(result).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(within(result).getByText(/^Ticket #12 is resolved\./)).toHaveTextContent(
      'Ticket #12 is resolved. Give this code to Amina Wanjiru (0712 345 678) to enter on the device: it adds 3 days of use.',
    );
    expect(within(result).getByText('Add time')).toBeInTheDocument();
    // The code's view is about the code: the ticket's history is in the form only.
    expect(within(result).queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    expect(within(result).getByText('SHS-0001')).toBeInTheDocument();
    // The code's view says it: no toast over it.
    expect(screen.queryByText('Ticket #12 is now resolved')).not.toBeInTheDocument();
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(reads));

    await user.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("texts the code to the customer's phone when asked, and says so with the text sent", async () => {
    const ticket = buildTicket({ status: 'in_progress' });
    const text = 'Kidogo: Hi Amina, device SHS-0001 is fixed. Enter code 482 913 570 for 2 free days of use.';
    const withSms: Handler = (c) => {
      if (c.method !== 'PATCH' || c.url !== PATCH_URL) return undefined;
      const input = JSON.parse(c.body!) as TicketUpdate;
      return jsonResponse(200, {
        data: { ...ticket, status: 'resolved', resolution: input.resolution, compensation_days: input.compensation_days, resolved_at: '2026-11-25T10:00:00Z' },
        token: { ...CODE, days: input.compensation_days },
        code_sms: { message_id: 91, recipient_number: '254712345678', text },
      });
    };
    const { user, dialog, calls } = await openUpdate(ticket, withSms);
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(resolution(dialog)!, 'New cable.');
    // Offered once there are free days to text.
    expect(within(dialog).queryByRole('checkbox', { name: /^Text the code to/ })).not.toBeInTheDocument();
    await user.type(freeDays(dialog)!, '2');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Text the code to Amina Wanjiru (0712 345 678)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const result = await screen.findByRole('dialog', { name: 'Code for 2 free days' });
    expect(sent(calls, 'PATCH', PATCH_URL)).toEqual([{ status: 'resolved', resolution: 'New cable.', compensation_days: 2, send_code_sms: true }]);
    expect(within(result).getByTestId('free-days-sms')).toHaveTextContent(`Also texted to 254712345678: “${text}”`);
  });

  it('offers no text for a customer without a phone', async () => {
    const { user, dialog } = await openUpdate(buildTicket({ status: 'open', phone_number: null }));
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(freeDays(dialog)!, '2');
    expect(within(dialog).queryByRole('checkbox', { name: /^Text the code to/ })).not.toBeInTheDocument();
  });

  it('reads the device page again after free days, so its Token History lists the new code', async () => {
    const ticket = buildTicket({ status: 'in_progress' });
    const { calls } = mockTicketsApi(
      () => [ticket],
      (c) => {
        if (c.url.startsWith('/payg/devices/SHS-0001/activity')) {
          return jsonResponse(200, {
            data: {
              device_info: { serial_number: 'SHS-0001', product_name: 'Solar Home 50W', status: 'assigned', customer_name: 'Amina Wanjiru', customer_id: 42, token_count: 6, is_assigned: true },
              token_history: { items: [], total: 0 },
              payment_history: { items: [], total: 0 },
              message_history: { items: [], total: 0 },
            },
          });
        }
        if (c.url.startsWith('/payg/payments')) return jsonResponse(200, { data: [] });
        return resolvedWithCode(ticket)(c);
      },
    );
    const activityCalls = () => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/devices/SHS-0001/activity')).length;
    seedSession();
    renderApp('/device-activity/SHS-0001');
    const card = await screen.findByRole('region', { name: 'Service Tickets' }, { timeout: 5000 });
    const user = userEvent.setup();
    await user.click(await within(card).findByRole('button', { name: 'Update Ticket #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ticket #12' });
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(resolution(dialog)!, 'Replaced the battery.');
    await user.type(freeDays(dialog)!, '2');
    const reads = activityCalls();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('dialog', { name: 'Code for 2 free days' })).toBeInTheDocument();
    await waitFor(() => expect(activityCalls()).toBeGreaterThan(reads));
  });

  it('says a number of free days out of range as the server does, and sends nothing', async () => {
    const { user, dialog, calls } = await openUpdate(buildTicket({ status: 'in_progress' }));
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(resolution(dialog)!, 'Replaced the battery.');
    await user.type(freeDays(dialog)!, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Free Days must be at least 1')).toBeInTheDocument();

    await user.clear(freeDays(dialog)!);
    await user.type(freeDays(dialog)!, '45');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Free Days must be at most 30 (issue a longer code on the Tokens page)')).toBeInTheDocument();
    // Not corrected behind the user's back.
    expect(freeDays(dialog)).toHaveValue('45');
    expect(sent(calls, 'PATCH', PATCH_URL)).toHaveLength(0);

    // Left empty, none are given: the body has no compensation_days.
    await user.clear(freeDays(dialog)!);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket #12 is now resolved')).toBeInTheDocument();
    expect(sent(calls, 'PATCH', PATCH_URL)).toEqual([{ status: 'resolved', resolution: 'Replaced the battery.' }]);
  });

  it("shows the server's refusal of free days: a bad number under the field, a conflict in the red box", async () => {
    let reply = fieldError('compensation_days', 'must be at most 30 (issue a longer code on the Tokens page)');
    const { user, dialog } = await openUpdate(buildTicket(), (c) => (c.method === 'PATCH' ? reply : undefined));
    await choose(user, dialog, /^Status/, 'Resolved');
    await user.type(resolution(dialog)!, 'Replaced the battery.');
    await user.type(freeDays(dialog)!, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Free Days must be at most 30 (issue a longer code on the Tokens page)')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    reply = jsonResponse(409, { detail: 'Device SHS-0001 is paid off: it needs no free days', message: 'Device SHS-0001 is paid off: it needs no free days' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to update the ticket');
    expect(alert).toHaveTextContent('Device SHS-0001 is paid off: it needs no free days');
    // The form stays, as it was, to resolve without them.
    expect(screen.getByRole('dialog', { name: 'Ticket #12' })).toBeInTheDocument();
    expect(freeDays(dialog)).toHaveValue('3');
  });

  it('shows the free days a resolved ticket gave', async () => {
    const { dialog } = await openUpdate(
      buildTicket({ status: 'resolved', resolution: 'Replaced the battery.', resolved_at: '2026-11-22T10:00:00Z', compensation_days: 5 }),
    );
    expect(within(dialog).getByText('Free days given: 5')).toBeInTheDocument();
  });

  it("shows the ticket's history under its details: oldest first, when, who, and what without the ticket's number", async () => {
    const ticket = buildTicket();
    const { dialog, calls } = await openUpdate(ticket, firstOf(historyOf(() => HISTORY), patched(ticket)));
    const section = await within(dialog).findByRole('region', { name: 'History' });
    expect(historyLines(dialog)).toEqual([
      `Opened for device SHS-0001: Device fault${formatDate('2026-11-20T09:00:00Z', true)} · juma`,
      `Open → In progress; assigned to otieno${formatDate('2026-11-21T08:30:00Z', true)} · amina`,
      // Nobody signed in made it.
      `Category Billing${formatDate('2026-11-22T10:15:00Z', true)} · System`,
    ]);
    expect(within(section).getAllByRole('time').map((t) => t.getAttribute('datetime'))).toEqual([
      '2026-11-20T09:00:00.000Z',
      '2026-11-21T08:30:00.000Z',
      '2026-11-22T10:15:00.000Z',
    ]);
    // Under the details, before the form's fields.
    expect(within(dialog).getByText('The lamp flickers and the battery is empty by evening.').compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(section.compareDocumentPosition(field(dialog, /^Status/)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(historyCalls(calls)).toHaveLength(1);
  });

  it('says the history is loading, then shows it', async () => {
    const reply = deferred<Response>();
    const ticket = buildTicket();
    mockTicketsApi(() => [ticket], (c) => (c.method === 'GET' && c.url === historyUrl(12) ? (reply.promise as unknown as Response) : undefined));
    seedSession();
    renderApp('/tickets');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Update Ticket #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ticket #12' });
    expect(within(dialog).getByRole('status', { name: 'Loading the history' })).toBeInTheDocument();
    reply.resolve(jsonResponse(200, { data: HISTORY }));
    expect(await within(dialog).findByRole('list', { name: 'History' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('status', { name: 'Loading the history' })).not.toBeInTheDocument();
  });

  it("says why the history could not be read, in the server's words, and leaves the form usable", async () => {
    const ticket = buildTicket();
    const { user, dialog } = await openUpdate(
      ticket,
      firstOf(
        historyOf(() => jsonResponse(404, { detail: 'Ticket not found', message: 'Ticket not found' })),
        patched(ticket),
      ),
    );
    expect(await within(dialog).findByText('Failed to load the history: Ticket not found')).toBeInTheDocument();
    expect(within(dialog).queryByRole('list', { name: 'History' })).not.toBeInTheDocument();
    // Not the form's red box: that is for a save refused.
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await choose(user, dialog, /^Status/, 'In progress');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket #12 is now in progress')).toBeInTheDocument();
  });

  it('shows nothing of a history that has no lines', async () => {
    const ticket = buildTicket();
    const { dialog, calls } = await openUpdate(ticket, firstOf(historyOf(() => []), patched(ticket)));
    await waitFor(() => expect(historyCalls(calls)).toHaveLength(1));
    await waitFor(() => expect(within(dialog).queryByRole('status', { name: 'Loading the history' })).not.toBeInTheDocument());
    expect(within(dialog).queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    expect(within(dialog).queryByText('History')).not.toBeInTheDocument();
  });

  it('reads the history again after a save: opened again, the ticket shows the change', async () => {
    let ticket = buildTicket();
    let entries = HISTORY.slice(0, 1);
    const moved = buildHistoryEntry({
      at: '2026-11-25T10:00:00Z',
      action: 'ticket.status_changed',
      description: 'Ticket #12 (device SHS-0001): Open → In progress',
      actor_username: 'demo',
    });
    const { user, dialog, calls } = await openUpdate(
      ticket,
      firstOf(
        historyOf(() => entries),
        (c) => {
          const reply = patched(ticket)(c);
          if (!reply) return undefined;
          ticket = { ...ticket, status: 'in_progress' };
          entries = [...entries, moved];
          return reply;
        },
      ),
    );
    await waitFor(() => expect(historyLines(dialog)).toHaveLength(1));
    await choose(user, dialog, /^Status/, 'In progress');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket #12 is now in progress')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ticket #12' })).not.toBeInTheDocument());
    await waitFor(() => expect(historyCalls(calls)).toHaveLength(2));

    await user.click(await screen.findByRole('button', { name: 'Update Ticket #12' }));
    const again = await screen.findByRole('dialog', { name: 'Ticket #12' });
    await waitFor(() => expect(historyLines(again)).toHaveLength(2));
    expect(historyLines(again)[1]).toBe(`Open → In progress${formatDate('2026-11-25T10:00:00Z', true)} · demo`);
  });

  it('adds a note apart from Save: sent trimmed, shown last in the history, the box emptied', async () => {
    const ticket = buildTicket();
    const noted = buildHistoryEntry({
      at: '2026-11-25T11:00:00Z',
      action: 'ticket.noted',
      description: 'Ticket #12 (device SHS-0001): Note: Visited; the panel cable is cut.',
      actor_username: 'demo',
    });
    const { user, dialog, calls } = await openUpdate(
      ticket,
      firstOf(
        historyOf(() => HISTORY.slice(0, 1)),
        (c) => (c.method === 'POST' && c.url === '/payg/tickets/12/notes' ? jsonResponse(201, { data: [HISTORY[0]!, noted] }) : undefined),
        patched(ticket),
      ),
    );
    await waitFor(() => expect(historyLines(dialog)).toHaveLength(1));
    const box = field(dialog, /^Note/);
    await user.type(box, '  Visited; the panel cable is cut.  ');
    await user.click(within(dialog).getByRole('button', { name: 'Add Note' }));
    expect(await screen.findByText('Note added to ticket #12')).toBeInTheDocument();
    expect(sent(calls, 'POST', '/payg/tickets/12/notes')).toEqual([{ note: 'Visited; the panel cable is cut.' }]);
    await waitFor(() => expect(historyLines(dialog)).toHaveLength(2));
    expect(historyLines(dialog)[1]).toBe(`Note: Visited; the panel cable is cut.${formatDate('2026-11-25T11:00:00Z', true)} · demo`);
    expect(box).toHaveValue('');
    // The dialog stays open, and nothing was saved.
    expect(screen.getByRole('dialog', { name: 'Ticket #12' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  it("asks for the note before sending it, and shows the server's refusal under the box, keeping the text", async () => {
    const ticket = buildTicket();
    const { user, dialog, calls } = await openUpdate(
      ticket,
      firstOf(
        historyOf(() => HISTORY.slice(0, 1)),
        (c) => (c.method === 'POST' && c.url === '/payg/tickets/12/notes' ? fieldError('note', 'must be at most 1000 characters') : undefined),
        patched(ticket),
      ),
    );
    await waitFor(() => expect(historyLines(dialog)).toHaveLength(1));
    await user.click(within(dialog).getByRole('button', { name: 'Add Note' }));
    expect(within(dialog).getByText('Write the note first')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.type(field(dialog, /^Note/), 'Too long, says the server');
    expect(within(dialog).queryByText('Write the note first')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Note' }));
    expect(await within(dialog).findByText('note: must be at most 1000 characters')).toBeInTheDocument();
    expect(field(dialog, /^Note/)).toHaveValue('Too long, says the server');
  });

  it("reads a history line without the ticket's number and device, which the modal already shows", () => {
    expect(historyText('Ticket #4 (device SHS-1004): Open → In progress')).toBe('Open → In progress');
    expect(historyText('Ticket #4 opened for device SHS-1004: Device fault')).toBe('Opened for device SHS-1004: Device fault');
    expect(historyText('Ticket #4 (device SHS-1004): In progress → Resolved; resolution: Replaced the battery; 3 free days given (code count 12)')).toBe(
      'In progress → Resolved; resolution: Replaced the battery; 3 free days given (code count 12)',
    );
    expect(historyText('Ticket #4 (device SHS-1004): assigned to amina')).toBe('Assigned to amina');
    // A serial number with brackets keeps them.
    expect(historyText('Ticket #4 (device SHS (2)): unassigned')).toBe('Unassigned');
    // Anything else is shown as it is.
    expect(historyText('Imported from the old system')).toBe('Imported from the old system');
  });

  it('closes without a call when nothing changed', async () => {
    const { user, dialog, calls } = await openUpdate();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ticket #12' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('keeps a resolved ticket’s resolution, and sends only a changed one', () => {
    const resolved = buildTicket({ status: 'resolved', resolution: 'Replaced the battery.', resolved_at: '2026-11-22T10:00:00Z' });
    const values = updateValuesOf(resolved);
    expect(values.resolution).toBe('Replaced the battery.');
    expect(toTicketUpdate(resolved, values)).toEqual({});
    expect(toTicketUpdate(resolved, { ...values, resolution: 'Replaced the battery and the lamp.' })).toEqual({ resolution: 'Replaced the battery and the lamp.' });
    // Opened again: the resolution stays as history, it is not sent.
    expect(toTicketUpdate(resolved, { ...values, status: 'open', resolution: '' })).toEqual({ status: 'open' });
    expect(validateUpdateTicket(resolved, { ...values, resolution: '  ' })).toEqual({ resolution: 'Resolution is required to resolve a ticket' });
    expect(validateUpdateTicket(resolved, { ...values, status: 'open', resolution: '' })).toEqual({});
    expect(validateUpdateTicket(resolved, { ...values, resolution: 'x'.repeat(1001) })).toEqual({ resolution: 'Resolution must be at most 1000 characters' });
    // Free days are not offered again for a resolved ticket: whatever the form holds, none are sent.
    expect(toTicketUpdate(resolved, { ...values, compensation_days: 3 })).toEqual({});
  });

  it('sends free days only with resolving, and checks them with the resolution', () => {
    const ticket = buildTicket({ status: 'in_progress' });
    const values = { ...updateValuesOf(ticket), status: 'resolved' as const, resolution: 'Fixed' };
    expect(values.compensation_days).toBe('');
    expect(toTicketUpdate(ticket, values)).toEqual({ status: 'resolved', resolution: 'Fixed' });
    expect(toTicketUpdate(ticket, { ...values, compensation_days: 3 })).toEqual({ status: 'resolved', resolution: 'Fixed', compensation_days: 3 });
    expect(toTicketUpdate(ticket, { ...values, status: 'open', compensation_days: 3 })).toEqual({ status: 'open' });
    expect(validateUpdateTicket(ticket, { ...values, resolution: '', compensation_days: 31 })).toEqual({
      resolution: 'Resolution is required to resolve a ticket',
      compensation_days: 'Free Days must be at most 30 (issue a longer code on the Tokens page)',
    });
  });
});
