import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildTicket, listCalls, mockTicketsApi } from '../testing/mock-tickets-api';

async function openTickets(url = '/tickets') {
  seedSession();
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Service Tickets' });
  return { ...view, user: userEvent.setup() };
}

describe('Service Tickets', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists the active tickets with their device, customer, category, status, assignee and age, and the counts of each tab', async () => {
    const { calls } = mockTicketsApi(() => [
      buildTicket(),
      buildTicket({
        ticket_id: 11,
        item_id: 2,
        serial_number: 'SHS-0002',
        product_name: 'Solar Home 80W',
        customer_id: null,
        customer_name: null,
        phone_number: null,
        category: 'token_problem',
        status: 'in_progress',
        assigned_to: { user_id: 8, username: 'otieno' },
        opened_at: '2026-11-24T09:00:00Z',
        days_open: 1,
      }),
    ]);
    await openTickets();
    const table = await screen.findByRole('table', { name: 'Service Tickets' });
    for (const h of ['Ticket', 'Device', 'Customer', 'Category', 'Status', 'Assigned To', 'Opened']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(listCalls(calls)[0]).toBe('/payg/tickets?page=1&limit=25&status=active');

    const [, open, working] = within(table).getAllByRole('row');
    expect(within(open!).getByText('#12')).toBeInTheDocument();
    expect(within(open!).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(within(open!).getByText('Solar Home 50W')).toBeInTheDocument();
    expect(within(open!).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/42');
    expect(within(open!).getByText('0712 345 678')).toBeInTheDocument();
    expect(within(open!).getByText('Device fault')).toBeInTheDocument();
    expect(within(open!).getByText('Open').closest('.mantine-Badge-root')!.getAttribute('style')).toContain('orange');
    expect(within(open!).getByText('Unassigned')).toBeInTheDocument();
    expect(within(open!).getByText(formatDate('2026-11-20T09:00:00Z'))).toBeInTheDocument();
    expect(within(open!).getByText('5 days open')).toBeInTheDocument();
    expect(within(open!).getByRole('button', { name: 'Update Ticket #12' })).toBeInTheDocument();

    // A device given out to nobody when the ticket was opened.
    expect(within(working!).getByText('No customer')).toBeInTheDocument();
    expect(within(working!).queryByRole('link', { name: /Amina/ })).not.toBeInTheDocument();
    expect(within(working!).getByText('Code not accepted')).toBeInTheDocument();
    expect(within(working!).getByText('In progress').closest('.mantine-Badge-root')!.getAttribute('style')).toContain('blue');
    expect(within(working!).getByText('otieno')).toBeInTheDocument();
    expect(within(working!).getByText('1 day open')).toBeInTheDocument();

    // Active is open and in progress together; All is every status.
    expect(screen.getByRole('tab', { name: /^Active/ })).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByRole('tab', { name: /^Active/ })).getByLabelText('5 tickets')).toHaveTextContent('5');
    expect(within(screen.getByRole('tab', { name: /^Open/ })).getByLabelText('2 tickets')).toBeInTheDocument();
    expect(within(screen.getByRole('tab', { name: /^In Progress/ })).getByLabelText('3 tickets')).toBeInTheDocument();
    expect(within(screen.getByRole('tab', { name: /^Resolved/ })).getByLabelText('4 tickets')).toBeInTheDocument();
    expect(within(screen.getByRole('tab', { name: /^All/ })).getByLabelText('9 tickets')).toBeInTheDocument();
  });

  it('says under the device whether it was in warranty when the ticket was opened', async () => {
    const warranty = { months: 12, starts_at: '2026-03-01T08:00:00Z', until: '2027-03-01T08:00:00Z', in_warranty: true };
    mockTicketsApi(() => [
      buildTicket({ warranty }),
      buildTicket({ ticket_id: 11, serial_number: 'SHS-0002', warranty: { ...warranty, until: '2026-03-01T08:00:00Z', in_warranty: false } }),
      buildTicket({ ticket_id: 10, serial_number: 'SHS-0003' }),
    ]);
    await openTickets();
    const table = await screen.findByRole('table', { name: 'Service Tickets' });
    const [, inside, outside, none] = within(table).getAllByRole('row');
    const badge = within(inside!).getByText(`In warranty until ${formatDate('2027-03-01T08:00:00Z')}`);
    expect(badge.closest('.mantine-Badge-root')!.getAttribute('style')).toContain('green');
    expect(within(outside!).getByText(`Out of warranty since ${formatDate('2026-03-01T08:00:00Z')}`)).toBeInTheDocument();
    // No warranty set for its product: nothing said of one.
    expect(within(none!).queryByText(/warranty/)).not.toBeInTheDocument();
  });

  it("says under a resolved ticket's status the free days given with it", async () => {
    mockTicketsApi(() => [
      buildTicket({ status: 'resolved', resolution: 'Replaced the battery.', resolved_at: '2026-11-22T10:00:00Z', compensation_days: 5 }),
      buildTicket({ ticket_id: 11, status: 'resolved', resolution: 'Explained the bill.', resolved_at: '2026-11-22T10:00:00Z', compensation_days: 1 }),
      buildTicket({ ticket_id: 10, status: 'resolved', resolution: 'Explained the bill.', resolved_at: '2026-11-22T10:00:00Z' }),
    ]);
    await openTickets('/tickets?status=resolved');
    const table = await screen.findByRole('table', { name: 'Service Tickets' });
    await within(table).findByText('#12');
    const [, given, one, none] = within(table).getAllByRole('row');
    expect(within(given!).getByText('5 free days')).toBeInTheDocument();
    expect(within(one!).getByText('1 free day')).toBeInTheDocument();
    expect(within(none!).queryByText(/free day/)).not.toBeInTheDocument();
  });

  it('filters by status, assigned to me and serial number, keeps them in the URL, and starts again at page 1', async () => {
    const { calls } = mockTicketsApi(() => [buildTicket()], undefined, 60);
    const { router, user } = await openTickets();
    await screen.findByRole('link', { name: 'SHS-0001' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=2&limit=25&status=active'));
    expect(router.state.location.search).toBe('?page=2');

    await user.click(screen.getByRole('tab', { name: /^Resolved/ }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=25&status=resolved'));
    expect(router.state.location.search).toBe('?status=resolved');
    expect(screen.getByRole('tab', { name: /^Resolved/ })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('switch', { name: 'Assigned to me' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=25&status=resolved&mine=true'));
    expect(router.state.location.search).toBe('?status=resolved&mine=true');

    // Enter searches at once.
    await user.type(screen.getByRole('textbox', { name: 'Search serial number' }), ' SHS-0001 {Enter}');
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=25&status=resolved&serial_number=SHS-0001&mine=true'));
    expect(router.state.location.search).toBe('?status=resolved&serial=SHS-0001&mine=true');

    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved&mine=true'));
    await user.click(screen.getByRole('switch', { name: 'Assigned to me' }));
    await user.click(screen.getByRole('tab', { name: /^Active/ }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('searches a serial number a moment after typing stops', async () => {
    const { calls } = mockTicketsApi();
    const { router, user } = await openTickets();
    await screen.findByRole('link', { name: 'SHS-0001' });
    await user.type(screen.getByRole('textbox', { name: 'Search serial number' }), 'SHS-0009');
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(router.state.location.search).toBe('?serial=SHS-0009'), { timeout: 2000 });
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=25&status=active&serial_number=SHS-0009'));
  });

  it('opens on the filters and page of its URL, and moves a page past the end back to the last one', async () => {
    const { calls } = mockTicketsApi((q) => (Number(q.get('page')) <= 2 ? [buildTicket()] : []), undefined, 30);
    const { router } = await openTickets('/tickets?status=all&serial=SHS-0001&mine=true&page=5');
    expect(await screen.findByRole('link', { name: 'SHS-0001' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=all&serial=SHS-0001&mine=true&page=2');
    expect(listCalls(calls)).toEqual([
      '/payg/tickets?page=5&limit=25&status=all&serial_number=SHS-0001&mine=true',
      '/payg/tickets?page=2&limit=25&status=all&serial_number=SHS-0001&mine=true',
    ]);
    expect(screen.getByRole('tab', { name: /^All/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('switch', { name: 'Assigned to me' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Search serial number' })).toHaveValue('SHS-0001');
    expect(screen.getByText('Showing 26 to 30 of 30 tickets')).toBeInTheDocument();
  });

  it('says when there are no tickets, and what hides them when a filter does', async () => {
    mockTicketsApi(() => []);
    const { user } = await openTickets();
    expect(await screen.findByText('No tickets here')).toBeInTheDocument();
    expect(screen.getByText('Every ticket is resolved. Open one with New Ticket when a customer reports a problem.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Assigned to me' }));
    expect(await screen.findByText('None assigned to you in this tab: turn off Assigned to me to see more.')).toBeInTheDocument();
  });

  it("shows the server's message with Retry when the list fails", async () => {
    let fails = true;
    mockTicketsApi(undefined, (c) => (c.url.startsWith('/payg/tickets?') && fails ? jsonResponse(503, { message: 'Database unavailable' }) : undefined));
    const { user } = await openTickets();
    const failure = (await screen.findByText('Database unavailable')).closest<HTMLElement>('[role="alert"]')!;
    // No counts to show yet: the tabs still filter, without numbers.
    expect(screen.getByRole('tab', { name: 'Active' })).toBeInTheDocument();
    fails = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'SHS-0001' })).toBeInTheDocument();
  });

  it("opens the ticket of a link's ?ticket= in its Update dialog, and closing it takes the param out of the URL", async () => {
    const { calls } = mockTicketsApi(() => [buildTicket(), buildTicket({ ticket_id: 7, serial_number: 'SHS-0007', status: 'resolved', resolution: 'Replaced the panel.' })]);
    const { router, user } = await openTickets('/tickets?status=resolved&ticket=7');
    const dialog = await screen.findByRole('dialog', { name: 'Ticket #7' });
    expect(within(dialog).getByRole('link', { name: 'SHS-0007' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Resolution/, { selector: 'textarea' })).toHaveValue('Replaced the panel.');
    expect(calls.filter((c) => c.url === '/payg/tickets/7').map((c) => c.method)).toEqual(['GET']);
    // The list behind it is the one the rest of the URL asks for.
    expect(listCalls(calls)[0]).toBe('/payg/tickets?page=1&limit=25&status=resolved');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?status=resolved');

    // A link followed while on the screen (the bell's) opens its ticket too.
    await act(() => router.navigate('/tickets?ticket=12'));
    expect(await screen.findByRole('dialog', { name: 'Ticket #12' })).toBeInTheDocument();
  });

  it('says when the ticket of a link is not found, and Dismiss takes it out of the URL', async () => {
    mockTicketsApi(() => [buildTicket()]);
    const { router, user } = await openTickets('/tickets?ticket=99');
    const alert = (await screen.findByText('Ticket #99 was not found')).closest<HTMLElement>('[role="alert"]')!;
    expect(within(alert).getByText("It is not one of your organization's tickets, or it was deleted with its device.")).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The list is there all the same.
    expect(await screen.findByRole('link', { name: 'SHS-0001' })).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByText('Ticket #99 was not found')).not.toBeInTheDocument();
  });

  it("says the server's message when the ticket of a link fails to load, with Retry", async () => {
    let fails = true;
    mockTicketsApi(undefined, (c) => (c.url === '/payg/tickets/12' && fails ? jsonResponse(503, { message: 'Database unavailable' }) : undefined));
    const { user } = await openTickets('/tickets?ticket=12');
    const alert = (await screen.findByText('Failed to load Ticket #12')).closest<HTMLElement>('[role="alert"]')!;
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
    fails = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: 'Ticket #12' })).toBeInTheDocument();
  });

  it("lists one customer's tickets for ?customer=, named in a filter that Remove takes off", async () => {
    const { calls } = mockTicketsApi((q) => (q.get('status') === 'resolved' ? [] : [buildTicket()]));
    const { router, user } = await openTickets('/tickets?customer=42');
    await screen.findByRole('link', { name: 'SHS-0001' });
    expect(listCalls(calls)[0]).toBe('/payg/tickets?page=1&limit=25&status=active&customer_id=42');
    expect(screen.getByText('Customer: Amina Wanjiru')).toBeInTheDocument();

    // A tab with none of theirs keeps the name, and says what hides the rest.
    await user.click(screen.getByRole('tab', { name: /^Resolved/ }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=25&status=resolved&customer_id=42'));
    expect(router.state.location.search).toBe('?status=resolved&customer=42');
    expect(await screen.findByText('None for this customer in this tab: remove the customer filter to see more.')).toBeInTheDocument();
    expect(screen.getByText('Customer: Amina Wanjiru')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove customer filter' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved'));
    expect(listCalls(calls).at(-1)).toBe('/payg/tickets?page=1&limit=25&status=resolved');
    expect(screen.queryByText(/^Customer:/)).not.toBeInTheDocument();
  });

  it('names the customer by number until a ticket of theirs says who they are', async () => {
    mockTicketsApi(() => []);
    await openTickets('/tickets?customer=42&mine=true');
    expect(await screen.findByText('None assigned to you for this customer in this tab: remove the customer filter or turn off Assigned to me to see more.')).toBeInTheDocument();
    expect(screen.getByText('Customer: #42')).toBeInTheDocument();
  });

  it('is in the sidebar after Collections', async () => {
    mockTicketsApi();
    await openTickets();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const labels = within(nav).getAllByRole('link').map((a) => a.textContent);
    expect(labels.indexOf('Service Tickets')).toBe(labels.indexOf('Collections') + 1);
    expect(within(nav).getByRole('link', { name: 'Service Tickets' })).toHaveAttribute('aria-current', 'page');
  });
});
