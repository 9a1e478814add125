import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { Ticket, TicketUpdate } from '../api/types';
import { toTicketUpdate, updateValuesOf, validateUpdateTicket } from '../components/update-ticket-modal';
import { buildTicket, fieldError, listCalls, mockTicketsApi, sent, type Handler } from '../testing/mock-tickets-api';

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
  });
});
