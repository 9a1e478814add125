import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dayIn } from '@/lib/business-day';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { lastDays } from '@/components/ui/date-range-picker';
import { formatRate } from '../components/revenue-metrics-card';
import type { CustomerMetrics, MetricsSummary, PaymentMetrics, RevenueSeries, UsageMetrics } from '../api/types';

const customers: CustomerMetrics = {
  total: 12,
  active: 10,
  inactive: 1,
  suspended: 1,
  new_this_week: 3,
  recent: [
    { customer_id: 1, customer_name: 'Amina Wanjiru', phone_contact: '0712345678', county: 'Nakuru', status: 'active', created_at: '2026-01-05T10:00:00Z' },
  ],
};
const payments: PaymentMetrics = {
  total_revenue: '1500.00',
  total_payments: 4,
  successful: 3,
  pending: 1,
  failed: 0,
  recent: [
    {
      payment_id: 9,
      amount: '500.00',
      status: 'completed',
      customer_name: 'Amina Wanjiru',
      customer_id: 1,
      payment_method: 'mobile_money',
      created_at: '2026-01-06T10:00:00Z',
      paid_at: '2026-01-06T10:00:00Z',
      serial_number: 'SN-1',
      transaction_code: 'QWE123',
    },
  ],
};
const summary: MetricsSummary = { total_revenue: '1500.00', average_transaction: '500.00', transaction_count: 4, success_rate: 0.75 };
const usage: UsageMetrics = {
  tokens_total: 5,
  tokens_active: 4,
  tokens_expired: 1,
  days_generated: 40,
  by_type: [],
  active_devices: 2,
  expired_devices: 0,
  recent: [],
};
const revenue: RevenueSeries = { interval: 'day', from: '2026-01-01', to: '2026-01-30', total_revenue: '1500.00', points: [] };
const health = { status: 'healthy', database: 'connected', external_services: 'not_configured' };
/** The Needs Attention card's calls: nothing waits. */
const heldPayments = { data: [], pagination: { total: 0, total_pages: 0, limit: 1, offset: 0 } };
const tickets = { data: { items: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 1 }, counts: { open: 0, in_progress: 0, resolved: 0 } } };
const promisesSummary = { data: { today: '2026-01-30', from: '2025-12-31', counts: { due: 0, broken: 0, upcoming: 0, kept: 0, paid_late: 0 }, kept_rate: null } };
const cash = { data: [], totals: [], overdue_days: 3 };

type Section = 'customers' | 'payments' | 'summary' | 'usage';

function mockDashboardApi(fail: Section[] = [], overrides: Partial<Record<Section, unknown>> = {}) {
  const ok: Record<Section, unknown> = { customers, payments, summary, usage, ...overrides };
  return mockFetch((call: RecordedCall) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/payg/notifications') return jsonResponse(200, { data: [] });
    if (path === '/payg/health') return jsonResponse(200, health);
    if (path === '/payg/metrics/revenue') return jsonResponse(200, revenue);
    if (path === '/payg/payments' && new URL(call.url, 'http://x').searchParams.get('status') === 'pending') return jsonResponse(200, heldPayments);
    if (path === '/payg/payments') return jsonResponse(200, { data: [{ payment_id: 1, currency: 'KES' }] });
    if (path === '/payg/tickets') return jsonResponse(200, tickets);
    if (path === '/payg/collections/promises/summary') return jsonResponse(200, promisesSummary);
    if (path === '/payg/cash') return jsonResponse(200, cash);
    const section = ({
      '/payg/metrics/customers': 'customers',
      '/payg/metrics/payments': 'payments',
      '/payg/metrics/summary': 'summary',
      '/payg/metrics/usage': 'usage',
    } as Record<string, Section>)[path];
    if (!section) return jsonResponse(404, { message: 'not mocked' });
    if (fail.includes(section)) return jsonResponse(500, { message: `${section} exploded` });
    return jsonResponse(200, ok[section]);
  });
}

describe('dashboard', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the seven cards with the figures, success rate with one decimal', async () => {
    seedSession();
    mockDashboardApi();
    renderApp('/dashboard');
    for (const title of ['Needs Attention', 'Customer Overview', 'Payment Analytics', 'Token Management', 'Revenue Metrics', 'Recent Transactions', 'System Health']) {
      expect(await screen.findByRole('region', { name: title })).toBeInTheDocument();
    }
    const revenueCard = screen.getByRole('region', { name: 'Revenue Metrics' });
    expect(await within(revenueCard).findByText('75.0%')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Customer Overview' })).getByText('Amina Wanjiru')).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'System Health' })).findByText('Operational')).toBeInTheDocument();
    expect(screen.queryByText('Some data failed to load')).not.toBeInTheDocument();
  });

  it("shows money in the organization's currency (from its payments), not the display default", async () => {
    seedSession();
    mockDashboardApi();
    renderApp('/dashboard');
    const revenueCard = await screen.findByRole('region', { name: 'Revenue Metrics' });
    expect(await within(revenueCard).findByText(/^KES 1,500\.00$/)).toBeInTheDocument();
    expect(within(revenueCard).getByText(/^KES 500\.00$/)).toBeInTheDocument();
    expect(screen.queryByText(/^USD /)).not.toBeInTheDocument();
  });

  it('asks for the last 30 days by default', async () => {
    seedSession();
    const { calls } = mockDashboardApi();
    renderApp('/dashboard');
    await screen.findByRole('region', { name: 'Revenue Metrics' });
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/payg/metrics/summary'))).toBe(true));
    const q = new URL(calls.find((c) => c.url.startsWith('/payg/metrics/summary'))!.url, 'http://x').searchParams;
    expect({ from: q.get('from'), to: q.get('to') }).toEqual(lastDays(30, dayIn(buildUser().time_zone)));
    expect(screen.getByRole('button', { name: 'Pick a date' })).toBeInTheDocument();
  });

  it("ends the default period on today in the business time zone, not the browser's", async () => {
    // A day apart at every instant (UTC+14 and UTC-11): the browser's zone can match at most one of them.
    const ahead = 'Pacific/Kiritimati';
    const behind = 'Pacific/Pago_Pago';
    expect(dayIn(ahead)).not.toBe(dayIn(behind));
    for (const zone of [ahead, behind]) {
      localStorage.clear();
      seedSession({ user: buildUser({ time_zone: zone }) });
      const { calls } = mockDashboardApi();
      const view = renderApp('/dashboard');
      await waitFor(() => expect(calls.some((c) => c.url.startsWith('/payg/metrics/summary'))).toBe(true));
      const q = new URL(calls.find((c) => c.url.startsWith('/payg/metrics/summary'))!.url, 'http://x').searchParams;
      expect({ zone, from: q.get('from'), to: q.get('to') }).toEqual({ zone, ...lastDays(30, dayIn(zone)) });
      view.unmount();
    }
  });

  it('names the failed sections in the partial-failure banner, with the API base in the debug info', async () => {
    seedSession();
    mockDashboardApi(['payments', 'usage']);
    renderApp('/dashboard');
    expect(await screen.findByText('Some data failed to load')).toBeInTheDocument();
    expect(screen.getByText('Failed to load: Payments, Tokens')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show debug info' }));
    expect(screen.getByText(/API base: http:\/\/localhost(:\d+)?\/payg/)).toBeInTheDocument();
    expect(screen.getByText(/payments exploded/)).toBeInTheDocument();
    // the sections that loaded still show
    expect(within(screen.getByRole('region', { name: 'Customer Overview' })).getByText('Amina Wanjiru')).toBeInTheDocument();
    expect(screen.queryByText('Failed to load dashboard data')).not.toBeInTheDocument();
  });

  it('Retry in the banner reloads only what failed, and the banner goes once it loads', async () => {
    seedSession();
    let broken = true;
    const { calls } = mockFetch((call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/payg/metrics/customers' && broken) return jsonResponse(503, { message: 'down' });
      const table: Record<string, unknown> = {
        '/payg/notifications': { data: [] },
        '/payg/health': health,
        '/payg/metrics/revenue': revenue,
        '/payg/metrics/customers': customers,
        '/payg/metrics/payments': payments,
        '/payg/metrics/summary': summary,
        '/payg/metrics/usage': usage,
        '/payg/tickets': tickets,
        '/payg/collections/promises/summary': promisesSummary,
        '/payg/cash': cash,
      };
      return jsonResponse(200, table[path]);
    });
    renderApp('/dashboard');
    expect(await screen.findByText('Failed to load: Customers')).toBeInTheDocument();
    broken = false;
    const before = calls.filter((c) => c.url.startsWith('/payg/metrics/summary')).length;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText('Some data failed to load')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.url.startsWith('/payg/metrics/summary')).length).toBe(before);
  });

  it('shows Failed to load dashboard data with Retry when every section fails', async () => {
    seedSession();
    mockDashboardApi(['customers', 'payments', 'summary', 'usage']);
    renderApp('/dashboard');
    expect(await screen.findByText('Failed to load dashboard data')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByText('Some data failed to load')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Customer Overview' })).not.toBeInTheDocument();
    // What waits now is not of the period's figures: it still shows.
    const attention = screen.getByRole('region', { name: 'Needs Attention' });
    expect(await within(attention).findByText('Nothing waits: all clear.')).toBeInTheDocument();
  });

  it('shows No data available with Retry for an empty organization, and No transactions found', async () => {
    seedSession();
    mockDashboardApi([], {
      customers: { ...customers, total: 0, active: 0, inactive: 0, suspended: 0, new_this_week: 0, recent: [] },
      payments: { ...payments, total_revenue: '0.00', total_payments: 0, successful: 0, pending: 0, recent: [] },
      usage: { ...usage, tokens_total: 0, tokens_active: 0, tokens_expired: 0 },
    });
    renderApp('/dashboard');
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(screen.getByText('No transactions found')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Retry' }).length).toBeGreaterThan(0);
  });

  it('marks the API down and the rest unknown when the health call fails', async () => {
    seedSession();
    mockFetch((call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/payg/health') return jsonResponse(500, { message: 'nope' });
      return jsonResponse(200, path === '/payg/notifications' ? { data: [] } : {});
    });
    renderApp('/dashboard');
    const card = await screen.findByRole('region', { name: 'System Health' });
    expect(await within(card).findByLabelText('API: Down')).toBeInTheDocument();
    expect(within(card).getByLabelText('Database: Unknown')).toBeInTheDocument();
    expect(within(card).getByLabelText('External Services: Unknown')).toBeInTheDocument();
  });
});

describe('formatRate', { timeout: 20_000 }, () => {
  it('shows a fraction as a percent with one decimal', () => {
    expect(formatRate(0.8567)).toBe('85.7%');
    expect(formatRate(1)).toBe('100.0%');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(Number.NaN)).toBe('0.0%');
  });
});
