import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { captureDownloads } from '@/testing/downloads';
import { renderApp } from '@/testing/render';
import { buildAccount as account, listCalls, mockCollectionsApi, mockPromisesApi, summaryCalls } from '../testing/mock-collections-api';

async function openCollections(url = '/collections') {
  seedSession();
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Collections' });
  return view;
}

describe('Collections', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the count of each band and the share of open accounts out of credit', async () => {
    mockCollectionsApi();
    await openCollections();
    const all = await screen.findByRole('radio', { name: 'All: 6 devices' });
    expect(all).toHaveAttribute('aria-checked', 'true');
    expect(within(all).getByText('15.0% of 40 open accounts')).toBeInTheDocument();
    // The cards are one named group, as a screen reader announces it.
    expect(within(screen.getByRole('radiogroup', { name: 'Days without credit' })).getAllByRole('radio')).toHaveLength(5);
    expect(screen.getByRole('radio', { name: '0–7 days: 1 device' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '8–30 days: 3 devices' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '31–90 days: 2 devices' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Over 90 days: 0 devices' })).toBeInTheDocument();
    // What is left to pay in each band, on all open accounts, and the portfolio at risk over 30 days.
    expect(within(screen.getByRole('radio', { name: '8–30 days: 3 devices' })).getByText(/^[A-Z]{3} 25,500\.00 left to pay$/)).toBeInTheDocument();
    expect(within(screen.getByRole('radio', { name: 'Over 90 days: 0 devices' })).getByText(/^[A-Z]{3} 0\.00 left to pay$/)).toBeInTheDocument();
    const footer = screen.getByText(/Counts as of /);
    expect(footer).toHaveTextContent(/^Left to pay on open accounts [A-Z]{3} 360,000\.00 · portfolio at risk over 30 days 5\.0% · Counts as of /);
  });

  it('leaves the money out for a server that does not say it', async () => {
    mockCollectionsApi(undefined, (c) =>
      c.url === '/payg/collections/summary'
        ? new Response(JSON.stringify({ data: { open_accounts: 4, out_of_credit: 1, buckets: [{ bucket: '0-7', label: '0–7 days', devices: 1 }], as_of: '2026-11-25T10:00:00Z' } }), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          })
        : undefined,
    );
    await openCollections();
    await screen.findByRole('radio', { name: '0–7 days: 1 device' });
    expect(screen.queryByText(/left to pay/)).not.toBeInTheDocument();
    expect(screen.getByText(/Counts as of /)).toHaveTextContent(/^Counts as of /);
  });

  it('lists each device with links to its customer, a tel: link, its activity, its days without credit and its money', async () => {
    const { calls } = mockCollectionsApi(() => [
      account(),
      account({
        item_id: 2,
        serial_number: 'SHS-0002',
        customer_id: 43,
        customer_name: 'Baraka Otieno',
        phone_number: null,
        credit_until: null,
        out_of_credit_since: '2026-08-01T09:00:00Z',
        days_without_credit: 116,
        bucket: 'over-90',
        last_payment_at: null,
        last_payment_amount: null,
        template_name: null,
        daily_price: null,
        currency: null,
        remaining: null,
      }),
    ]);
    await openCollections();
    const table = await screen.findByRole('table', { name: 'Collections' });
    for (const h of ['Customer', 'Phone', 'Device', 'Days Without Credit', 'Last Payment', 'Last Contact', 'Plan', 'Remaining']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(listCalls(calls)[0]).toBe('/payg/collections?page=1&limit=20&bucket=all');

    const [, paying, neverPaid] = within(table).getAllByRole('row');
    expect(within(paying).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/42');
    expect(within(paying).getByRole('link', { name: '0712 345 678' })).toHaveAttribute('href', 'tel:0712345678');
    expect(within(paying).getByRole('link', { name: 'SHS-0001' })).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(within(paying).getByText('Solar Home 50W')).toBeInTheDocument();
    expect(within(paying).getByText('12 days')).toBeInTheDocument();
    expect(within(paying).getByText(/^Since /)).toBeInTheDocument();
    expect(within(paying).getByText('KES 500.00')).toBeInTheDocument();
    expect(within(paying).getByText('Daily 50')).toBeInTheDocument();
    expect(within(paying).getByText('KES 50.00 / day')).toBeInTheDocument();
    expect(within(paying).getByText('KES 10,500.00')).toBeInTheDocument();

    expect(within(neverPaid).getByRole('link', { name: 'Baraka Otieno' })).toHaveAttribute('href', '/customer-payment-details/43');
    expect(within(neverPaid).getByText('116 days')).toBeInTheDocument();
    expect(within(neverPaid).getByText(/^Never paid · given /)).toBeInTheDocument();
    expect(within(neverPaid).getByText('No payments')).toBeInTheDocument();
    // No phone, contact, plan or payoff price: dashes, not empty cells.
    expect(within(neverPaid).getAllByText('—')).toHaveLength(4);
  });

  it("marks a device with a service ticket not resolved yet, linked to the device's page", async () => {
    mockCollectionsApi(() => [
      account({ open_ticket: { ticket_id: 7, category: 'device_fault', status: 'in_progress', opened_at: '2026-11-20T08:00:00Z' } }),
      account({ item_id: 2, serial_number: 'SHS-0002', customer_id: 43, customer_name: 'Baraka Otieno' }),
    ]);
    await openCollections();
    const table = await screen.findByRole('table', { name: 'Collections' });
    const [, repaired, working] = within(table).getAllByRole('row');
    const mark = within(repaired!).getByRole('link', { name: 'Ticket #7 in progress for SHS-0001' });
    expect(mark).toHaveAttribute('href', '/device-activity/SHS-0001');
    expect(mark).toHaveTextContent('Ticket #7 · In progress');
    expect(within(working!).queryByRole('link', { name: /^Ticket #/ })).not.toBeInTheDocument();
  });

  it('offers Send SMS on each row, but not for a customer who asked for no texts', async () => {
    const user = userEvent.setup();
    mockCollectionsApi(() => [account(), account({ item_id: 2, serial_number: 'SHS-0002', customer_id: 43, customer_name: 'Baraka Otieno', sms_opted_out: true })]);
    await openCollections();
    const table = await screen.findByRole('table', { name: 'Collections' });
    const [, takes, stopped] = within(table).getAllByRole('row');
    expect(within(takes!).getByRole('button', { name: 'Send SMS to Amina Wanjiru · SHS-0001' })).toBeEnabled();
    const off = within(stopped!).getByRole('button', { name: 'Send SMS to Baraka Otieno · SHS-0002 (Asked for no texts (STOP): call instead)' });
    expect(off).toHaveAttribute('aria-disabled', 'true');
    await user.click(off);
    expect(screen.queryByRole('dialog', { name: 'Send SMS' })).not.toBeInTheDocument();
    await user.click(within(takes!).getByRole('button', { name: 'Send SMS to Amina Wanjiru · SHS-0001' }));
    expect(await screen.findByRole('dialog', { name: 'Send SMS' })).toBeInTheDocument();
  });

  it('filters by a band, keeps it in the URL and starts again at page 1', async () => {
    const user = userEvent.setup();
    const { calls } = mockCollectionsApi((bucket) => (bucket === 'over-90' ? [] : [account()]), undefined, 45);
    const { router } = await openCollections();
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(listCalls(calls)).toContain('/payg/collections?page=2&limit=20&bucket=all');

    await user.click(await screen.findByRole('radio', { name: /^8–30 days/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?bucket=8-30'));
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=8-30');
    expect(screen.getByRole('radio', { name: /^8–30 days/ })).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByRole('radio', { name: /^Over 90 days/ }));
    expect(await screen.findByText('No devices in this band.')).toBeInTheDocument();
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=over-90');

    await user.click(screen.getByRole('radio', { name: /^All/ }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('opens on the band and page of its URL, and moves a page past the end back to the last one', async () => {
    const { calls } = mockCollectionsApi((_, page) => (page <= 2 ? [account()] : []), undefined, 25);
    const { router } = await openCollections('/collections?bucket=31-90&page=7');
    expect(await screen.findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?bucket=31-90&page=2');
    expect(listCalls(calls)).toEqual(['/payg/collections?page=7&limit=20&bucket=31-90', '/payg/collections?page=2&limit=20&bucket=31-90']);
    expect(screen.getByRole('radio', { name: /^31–90 days/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Showing 21 to 25 of 25 devices')).toBeInTheDocument();
  });

  it('says when no device is out of credit', async () => {
    mockCollectionsApi(() => []);
    await openCollections();
    expect(await screen.findByText('No devices are out of credit.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it("shows the server's message with Retry when the list fails, and the counts' failure apart", async () => {
    const user = userEvent.setup();
    let listFails = true;
    mockCollectionsApi(undefined, (c) => {
      if (c.url.startsWith('/payg/collections/summary')) return jsonResponse(500, { message: 'Counting failed' });
      if (c.url.startsWith('/payg/collections?') && listFails) return jsonResponse(503, { message: 'Database unavailable' });
      return undefined;
    });
    await openCollections();
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(await screen.findByText('Counting failed')).toBeInTheDocument();
    expect(screen.getByText('Counts unavailable')).toBeInTheDocument();
    // Without counts the bands still filter.
    expect(screen.getByRole('radio', { name: '8–30 days' })).toBeInTheDocument();

    listFails = false;
    const failure = screen.getByText('Database unavailable').closest<HTMLElement>('[role="alert"]')!;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
  });

  it('exports the chosen band as CSV with the token, and says when the export fails', async () => {
    const user = userEvent.setup();
    const names = captureDownloads();
    let fail = false;
    const { calls } = mockCollectionsApi(undefined, (c) =>
      c.url.startsWith('/payg/collections/export')
        ? fail
          ? jsonResponse(500, { message: 'Export exploded' })
          : new Response('customer_name,phone_number\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })
        : undefined,
    );
    await openCollections('/collections?bucket=8-30');
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['collections.csv']));
    const exported = calls.find((c) => c.url.startsWith('/payg/collections/export'))!;
    expect(exported.url).toBe('/payg/collections/export?bucket=8-30');
    expect(exported.headers.authorization).toBe('Bearer access-1');

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Failed to export collections')).toBeInTheDocument();
    expect(screen.getByText('Export exploded')).toBeInTheDocument();
  });
});

describe('Collections by sales agent', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const agentField = () => screen.getByRole('combobox', { name: 'Agent' });
  const options = () => screen.getAllByRole('option').map((o) => o.textContent);

  it('offers the agents with open accounts, customers without one as No agent, All agents when none is chosen', async () => {
    const user = userEvent.setup();
    const { calls } = mockCollectionsApi();
    await openCollections();
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    const field = agentField();
    expect(field).toHaveValue('');
    expect(field).toHaveAttribute('placeholder', 'All agents');
    await user.click(field);
    await waitFor(() => expect(options()).toEqual(['AGT-001', 'AGT-002', 'No agent']));
    expect(calls.filter((c) => c.url === '/payg/collections/agents')).toHaveLength(1);
    // Every agent's: nothing about an agent goes to the server.
    expect(listCalls(calls)).toEqual(['/payg/collections?page=1&limit=20&bucket=all']);
    expect(summaryCalls(calls)).toEqual(['/payg/collections/summary']);
    // Typing narrows the list.
    await user.type(field, '002');
    await waitFor(() => expect(options()).toEqual(['AGT-002']));
  });

  it("filters the list, the counts and the export by the agent chosen, keeps it in the URL beside the band, and clears it", async () => {
    const user = userEvent.setup();
    const names = captureDownloads();
    const { calls } = mockCollectionsApi(
      (_, __, agent) => (agent === 'AGT-002' ? [account({ customer_name: 'Baraka Otieno', customer_id: 43 })] : [account()]),
      (c) => (c.url.startsWith('/payg/collections/export') ? new Response('customer_name\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) : undefined),
      45,
    );
    const { router } = await openCollections('/collections?bucket=8-30&page=2');
    await screen.findByRole('link', { name: 'Amina Wanjiru' });

    await user.click(agentField());
    await user.click(await screen.findByRole('option', { name: 'AGT-002' }));
    // A new filter starts again at page 1.
    await waitFor(() => expect(router.state.location.search).toBe('?bucket=8-30&agent=AGT-002'));
    expect(agentField()).toHaveValue('AGT-002');
    expect(await screen.findByRole('link', { name: 'Baraka Otieno' })).toBeInTheDocument();
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=8-30&agent=AGT-002');
    // The band counts are the agent's.
    expect(await screen.findByRole('radio', { name: 'All: 2 devices' })).toBeInTheDocument();
    expect(within(screen.getByRole('radio', { name: 'All: 2 devices' })).getByText('22.2% of 9 open accounts')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '8–30 days: 2 devices' })).toHaveAttribute('aria-checked', 'true');
    expect(summaryCalls(calls).at(-1)).toBe('/payg/collections/summary?agent=AGT-002');
    expect(screen.getByText(/Counts as of /)).toHaveTextContent(/^Left to pay on open accounts of agent AGT-002 [A-Z]{3} 81,000\.00 · /);

    // The export is the agent's devices of the band.
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['collections.csv']));
    expect(calls.find((c) => c.url.startsWith('/payg/collections/export'))!.url).toBe('/payg/collections/export?bucket=8-30&agent=AGT-002');

    // A band chosen keeps the agent.
    await user.click(screen.getByRole('radio', { name: /^All/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?agent=AGT-002'));
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=all&agent=AGT-002');

    // Cleared: every agent's again, and the agent leaves the URL.
    // The clear button (Mantine hides it from screen readers, who delete the text instead).
    await user.click(agentField().closest('.mantine-Select-root')!.querySelector('.mantine-InputClearButton-root')!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(agentField()).toHaveValue('');
    expect(await screen.findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=all');
    expect(await screen.findByRole('radio', { name: 'All: 6 devices' })).toBeInTheDocument();
  });

  it('opens on the agent of its URL, customers without an agent too, with their counts', async () => {
    const { calls } = mockCollectionsApi();
    await openCollections('/collections?agent=%28no+agent%29');
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    expect(listCalls(calls)).toEqual(['/payg/collections?page=1&limit=20&bucket=all&agent=%28no+agent%29']);
    expect(summaryCalls(calls)).toEqual(['/payg/collections/summary?agent=%28no+agent%29']);
    await waitFor(() => expect(agentField()).toHaveValue('No agent'));
    expect(await screen.findByRole('radio', { name: 'All: 2 devices' })).toBeInTheDocument();
    expect(screen.getByText('Showing only the devices of customers without an agent.')).toBeInTheDocument();
  });

  it('shows an agent of a shared link that the list does not name, and says when the agent has nothing out of credit', async () => {
    const user = userEvent.setup();
    const { calls } = mockCollectionsApi((_, __, agent) => (agent === 'AGT-099' ? [] : [account()]));
    const { router } = await openCollections('/collections?bucket=31-90&agent=AGT-099');
    expect(await screen.findByText('No devices of this agent in this band.')).toBeInTheDocument();
    expect(screen.getByText('Choose All agents, or another band, to see more devices.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?bucket=31-90&agent=AGT-099');
    expect(listCalls(calls)).toEqual(['/payg/collections?page=1&limit=20&bucket=31-90&agent=AGT-099']);
    expect(agentField()).toHaveValue('AGT-099');
    await user.click(agentField());
    // The search starts from the chosen agent's name: cleared, every option shows.
    await user.clear(agentField());
    await waitFor(() => expect(options()).toEqual(['AGT-099', 'AGT-001', 'AGT-002', 'No agent']));

    await user.click(screen.getByRole('option', { name: 'AGT-001' }));
    await waitFor(() => expect(router.state.location.search).toBe('?bucket=31-90&agent=AGT-001'));
    await user.click(screen.getByRole('radio', { name: /^All/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?agent=AGT-001'));
  });

  it('says the agent of the URL has no device out of credit at all', async () => {
    mockCollectionsApi(() => []);
    await openCollections('/collections?agent=AGT-001');
    expect(await screen.findByText('No devices of this agent are out of credit.')).toBeInTheDocument();
    expect(screen.getByText('Choose All agents to see every device out of credit.')).toBeInTheDocument();
  });

  it('reads an agent too long for the API as every agent', async () => {
    const { calls } = mockCollectionsApi();
    await openCollections(`/collections?agent=${'A'.repeat(65)}`);
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    expect(listCalls(calls)).toEqual(['/payg/collections?page=1&limit=20&bucket=all']);
    expect(agentField()).toHaveValue('');
  });

  it('drops the agent on the way to Promises to Pay, as the band', async () => {
    const user = userEvent.setup();
    const { calls } = mockPromisesApi();
    const { router } = await openCollections('/collections?bucket=8-30&agent=AGT-001');
    await screen.findByRole('link', { name: 'Amina Wanjiru' });
    await user.click(screen.getByRole('tab', { name: 'Promises to Pay' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=promises'));
    expect(screen.queryByRole('combobox', { name: 'Agent' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Out of Credit' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(agentField()).toHaveValue(''));
    expect(listCalls(calls).at(-1)).toBe('/payg/collections?page=1&limit=20&bucket=all');
  });

  it('says the agents failed to load, with Retry, and the list still shows unfiltered', async () => {
    const user = userEvent.setup();
    let fail = true;
    const { calls } = mockCollectionsApi(undefined, (c) =>
      c.url === '/payg/collections/agents' && fail ? jsonResponse(503, { message: 'Database unavailable' }) : undefined,
    );
    await openCollections();
    expect(await screen.findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
    expect(await screen.findByText(/^Agents unavailable: Database unavailable/)).toBeInTheDocument();
    expect(listCalls(calls)).toEqual(['/payg/collections?page=1&limit=20&bucket=all']);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText(/^Agents unavailable/)).not.toBeInTheDocument());
    await user.click(agentField());
    await waitFor(() => expect(options()).toEqual(['AGT-001', 'AGT-002', 'No agent']));
  });

  it('says only the first agents are listed when there are more', async () => {
    mockCollectionsApi(undefined, (c) => (c.url === '/payg/collections/agents' ? jsonResponse(200, { data: { agents: ['AGT-001'], truncated: true } }) : undefined));
    await openCollections();
    expect(await screen.findByText('The first 500 agents')).toBeInTheDocument();
  });
});
