import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { deferred, jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { formatToken } from '@/components/ui/token-text';
import { normalizeDays, normalizeSetTimeDays } from '../components/generate-token-modal';
import type { TokenLog, TokenReply } from '../api/types';

const log = (overrides: Partial<TokenLog> = {}): TokenLog => ({
  id: 1,
  token_value: '123456789',
  serial_number: 'SN-001',
  customer_name: 'Amina Wanjiru',
  token_type: 'add_time',
  days_generated: 7,
  token_count: 2,
  status: 'success',
  is_valid: true,
  was_assigned: true,
  payment_id: null,
  created_at: '2026-01-05T10:00:00Z',
  generated_by: 'demo',
  ...overrides,
});

const reply = (overrides: Partial<TokenReply> = {}): TokenReply => ({
  code_token: '987654321',
  code_type: 'add_time',
  days: 3,
  token_count: 4,
  serial_number: 'SN-001',
  isOrganizationSuspended: false,
  ...overrides,
});

function mockTokensApi(generate?: (call: RecordedCall) => Response | Promise<Response>) {
  return mockFetch((call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/payg/notifications') return jsonResponse(200, { data: [] });
    if (path === '/payg/metrics/token-generation-logs') return jsonResponse(200, { data: { items: [log()], total: 1 } });
    if (path === '/payg/items/search') return jsonResponse(200, { data: [] });
    if (path === '/payg/generate-token-by-days') return generate ? generate(call) : jsonResponse(200, reply());
    if (path === '/payg/generate-token') {
      const body = JSON.parse(call.body!) as { type: TokenReply['code_type']; value?: number };
      return jsonResponse(200, reply({ code_type: body.type, days: body.value ?? 0 }));
    }
    return jsonResponse(404, { message: 'not mocked' });
  });
}

async function openModal() {
  renderApp('/tokens');
  await screen.findByText('SN-001');
  await userEvent.click(screen.getByRole('button', { name: 'Generate Token' }));
  return screen.findByRole('dialog', { name: 'Generate Token' });
}

const generateCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url === '/payg/generate-token-by-days');

describe('tokens page', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists tokens with the columns of the spec, the token grouped for reading', async () => {
    seedSession();
    mockTokensApi();
    renderApp('/tokens');
    expect(await screen.findByText('123 456 789')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Tokens' });
    for (const h of ['Token', 'Serial Number', 'Customer', 'Type', 'Days', 'Status', 'Created']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(table).getByText('Success')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search tokens by ID, customer name, status...')).toBeInTheDocument();
  });

  it('lets an owner or admin issue a set-time or unlock token, and says the older codes stop working', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockTokensApi();
    let dialog = await openModal();
    const type = within(dialog).getByRole('combobox', { name: 'Token Type' });
    expect(type).toHaveValue('days');
    await userEvent.selectOptions(type, 'set_time');
    expect(within(dialog).getByText(/0 locks the device \(repossession\)/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    const days = within(dialog).getByRole('textbox', { name: 'Days From Now' });
    await userEvent.clear(days);
    await userEvent.type(days, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    let result = await screen.findByRole('dialog', { name: 'Token Generated' });
    expect(within(result).getByText('Set time')).toBeInTheDocument();
    expect(within(result).getByText(/refuses every older one: those show as Expired/)).toBeInTheDocument();
    const typed = () => calls.filter((c) => c.url === '/payg/generate-token').map((c) => JSON.parse(c.body!));
    expect(typed()).toEqual([{ serial_number: 'SN-001', type: 'set_time', value: 0 }]);
    await userEvent.click(within(result).getByRole('button', { name: 'Done' }));

    await userEvent.click(screen.getByRole('button', { name: 'Generate Token' }));
    dialog = await screen.findByRole('dialog', { name: 'Generate Token' });
    // The form starts again from Add days.
    expect(within(dialog).getByRole('combobox', { name: 'Token Type' })).toHaveValue('days');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Token Type' }), 'unlock');
    expect(within(dialog).queryByRole('textbox', { name: /Days/ })).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    result = await screen.findByRole('dialog', { name: 'Token Generated' });
    expect(within(result).getByText('Unlock')).toBeInTheDocument();
    expect(typed()).toEqual([
      { serial_number: 'SN-001', type: 'set_time', value: 0 },
      { serial_number: 'SN-001', type: 'unlock' },
    ]);
    expect(generateCalls(calls)).toHaveLength(0);
  });

  it('offers staff days only, through the spec call', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockTokensApi();
    const dialog = await openModal();
    expect(within(dialog).queryByRole('combobox', { name: 'Token Type' })).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    await screen.findByRole('dialog', { name: 'Token Generated' });
    expect(generateCalls(calls).map((c) => JSON.parse(c.body!))).toEqual([{ serial_number: 'SN-001', number_of_days: 1 }]);
  });

  it('reads set-time days from 0, and anything invalid as 1 day, never as a lock', () => {
    expect(normalizeSetTimeDays(0)).toBe(0);
    expect(normalizeSetTimeDays('12')).toBe(12);
    expect(normalizeSetTimeDays('')).toBe(1);
    expect(normalizeSetTimeDays(-3)).toBe(1);
    expect(normalizeSetTimeDays(2.5)).toBe(1);
    expect(normalizeSetTimeDays(5000)).toBe(995);
  });

  it('shows Failed to load tokens with Retry', async () => {
    seedSession();
    mockFetch((call) =>
      call.url.startsWith('/payg/metrics/token-generation-logs') ? jsonResponse(500, { message: 'x' }) : jsonResponse(200, { data: [] }),
    );
    renderApp('/tokens');
    expect(await screen.findByText('Failed to load tokens')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('Generate Token form', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('requires a serial number and sends nothing without one', async () => {
    seedSession();
    const { calls } = mockTokensApi();
    const dialog = await openModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    expect(within(dialog).getByText('Serial number is required')).toBeInTheDocument();
    expect(generateCalls(calls)).toHaveLength(0);
  });

  it('defaults to 1 day and turns an invalid number of days into 1', async () => {
    seedSession();
    const { calls } = mockTokensApi();
    const dialog = await openModal();
    const days = within(dialog).getByRole('textbox', { name: 'Number of Days' });
    expect(days).toHaveValue('1');
    await userEvent.clear(days);
    fireEvent.blur(days);
    expect(days).toHaveValue('1');
    await userEvent.clear(days);
    await userEvent.type(days, '0');
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), ' SN-001 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    await waitFor(() => expect(generateCalls(calls)).toHaveLength(1));
    expect(JSON.parse(generateCalls(calls)[0]!.body!)).toEqual({ serial_number: 'SN-001', number_of_days: 1 });
  });

  it('locks submit while a request is in flight', async () => {
    seedSession();
    const held = deferred<Response>();
    const { calls } = mockTokensApi(() => held.promise);
    const dialog = await openModal();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    const submit = within(dialog).getByRole('button', { name: 'Generate Token' });
    await userEvent.click(submit);
    await waitFor(() => expect(submit).toHaveAttribute('data-loading', 'true'));
    fireEvent.submit(within(dialog).getByRole('form', { name: 'Generate Token' }));
    fireEvent.submit(within(dialog).getByRole('form', { name: 'Generate Token' }));
    expect(generateCalls(calls)).toHaveLength(1);
    held.resolve(jsonResponse(200, reply()));
    expect(await screen.findByRole('dialog', { name: 'Token Generated' })).toBeInTheDocument();
    expect(generateCalls(calls)).toHaveLength(1);
  });

  it('shows the result: the token grouped with a copy button, its type and days; the list reloads', async () => {
    seedSession();
    const { calls } = mockTokensApi();
    const dialog = await openModal();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    const days = within(dialog).getByRole('textbox', { name: 'Number of Days' });
    await userEvent.clear(days);
    await userEvent.type(days, '3');
    const listCalls = calls.filter((c) => c.url.startsWith('/payg/metrics/token-generation-logs')).length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    const result = await screen.findByRole('dialog', { name: 'Token Generated' });
    expect(within(result).getByText('987 654 321')).toBeInTheDocument();
    expect(within(result).getByText('Add time')).toBeInTheDocument();
    expect(within(result).getByText('3')).toBeInTheDocument();
    expect(within(result).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Generate Token' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.url.startsWith('/payg/metrics/token-generation-logs')).length).toBeGreaterThan(listCalls),
    );
  });

  it("shows 'Error generating token: {message}' and keeps the form", async () => {
    seedSession();
    mockTokensApi(() => jsonResponse(404, { detail: 'Device not found', message: 'Device not found' }));
    const dialog = await openModal();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-404');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    expect(await within(dialog).findByText('Error generating token: Device not found')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Serial Number' })).toHaveValue('SN-404');
  });

  it('closes with no result when the organization is suspended', async () => {
    seedSession();
    mockTokensApi(() => jsonResponse(200, reply({ isOrganizationSuspended: true })));
    const dialog = await openModal();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Generate Token' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Token Generated' })).not.toBeInTheDocument();
  });

  it('closes with no result on a 403 SERVICE_SUSPENDED, and the form is empty when reopened', async () => {
    seedSession();
    mockTokensApi(() =>
      jsonResponse(403, {
        detail: { error: 'SERVICE_SUSPENDED', message: 'Suspended', reason: 'Unpaid invoice', support_message: 'Call us' },
        message: 'Suspended',
      }),
    );
    const dialog = await openModal();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Serial Number' }), 'SN-001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate Token' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Generate Token' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Token Generated' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate Token' }));
    const again = await screen.findByRole('dialog', { name: 'Generate Token' });
    expect(within(again).getByRole('combobox', { name: 'Serial Number' })).toHaveValue('');
  });
});

describe('token rules', { timeout: 20_000 }, () => {
  it('normalizes days and groups tokens', () => {
    expect(normalizeDays('')).toBe(1);
    expect(normalizeDays('abc')).toBe(1);
    expect(normalizeDays(0)).toBe(1);
    expect(normalizeDays(-4)).toBe(1);
    expect(normalizeDays(2.5)).toBe(1);
    expect(normalizeDays('30')).toBe(30);
    expect(normalizeDays(5000)).toBe(995);
    expect(formatToken('123456789012345')).toBe('123 456 789 012 345');
    expect(formatToken('1234567890')).toBe('123 456 789 0');
  });
});
