import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { deferred, jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { Report } from '../api/types';
import { buildStatementReply, mockStatementUpload } from '../testing/mock-statement-upload';
import { formatCell } from '../components/report-table';

const revenueReport: Report = {
  report: 'revenue',
  from: '2025-01-01',
  to: '2025-12-31',
  generated_at: '2026-01-01T00:00:00Z',
  columns: [
    { key: 'month', label: 'Month', type: 'text' },
    { key: 'revenue', label: 'Revenue', type: 'money' },
    { key: 'payments', label: 'Payments', type: 'number' },
  ],
  rows: [
    { month: '2025-11', revenue: '1200.50', payments: 4 },
    { month: '2025-12', revenue: '800.00', payments: 2 },
  ],
  totals: { revenue: '2000.50', payments: 6, rows: 2 },
};

function mockReportsApi(reply: (body: Record<string, unknown>) => Response) {
  return mockFetch((call: RecordedCall) => {
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    if (call.url === '/payg/reports/page') return reply(JSON.parse(call.body ?? '{}'));
    if (call.url === '/payg/collections/agents') return jsonResponse(200, { data: { agents: ['AGT-001', 'AGT-002', '(no agent)'], truncated: false } });
    return jsonResponse(404, { message: 'not mocked' });
  });
}

describe('reports page', { timeout: 20_000 }, () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the report cards: the three of the spec, the repossessions, the agents, the service tickets, the portfolio, the documents and M-Pesa Express', async () => {
    seedSession();
    mockReportsApi(() => jsonResponse(200, revenueReport));
    renderApp('/reports');
    for (const title of ['Revenue Report', 'Customer Report', 'Token Report', 'Repossession Report', 'Agent Report', 'Service Ticket Report', 'Portfolio Report', 'Documents Report', 'Ask to Pay Report']) {
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByText(/Monthly revenue analysis/)).toBeInTheDocument();
  });

  it("generates the documents report: each agent's devices given and how complete their customers' files are, 90 days by default", async () => {
    seedSession();
    const { calls } = mockReportsApi(() =>
      jsonResponse(200, {
        report: 'documents',
        from: '2026-08-31',
        to: '2026-11-28',
        generated_at: '2026-11-28T09:00:00Z',
        columns: [
          { key: 'agent', label: 'Agent', type: 'text' },
          { key: 'devices_given', label: 'Devices Given', type: 'number' },
          { key: 'id_card', label: 'ID Card (Both Sides)', type: 'number' },
          { key: 'photo', label: 'Photo', type: 'number' },
          { key: 'agreement', label: 'Signed Agreement', type: 'number' },
          { key: 'complete', label: 'Complete', type: 'number' },
          { key: 'complete_share', label: 'Complete %', type: 'percent' },
          { key: 'missing', label: 'Missing Documents', type: 'number' },
        ],
        rows: [
          { agent: 'AGT-2', devices_given: 12, id_card: 5, photo: 3, agreement: 2, complete: 2, complete_share: 16.7, missing: 10 },
          { agent: 'AGT-1', devices_given: 30, id_card: 28, photo: 25, agreement: 27, complete: 26, complete_share: 86.7, missing: 4 },
        ],
        totals: { rows: 2, devices_given: 42, id_card: 33, photo: 28, agreement: 29, complete: 28, complete_share: 66.7, missing: 14 },
      }),
    );
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Documents Report' }));
    const table = await screen.findByRole('table', { name: 'documents report' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/AGT-2\s*12\s*5\s*3\s*2\s*2\s*16\.7%\s*10/);
    expect(within(table).getByText('66.7%')).toBeInTheDocument();
    expect(within(table).getByText('Total (2 rows)')).toBeInTheDocument();
    const body = JSON.parse(calls.find((c) => c.url === '/payg/reports/page')!.body!);
    expect(body).toMatchObject({ report: 'documents', format: 'json' });
    expect((new Date(body.to).getTime() - new Date(body.from).getTime()) / 86_400_000).toBe(89);
  });

  it('generates a revenue report: the table with money in 2 decimals and a totals row', async () => {
    seedSession();
    const { calls } = mockReportsApi(() => jsonResponse(200, revenueReport));
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Revenue Report' }));
    const table = await screen.findByRole('table', { name: 'revenue report' });
    expect(within(table).getByText(/1,200\.50/)).toBeInTheDocument();
    expect(within(table).getByText(/2,000\.50/)).toBeInTheDocument();
    expect(within(table).getByText('Total (2 rows)')).toBeInTheDocument();
    const body = JSON.parse(calls.find((c) => c.url === '/payg/reports/page')!.body!);
    expect(body).toMatchObject({ report: 'revenue', format: 'json' });
    expect(body.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('generates the repossession report: each device taken back and what was written off, with the totals', async () => {
    seedSession();
    const { calls } = mockReportsApi(() =>
      jsonResponse(200, {
        report: 'repossessions',
        from: '2025-11-26',
        to: '2026-11-25',
        generated_at: '2026-11-25T10:00:00Z',
        columns: [
          { key: 'repossessed_at', label: 'Repossessed', type: 'date' },
          { key: 'serial_number', label: 'Serial Number', type: 'text' },
          { key: 'customer_name', label: 'Customer', type: 'text' },
          { key: 'total_paid', label: 'Total Paid', type: 'money' },
          { key: 'written_off', label: 'Written Off', type: 'money' },
          { key: 'reason', label: 'Reason', type: 'text' },
          { key: 'repossessed_by', label: 'By', type: 'text' },
        ],
        rows: [{ repossessed_at: '2026-11-20', serial_number: 'SHS-0042', customer_name: 'Otieno', total_paid: '2400.00', written_off: '17600.00', reason: 'No payment for 120 days', repossessed_by: 'amina' }],
        totals: { total_paid: '2400.00', written_off: '17600.00', rows: 1 },
      } satisfies Report),
    );
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Repossession Report' }));
    const table = await screen.findByRole('table', { name: 'repossessions report' });
    expect(within(table).getByRole('columnheader', { name: 'Written Off' })).toBeInTheDocument();
    expect(within(table).getByText('No payment for 120 days')).toBeInTheDocument();
    expect(within(table).getAllByText(/17,600\.00/).length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(calls.find((c) => c.url === '/payg/reports/page')!.body!)).toMatchObject({ report: 'repossessions', format: 'json' });
  });

  it('generates the agent report: each agent with their customers, money and arrears, the last 30 days by default', async () => {
    seedSession();
    const { calls } = mockReportsApi(() =>
      jsonResponse(200, {
        report: 'agents',
        from: '2026-10-27',
        to: '2026-11-25',
        generated_at: '2026-11-25T10:00:00Z',
        columns: [
          { key: 'agent', label: 'Agent', type: 'text' },
          { key: 'new_customers', label: 'New Customers', type: 'number' },
          { key: 'devices_given', label: 'Devices Given', type: 'number' },
          { key: 'payments', label: 'Payments', type: 'number' },
          { key: 'revenue', label: 'Revenue', type: 'money' },
          { key: 'out_of_credit', label: 'Out of Credit Now', type: 'number' },
          { key: 'over_30_days', label: 'Over 30 Days', type: 'number' },
        ],
        rows: [{ agent: 'AG-002', new_customers: 3, devices_given: 3, payments: 41, revenue: '12500.00', out_of_credit: 2, over_30_days: 1 }],
        totals: { new_customers: 3, devices_given: 3, payments: 41, revenue: '12500.00', out_of_credit: 2, over_30_days: 1, rows: 1 },
        note: 'Commission: 500.00 per device given and 5.00% of payments collected, as set in Settings, Agent Commissions.',
      } satisfies Report),
    );
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Agent Report' }));
    const table = await screen.findByRole('table', { name: 'agents report' });
    expect(within(table).getByRole('columnheader', { name: 'Out of Credit Now' })).toBeInTheDocument();
    // What the commission rests on, under the table.
    expect(screen.getByText(/ · Commission: 500\.00 per device given and 5\.00% of payments collected/)).toBeInTheDocument();
    expect(within(table).getByText('AG-002')).toBeInTheDocument();
    const body = JSON.parse(calls.find((c) => c.url === '/payg/reports/page')!.body!);
    expect(body).toMatchObject({ report: 'agents', format: 'json' });
    const days = (Date.parse(body.to) - Date.parse(body.from)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(29);
    expect(days).toBeLessThanOrEqual(31);
  });

  it('generates the portfolio report: each month of sale with its shares repaid, a dash where a cohort is too young, two years by default', async () => {
    seedSession();
    const percent = (key: string, label: string) => ({ key, label, type: 'percent' as const });
    const { calls } = mockReportsApi(() =>
      jsonResponse(200, {
        report: 'portfolio',
        from: '2024-11-29',
        to: '2026-11-28',
        generated_at: '2026-11-28T10:00:00Z',
        columns: [
          { key: 'month', label: 'Month Given', type: 'text' },
          { key: 'accounts', label: 'Devices Given', type: 'number' },
          { key: 'contract_value', label: 'Contract Value', type: 'money' },
          { key: 'collected', label: 'Collected', type: 'money' },
          percent('repaid', 'Repaid'),
          percent('repaid_3m', 'By Month 3'),
          percent('repaid_6m', 'By Month 6'),
          percent('repaid_12m', 'By Month 12'),
          { key: 'paid_off', label: 'Paid Off', type: 'number' },
          percent('par30', 'PAR30'),
        ],
        rows: [
          { month: '2025-09', accounts: 3, contract_value: '20000.00', collected: '12000.00', repaid: 55, repaid_3m: 15, repaid_6m: 30, repaid_12m: 55, paid_off: 1, par30: 0 },
          { month: '2026-07', accounts: 3, contract_value: '30000.00', collected: '3100.00', repaid: 10.3, repaid_3m: 10.3, repaid_6m: null, repaid_12m: null, paid_off: 0, par30: 35.3 },
        ],
        totals: { rows: 2, accounts: 6, contract_value: '50000.00', collected: '15100.00', repaid: 28.2, repaid_3m: 12.2, repaid_6m: 30, repaid_12m: 55, paid_off: 1, par30: 35.3 },
      } satisfies Report),
    );
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Portfolio Report' }));
    const table = await screen.findByRole('table', { name: 'portfolio report' });
    const [, old, young, total] = within(table).getAllByRole('row');
    expect(within(old!).getAllByRole('cell').map((c) => c.textContent)).toEqual(
      expect.arrayContaining(['55.0%', '15.0%', '30.0%', '0.0%']),
    );
    // Not 6 or 12 months old yet: no share to read.
    expect(within(young!).getAllByRole('cell').filter((c) => c.textContent === '—')).toHaveLength(2);
    expect(within(young!).getByText('35.3%')).toBeInTheDocument();
    expect(within(total!).getByText('28.2%')).toBeInTheDocument();
    expect(within(total!).getByText('Total (2 rows)')).toBeInTheDocument();
    // The cohorts drawn side by side (the browser test looks at the lines themselves).
    expect(document.querySelector('[aria-label="Share repaid per month of sale"]')).not.toBeNull();
    const body = JSON.parse(calls.find((c) => c.url === '/payg/reports/page')!.body!);
    expect(body).toMatchObject({ report: 'portfolio', format: 'json' });
    expect(body).not.toHaveProperty('agent');
    const days = (Date.parse(body.to) - Date.parse(body.from)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(728);
    expect(days).toBeLessThanOrEqual(731);

    // One sales agent's customers: the report, and its downloads, ask for them.
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    await user.click(await screen.findByRole('option', { name: 'AGT-002' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/reports/page').map((c) => JSON.parse(c.body!).agent)).toContain('AGT-002'));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.url === '/payg/reports/page').map((c) => JSON.parse(c.body!))).toContainEqual(
        expect.objectContaining({ report: 'portfolio', format: 'csv', agent: 'AGT-002' }),
      ),
    );
  });

  it('narrows the customer report to some repayment standings: the customers to offer a second product to', async () => {
    const customersReport = (standing: unknown): Report => ({
      report: 'customers',
      from: '2025-12-06',
      to: '2026-12-06',
      generated_at: '2026-12-06T08:00:00Z',
      columns: [
        { key: 'customer_id', label: 'Customer ID', type: 'number' },
        { key: 'customer_name', label: 'Customer Name', type: 'text' },
        { key: 'expected', label: 'Expected by Today', type: 'money' },
        { key: 'repaid_share', label: 'Repaid %', type: 'percent' },
        { key: 'standing', label: 'Standing', type: 'text' },
      ],
      rows: standing
        ? [{ customer_id: 1, customer_name: 'Amina Wanjiru', expected: '2350.00', repaid_share: 93.6, standing: 'On track' }]
        : [
            { customer_id: 1, customer_name: 'Amina Wanjiru', expected: '2350.00', repaid_share: 93.6, standing: 'On track' },
            { customer_id: 2, customer_name: 'Baraka Otieno', expected: '3350.00', repaid_share: 65.7, standing: 'Behind' },
          ],
      totals: { rows: standing ? 1 : 2, expected: standing ? '2350.00' : '5700.00', repaid_share: standing ? 93.6 : 77.2 },
    });
    seedSession();
    const { calls } = mockReportsApi((body) => jsonResponse(200, customersReport(body.standing)));
    renderApp('/reports?report=customers');
    const table = await screen.findByRole('table', { name: 'customers report' });
    expect(within(table).getByText('Baraka Otieno')).toBeInTheDocument();
    const bodies = () => calls.filter((c) => c.url === '/payg/reports/page').map((c) => JSON.parse(c.body!));
    expect(bodies()[0]).not.toHaveProperty('standing');

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Standing' }));
    await user.click(await screen.findByRole('option', { name: 'On track' }));
    await user.click(await screen.findByRole('option', { name: 'Paid off' }));
    // In the order of the standings, whatever the order chosen; from the first page.
    await waitFor(() => expect(bodies().at(-1)).toMatchObject({ report: 'customers', standing: ['paid_off', 'on_track'], offset: 0 }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'customers report' })).queryByText('Baraka Otieno')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(bodies()).toContainEqual(expect.objectContaining({ report: 'customers', format: 'csv', standing: ['paid_off', 'on_track'] })));
  });

  it("links each agent's Out of Credit Now to Collections filtered by that agent, the customers without one too", async () => {
    seedSession();
    const columns: Report['columns'] = [
      { key: 'agent', label: 'Agent', type: 'text' },
      { key: 'revenue', label: 'Revenue', type: 'money' },
      { key: 'out_of_credit', label: 'Out of Credit Now', type: 'number' },
      { key: 'over_30_days', label: 'Over 30 Days', type: 'number' },
    ];
    mockFetch((call: RecordedCall) => {
      if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
      if (call.url === '/payg/reports/page') {
        return jsonResponse(200, {
          report: 'agents',
          from: '2026-10-27',
          to: '2026-11-25',
          generated_at: '2026-11-25T10:00:00Z',
          columns,
          rows: [
            { agent: 'AG 002/East', revenue: '12500.00', out_of_credit: 2, over_30_days: 1 },
            { agent: 'AG-003', revenue: '9000.00', out_of_credit: 0, over_30_days: 0 },
            { agent: '(no agent)', revenue: '500.00', out_of_credit: 1, over_30_days: 1 },
          ],
          totals: { revenue: '22000.00', out_of_credit: 3, over_30_days: 2, rows: 3 },
        } satisfies Report);
      }
      // Collections, once the link is followed.
      if (call.url.startsWith('/payg/collections')) return jsonResponse(200, { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 20 } } });
      return jsonResponse(404, { message: 'not mocked' });
    });
    const { router } = renderApp('/reports?report=agents');
    const table = await screen.findByRole('table', { name: 'agents report' });
    const [, east, idle, shop] = within(table).getAllByRole('row');
    const link = within(east!).getByRole('link', { name: '2' });
    expect(link).toHaveAttribute('href', '/collections?agent=AG%20002%2FEast');
    expect(link).toHaveAttribute('title', 'Open in Collections: the devices of agent AG 002/East out of credit');
    // Nothing out of credit: nothing to open.
    expect(within(idle!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(shop!).getByRole('link', { name: '1' })).toHaveAttribute('href', '/collections?agent=(no%20agent)');
    // Only Out of Credit Now: the agent's name, the money and the totals are no links.
    expect(within(table).getAllByRole('link')).toHaveLength(2);

    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/collections'));
    expect(new URLSearchParams(router.state.location.search).get('agent')).toBe('AG 002/East');
  });

  it("links each swapped device's serial, the faulty one and its replacement, to the device's page", async () => {
    seedSession();
    const columns: Report['columns'] = [
      { key: 'swapped_at', label: 'Swapped', type: 'date' },
      { key: 'serial_number', label: 'Faulty Device', type: 'text' },
      { key: 'manufacturer', label: 'Maker', type: 'text' },
      { key: 'new_serial_number', label: 'Replacement', type: 'text' },
      { key: 'customer_name', label: 'Customer', type: 'text' },
      { key: 'days_moved', label: 'Days Moved', type: 'number' },
      { key: 'warranty', label: 'Warranty', type: 'text' },
      { key: 'warranty_until', label: 'Warranty Until', type: 'date' },
    ];
    mockFetch((call: RecordedCall) => {
      if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
      if (call.url === '/payg/reports/page') {
        return jsonResponse(200, {
          report: 'swaps',
          from: '2025-11-26',
          to: '2026-11-25',
          generated_at: '2026-11-25T10:00:00Z',
          columns,
          rows: [
            { swapped_at: '2026-11-20', serial_number: 'SHS 01/A', manufacturer: 'SunKing', new_serial_number: 'SHS-02', customer_name: 'Amina', days_moved: 12, warranty: 'In warranty', warranty_until: '2027-03-01' },
          ],
          totals: { days_moved: 12, rows: 1 },
        } satisfies Report);
      }
      return jsonResponse(404, { message: 'not mocked' });
    });
    renderApp('/reports?report=swaps');
    const table = await screen.findByRole('table', { name: 'swaps report' });
    expect(within(table).getByRole('link', { name: 'SHS 01/A' })).toHaveAttribute('href', '/device-activity/SHS%2001%2FA');
    expect(within(table).getByRole('link', { name: 'SHS-02' })).toHaveAttribute('title', 'Open device SHS-02');
    // The maker, the customer, the days and the old device's warranty (for a claim to the maker) are no links.
    expect(within(table).getByRole('cell', { name: 'In warranty' })).toBeInTheDocument();
    expect(within(table).getAllByRole('link')).toHaveLength(2);
  });

  it('brings the report into view when it arrives after a Generate tap (on a phone it is below the fold)', async () => {
    seedSession();
    const reply = deferred<Response>();
    mockReportsApi(() => reply.promise as unknown as Response);
    const scrolled: Element[] = [];
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    try {
      renderApp('/reports');
      await userEvent.click(await screen.findByRole('button', { name: 'Generate Revenue Report' }));
      const view = await screen.findByRole('region', { name: 'Revenue Report' });
      expect(scrolled).not.toContain(view);
      reply.resolve(jsonResponse(200, revenueReport));
      await screen.findByRole('table', { name: 'revenue report' });
      await waitFor(() => expect(scrolled).toContain(view));
    } finally {
      spy.mockRestore();
    }
  });

  it('leaves the page where it is when a report is opened from a link', async () => {
    seedSession();
    mockReportsApi(() => jsonResponse(200, revenueReport));
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    try {
      renderApp('/reports?report=revenue');
      await screen.findByRole('table', { name: 'revenue report' });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('downloads CSV and PDF through the same call with the format', async () => {
    seedSession();
    const { calls } = mockReportsApi((body) =>
      body.format === 'json'
        ? jsonResponse(200, revenueReport)
        : new Response('month,revenue\n', {
            status: 200,
            headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="revenue-report-2026-01-01.${String(body.format)}"` },
          }),
    );
    renderApp('/reports?report=revenue');
    await screen.findByRole('table', { name: 'revenue report' });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/reports/page')).toHaveLength(3));
    const formats = calls.filter((c) => c.url === '/payg/reports/page').map((c) => JSON.parse(c.body!).format);
    expect(formats).toEqual(['json', 'csv', 'pdf']);
    expect(URL.createObjectURL).toHaveBeenCalledTimes(2);
  });

  it('asks the server for the customer report a page at a time, with the totals of all of it', async () => {
    seedSession();
    const customersPage = (offset: number): Report => ({
      report: 'customers',
      from: null,
      to: null,
      generated_at: '2026-01-01T00:00:00Z',
      columns: [
        { key: 'customer_id', label: 'Customer ID', type: 'number' },
        { key: 'customer_name', label: 'Customer Name', type: 'text' },
        { key: 'total_paid', label: 'Total Paid', type: 'money' },
      ],
      rows: Array.from({ length: 20 }, (_, i) => ({ customer_id: offset + i + 1, customer_name: `Customer ${offset + i + 1}`, total_paid: '10.00' })),
      totals: { rows: 1_000_000, total_paid: '10000000.00' },
    });
    const { calls } = mockReportsApi((body) => jsonResponse(200, customersPage(Number(body.offset ?? 0))));
    renderApp('/reports?report=customers');
    const table = await screen.findByRole('table', { name: 'customers report' });
    expect(within(table).getByText('Customer 1')).toBeInTheDocument();
    expect(within(table).getByText('Total (1,000,000 rows)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(await screen.findByRole('table', { name: 'customers report' })).findByText('Customer 21')).toBeInTheDocument();
    const bodies = calls.filter((c) => c.url === '/payg/reports/page').map((c) => JSON.parse(c.body!));
    expect(bodies.map((b) => [b.report, b.limit, b.offset])).toEqual([
      ['customers', 20, 0],
      ['customers', 20, 20],
    ]);
  });

  it("shows money in the organization's currency", async () => {
    seedSession();
    mockFetch((call: RecordedCall) => {
      if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
      if (call.url.startsWith('/payg/payments')) return jsonResponse(200, { data: [{ currency: 'KES' }] });
      if (call.url === '/payg/reports/page') return jsonResponse(200, revenueReport);
      return jsonResponse(404, { message: 'not mocked' });
    });
    renderApp('/reports?report=revenue');
    const table = await screen.findByRole('table', { name: 'revenue report' });
    expect(await within(table).findByText(/^KES 2,000\.50$/)).toBeInTheDocument();
  });

  it("shows 'Failed to load reports' with Retry", async () => {
    seedSession();
    let fail = true;
    mockReportsApi(() => (fail ? jsonResponse(500, { message: 'boom' }) : jsonResponse(200, revenueReport)));
    renderApp('/reports?report=revenue');
    expect(await screen.findByText('Failed to load reports')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'revenue report' })).toBeInTheDocument();
  });
});

describe('M-Pesa statement upload', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const chooseStatement = async (dialog: HTMLElement) => {
    const file = new File(['Receipt No.,Completion Time,Paid In,A/C No.\n'], 'statement.csv', { type: 'text/csv' });
    await userEvent.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, file);
    return file;
  };

  it('uploads the statement as `file` with progress, shows what happened to its rows, and refreshes the report on screen', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockReportsApi(() => jsonResponse(200, revenueReport));
    const { sent } = mockStatementUpload(() => ({ status: 200, body: buildStatementReply() }));
    renderApp('/reports?report=revenue');
    await screen.findByRole('table', { name: 'revenue report' });
    const reportReads = calls.filter((c) => c.url === '/payg/reports/page').length;

    await userEvent.click(screen.getByRole('button', { name: 'Upload M-Pesa Statement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload M-Pesa Statement' });
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();
    const file = await chooseStatement(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Uploading… 50%')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Upload progress' })).toBeInTheDocument();

    const summary = await within(dialog).findByLabelText('Statement summary');
    expect(sent.map((s) => s.url)).toEqual(['/payg/reports/upload-csv']);
    expect((sent[0]!.body.get('file') as File).name).toBe(file.name);
    expect(summary).toHaveTextContent('2 new payments recorded (1 applied, 1 held), 3 skipped, 1 rejected.');
    const result = within(summary).getByRole('table', { name: 'Statement result' });
    const count = (label: string) => within(result).getByRole('row', { name: new RegExp(`^${label}`) }).querySelector('td:last-child')?.textContent;
    expect([count('Applied'), count('Held for matching'), count('Already recorded'), count('Not money received'), count('Rejected')]).toEqual(['1', '1', '1', '2', '1']);
    const flagged = within(within(summary).getByRole('table', { name: 'Rows to look at' })).getAllByRole('row').slice(1);
    expect(flagged.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['3', 'Held', 'No single device matches the account reference UNKNOWN-REFReceipt TK12AB34CD · KES 250.00 · payment #41'],
      ['7', 'Rejected', 'No Paid In amount in row'],
    ]);
    // New payments change the revenue: the report on screen is read again.
    await waitFor(() => expect(calls.filter((c) => c.url === '/payg/reports/page').length).toBeGreaterThan(reportReads));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload another statement' }));
    expect(within(dialog).queryByLabelText('Statement summary')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it("shows the server's refusal in the red Error box", async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    mockReportsApi(() => jsonResponse(200, revenueReport));
    const refusal = 'file: must be a CSV file with a header row naming the receipt column (Receipt No., Receipt No, Receipt)';
    mockStatementUpload(() => ({ status: 400, body: { detail: refusal, message: refusal, errors: [{ field: 'file', message: 'must be a CSV file' }] } }));
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Upload M-Pesa Statement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload M-Pesa Statement' });
    await chooseStatement(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to upload statement');
    expect(alert).toHaveTextContent(refusal);
    expect(within(dialog).queryByLabelText('Statement summary')).not.toBeInTheDocument();
  });

  it('is not offered to staff, whom the API refuses', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    mockReportsApi(() => jsonResponse(200, revenueReport));
    renderApp('/reports');
    await screen.findByRole('heading', { name: 'Revenue Report' });
    expect(screen.queryByRole('button', { name: 'Upload M-Pesa Statement' })).not.toBeInTheDocument();
  });
});

describe('a report cell', () => {
  it('is a dash where the API gives no amount, which is not zero; money and shares otherwise', () => {
    const money = { key: 'expected', label: 'Expected by Today', type: 'money' } as const;
    const share = { key: 'repaid_share', label: 'Repaid %', type: 'percent' } as const;
    expect(formatCell(null, money, 'KES')).toBe('—');
    expect(formatCell('0.00', money, 'KES')).toBe('KES 0.00');
    expect(formatCell('5700.00', money, 'KES')).toBe('KES 5,700.00');
    expect(formatCell(null, share)).toBe('—');
    expect(formatCell(77.2, share)).toBe('77.2%');
  });
});
