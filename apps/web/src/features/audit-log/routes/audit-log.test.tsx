import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { captureDownloads } from '@/testing/downloads';
import { renderApp } from '@/testing/render';

const entry = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  timestamp: `2026-11-2${id % 10}T09:30:00.000Z`,
  action: 'customer.created',
  category: 'customers',
  actor: 'amina',
  entity_type: 'customer',
  entity_id: String(id),
  description: `Customer ${id} registered`,
  ip: null,
  details: null,
  ...over,
});

const firstPage = {
  data: [
    entry(3, {
      action: 'payment.reverse',
      category: 'payments',
      description: 'Payment 41, KES 60.00 (QK12AB34CD), reversed from device SHS-0001 by amina and held for matching: Wrong device',
      details: { reason: 'Wrong device', days_removed: 3, before: { total_paid: '160.00' } },
    }),
    entry(2, { action: 'token.generate', category: 'tokens', actor: null, description: 'Token for SHS-0001: 3 days' }),
    entry(1, { action: 'auth.login', category: 'sign_ins', ip: '10.0.0.7', description: 'amina signed in' }),
  ],
  next_cursor: '2026-11-21T09:30:00.000Z_1',
};
const olderPage = { data: [entry(0, { description: 'The oldest entry' })], next_cursor: null };

describe('Activity Log', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists who did what, with the kind and the details, and pages back in time', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => {
      if (c.url.startsWith('/payg/audit-log')) return jsonResponse(200, c.url.includes('cursor=') ? olderPage : firstPage);
      return jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/activity-log');
    const table = await screen.findByRole('table', { name: 'Activity Log' }, { timeout: 5000 });
    await within(table).findByText(/reversed from device SHS-0001/);
    expect(calls.find((c) => c.url.startsWith('/payg/audit-log'))?.url).toBe('/payg/audit-log?limit=25');
    const row = (text: RegExp) => within(table).getByText(text).closest('tr')!;
    expect(within(row(/reversed from device/)).getByText('Payments')).toBeInTheDocument();
    expect(within(row(/Token for SHS-0001/)).getByText('System')).toBeInTheDocument();
    expect(within(row(/signed in/)).getByText('10.0.0.7')).toBeInTheDocument();
    expect(within(row(/signed in/)).getByText('Sign-ins')).toBeInTheDocument();
    // Only an entry with details has the button.
    expect(within(table).getAllByRole('button', { name: /Details of entry/ })).toHaveLength(1);
    await user.click(within(table).getByRole('button', { name: 'Details of entry 3' }));
    const details = await screen.findByLabelText('Details of entry 3', { selector: 'div' });
    expect(within(details).getByText('days removed')).toBeInTheDocument();
    expect(within(details).getByText('{"total_paid":"160.00"}')).toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Older' }));
    expect(await within(table).findByText('The oldest entry')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/payg/audit-log?limit=25&cursor=2026-11-21T09%3A30%3A00.000Z_1');
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await within(table).findByText(/reversed from device SHS-0001/)).toBeInTheDocument();
  });

  it('filters by kind and by user, from the newest page again', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((c) => (c.url.startsWith('/payg/audit-log') ? jsonResponse(200, { data: [], next_cursor: null }) : jsonResponse(200, { data: [] })));
    seedSession();
    renderApp('/activity-log');
    expect(await screen.findByText('Nothing recorded yet', undefined, { timeout: 5000 })).toBeInTheDocument();
    await user.click(screen.getByLabelText('Kind', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Payments' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/payg/audit-log?limit=25&category=payments'));
    await user.type(screen.getByRole('textbox', { name: 'User' }), 'otieno');
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/payg/audit-log?limit=25&category=payments&actor=otieno'));
    expect(await screen.findByText('Nothing matches these filters')).toBeInTheDocument();
  });

  it('exports every entry the filters match as CSV, and says when it fails', async () => {
    const user = userEvent.setup();
    const names = captureDownloads();
    let fail = false;
    const { calls } = mockFetch((c) => {
      if (c.url.startsWith('/payg/audit-log/export')) {
        return fail
          ? jsonResponse(403, { detail: 'Only owners and admins may do this', message: 'Only owners and admins may do this' })
          : new Response('\uFEFFtime,kind\r\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="activity-log-2026-11-26.csv"' } });
      }
      return c.url.startsWith('/payg/audit-log') ? jsonResponse(200, firstPage) : jsonResponse(200, { data: [] });
    });
    seedSession();
    renderApp('/activity-log');
    await screen.findByText('amina signed in', undefined, { timeout: 5000 });
    await user.click(screen.getByLabelText('Kind', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Payments' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['activity-log-2026-11-26.csv']));
    // The filters shown, and no page size or cursor: every matching entry.
    expect(calls.filter((c) => c.url.startsWith('/payg/audit-log/export')).map((c) => c.url)).toEqual(['/payg/audit-log/export?category=payments']);
    expect(await screen.findByText('Downloaded activity-log-2026-11-26.csv')).toBeInTheDocument();

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Only owners and admins may do this')).toBeInTheDocument();
    expect(names).toHaveLength(1);
  });

  it('tells staff it is for owners and admins, and asks for nothing', async () => {
    const { calls } = mockFetch(() => jsonResponse(200, { data: [] }));
    seedSession({ user: buildUser({ role: 'staff' }) });
    renderApp('/activity-log');
    expect(await screen.findByText('Only owners and admins can see the activity log.', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/audit-log'))).toBe(false);
    expect(screen.queryByRole('link', { name: 'Activity Log' })).not.toBeInTheDocument();
  });
});
