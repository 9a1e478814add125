import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TICKET_DESCRIPTION_MAX } from '@kidogo/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { validateOpenTicket } from '../components/open-ticket-modal';
import { buildTicket, fieldError, listCalls, mockTicketsApi, sent, type Handler } from '../testing/mock-tickets-api';

type User = ReturnType<typeof userEvent.setup>;

async function openNewTicket(extra?: Handler) {
  const api = mockTicketsApi(undefined, extra);
  seedSession();
  renderApp('/tickets');
  await screen.findByRole('link', { name: 'SHS-0001' });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'New Ticket' }));
  const dialog = await screen.findByRole('dialog', { name: 'New Ticket' });
  return { ...api, user, dialog };
}

const field = (dialog: HTMLElement, label: RegExp) => within(dialog).getByLabelText(label, { selector: 'input, textarea' });

async function choose(user: User, dialog: HTMLElement, label: RegExp, option: string) {
  await user.click(field(dialog, label));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function fillIn(user: User, dialog: HTMLElement, { serial = 'SHS-0001', assignee }: { serial?: string; assignee?: string } = {}) {
  await user.type(field(dialog, /^Serial Number/), serial);
  await choose(user, dialog, /^Category/, 'Code not accepted');
  await user.type(field(dialog, /^Description/), '  The code 123 456 789 is refused.  ');
  if (assignee) await choose(user, dialog, /^Assign To/, assignee);
}

describe('Service Tickets: New Ticket', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('says what is missing before anything is sent', async () => {
    const { user, dialog, calls } = await openNewTicket();
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(within(dialog).getByText('Serial Number is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Category is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Description is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('refuses a description longer than the API takes, and counts it', async () => {
    const { user, dialog, calls } = await openNewTicket();
    await user.type(field(dialog, /^Serial Number/), 'SHS-0001');
    await choose(user, dialog, /^Category/, 'Other');
    await user.click(field(dialog, /^Description/));
    await user.paste('x'.repeat(TICKET_DESCRIPTION_MAX + 1));
    expect(within(dialog).getByText(`${TICKET_DESCRIPTION_MAX + 1} / ${TICKET_DESCRIPTION_MAX}`)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(within(dialog).getByText(`Description must be at most ${TICKET_DESCRIPTION_MAX} characters`)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('opens the ticket with its assignee, says so, and reads the list again', async () => {
    const { user, dialog, calls } = await openNewTicket((c) =>
      c.method === 'POST' && c.url === '/payg/tickets'
        ? jsonResponse(201, { data: buildTicket({ ticket_id: 13, category: 'token_problem', assigned_to: { user_id: 8, username: 'otieno' } }) })
        : undefined,
    );
    // The organization's users, to choose from; nobody until chosen.
    expect(field(dialog, /^Assign To/)).toHaveAttribute('placeholder', 'Unassigned');
    await fillIn(user, dialog, { assignee: 'otieno' });
    const reads = listCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));

    expect(await screen.findByText('Ticket #13 opened for SHS-0001')).toBeInTheDocument();
    expect(sent(calls, 'POST', '/payg/tickets')).toEqual([
      { serial_number: 'SHS-0001', category: 'token_problem', description: 'The code 123 456 789 is refused.', assigned_to: 8 },
    ]);
    expect(calls.find((c) => c.url === '/payg/tickets/assignees')?.headers.authorization).toBe('Bearer access-1');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Ticket' })).not.toBeInTheDocument());
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(reads));
  });

  it('leaves the assignee out when nobody is chosen', async () => {
    const { user, dialog, calls } = await openNewTicket((c) =>
      c.method === 'POST' && c.url === '/payg/tickets' ? jsonResponse(201, { data: buildTicket({ ticket_id: 14 }) }) : undefined,
    );
    await fillIn(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    await screen.findByText('Ticket #14 opened for SHS-0001');
    expect(sent(calls, 'POST', '/payg/tickets')[0]).not.toHaveProperty('assigned_to');
  });

  it('shows an unknown serial number under its field, and keeps the form', async () => {
    const { user, dialog } = await openNewTicket((c) =>
      c.method === 'POST' && c.url === '/payg/tickets' ? jsonResponse(404, { detail: 'Device not found', message: 'Device not found' }) : undefined,
    );
    await fillIn(user, dialog, { serial: 'SHS-9999' });
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(await within(dialog).findByText('Device not found')).toBeInTheDocument();
    expect(field(dialog, /^Serial Number/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(dialog, /^Serial Number/)).toHaveValue('SHS-9999');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows a 400 under the field it names, and any other refusal in the red box with the server's words", async () => {
    let reply = fieldError('assigned_to', 'must be an active user of your organization');
    const { user, dialog } = await openNewTicket((c) => (c.method === 'POST' && c.url === '/payg/tickets' ? reply : undefined));
    await fillIn(user, dialog, { assignee: 'amina' });
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    expect(await within(dialog).findByText('Assign To must be an active user of your organization')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    reply = jsonResponse(500, { message: 'Database unavailable' });
    await user.click(within(dialog).getByRole('button', { name: 'Open Ticket' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to open the ticket');
    expect(alert).toHaveTextContent('Database unavailable');
  });

  it('validates as the contract does', () => {
    const values = { serial_number: ' SHS-0001 ', category: 'billing' as const, description: ' Charged twice ', assigned_to: null };
    expect(validateOpenTicket(values)).toEqual({});
    expect(validateOpenTicket({ ...values, serial_number: '  ', description: '' })).toEqual({
      serial_number: 'Serial Number is required',
      description: 'Description is required',
    });
    expect(validateOpenTicket({ ...values, category: null })).toEqual({ category: 'Category is required' });
  });
});
