import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken } from '@kidogo/contracts';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';

const TOKEN = 'kdg_pat_Qm2Lk9Pw4Rt6Vb8Nc1Zd3Hf5Jg0AbXy7Qm2Lk9Pw4R';

const build = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: 1,
  name: 'ERPNext sync',
  hint: 'kdg_pat_…9Pw4',
  user_id: 7,
  username: 'amina',
  created_at: '2026-11-20T09:00:00Z',
  expires_at: '2027-02-18T09:00:00Z',
  last_used_at: null,
  expired: false,
  read_only: false,
  ...overrides,
});

/** /auth/api-tokens in memory. */
function tokensApi(initial: ApiToken[]) {
  const tokens = [...initial];
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path === '/payg/auth/api-tokens' && call.method === 'GET') return jsonResponse(200, { data: tokens });
    if (path === '/payg/auth/api-tokens' && call.method === 'POST') {
      const body = JSON.parse(call.body!);
      const made = build({ id: 50, name: body.name, read_only: body.read_only, expires_at: body.expires_in_days === null ? null : '2027-11-25T09:00:00Z', hint: `kdg_pat_…${TOKEN.slice(-4)}` });
      tokens.unshift(made);
      return jsonResponse(201, { ...made, token: TOKEN });
    }
    const m = /^\/payg\/auth\/api-tokens\/(\d+)$/.exec(path);
    if (m && call.method === 'DELETE') {
      const at = tokens.findIndex((x) => x.id === Number(m[1]));
      const [gone] = tokens.splice(at, 1);
      return jsonResponse(200, { message: `API token "${gone!.name}" revoked` });
    }
    return undefined;
  };
}

const signInAs = (role: 'owner' | 'staff') => seedSession({ user: buildUser({ user_id: 7, username: 'amina', role }) });

describe('API Tokens card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists a staff user their tokens, with when each was used and expires', async () => {
    signInAs('staff');
    mockSettingsApi(tokensApi([build(), build({ id: 2, name: 'Old script', expired: true, last_used_at: '2026-11-21T10:00:00Z' })]));
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'API Tokens' });
    const table = within(card).getByRole('table', { name: 'API tokens' });
    await within(table).findByText('ERPNext sync');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Last Used', 'Expires', 'Actions']);
    expect(rows[1]).toHaveTextContent(/ERPNext sync.*kdg_pat_…9Pw4.*Never/);
    expect(rows[2]).toHaveTextContent(/Old script.*Expired/);
  });

  it('makes a token, checking its name first, and shows it once with how to use it', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(tokensApi([]));
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'API Tokens' });
    await within(card).findByText('No API tokens');
    // An owner sees whose each token is.
    expect(within(within(card).getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent)).toContain('User');
    await user.click(within(card).getByRole('button', { name: 'New Token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API Token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Token' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByLabelText(/^Name/), 'ERPNext sync');
    await user.click(within(dialog).getByLabelText('Expires after', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Never (until revoked)' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Read only/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Token' }));
    const shown = await screen.findByRole('dialog', { name: 'API Token Created' });
    expect(within(shown).getByDisplayValue(TOKEN)).toBeInTheDocument();
    expect(within(shown).getByText(/Authorization: Bearer kdg_pat_Qm2L…/)).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual({ name: 'ERPNext sync', expires_in_days: null, read_only: true });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByDisplayValue(TOKEN)).not.toBeInTheDocument());
    expect(await within(card).findByText('ERPNext sync')).toBeInTheDocument();
    expect(within(card).getByText('Read only')).toBeInTheDocument();
  });

  it('revokes a token after asking, naming whose it is', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi(tokensApi([build({ id: 9, name: 'Field app', username: 'brian', user_id: 8 })]));
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'API Tokens' });
    await user.click(await within(card).findByRole('button', { name: 'Revoke Field app' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke API token?' });
    expect(confirm).toHaveTextContent('Revoke Field app of brian?');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke Token' }));
    expect(await screen.findByText('API token "Field app" revoked')).toBeInTheDocument();
    expect(await within(card).findByText('No API tokens')).toBeInTheDocument();
  });
});
