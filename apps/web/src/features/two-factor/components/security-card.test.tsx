import type { SecuritySettings } from '@kidogo/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTeamUser, mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const OWN_FIRST = 'Turn on your own two-factor sign-in first (Settings → Two-Factor Sign-In), then require it of everyone';
const TEAM = [buildTeamUser({ user_id: 7, username: 'amina', role: 'owner', two_factor_enabled: true }), buildTeamUser({ user_id: 8, username: 'brian', role: 'staff' })];

async function openCard(
  rule: SecuritySettings,
  { role = 'owner', handler }: { role?: 'owner' | 'admin'; handler?: (call: RecordedCall, path: string) => Response | undefined } = {},
) {
  seedSession({ user: buildUser({ user_id: 7, username: 'amina', role }) });
  const { calls } = mockSettingsApi(handler, TEAM, undefined, rule);
  renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Security' });
  const toggle = await within(card).findByRole('switch', { name: 'Require two-factor sign-in for everyone' });
  const puts = () => calls.filter((c) => c.method === 'PUT' && c.url === '/payg/settings/security').map((c) => JSON.parse(c.body!));
  const reads = (prefix: string) => calls.filter((c) => c.method === 'GET' && c.url.startsWith(prefix)).length;
  return { card, toggle, calls, puts, reads };
}

describe('Security card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows whether two-factor sign-in is required, how many users lack it, and what requiring it does', async () => {
    const { card, toggle } = await openCard({ require_two_factor: false, users_without_two_factor: 3 });
    expect(toggle).not.toBeChecked();
    expect(within(card).getByTestId('users-without-two-factor')).toHaveTextContent(/^3 users do not have it yet$/);
    expect(within(card).getByText('Two-factor optional')).toBeInTheDocument();
    expect(card).toHaveTextContent(/a user without two-factor sign-in can do nothing but set it up/);
    expect(card).toHaveTextContent(/API tokens are not affected/);
  });

  it.each([
    [0, 'Everyone has it'],
    [1, '1 user does not have it yet'],
  ])('counts %i users without it as "%s"', async (n, text) => {
    const { card, toggle } = await openCard({ require_two_factor: true, users_without_two_factor: n }, { role: 'admin' });
    expect(toggle).toBeChecked();
    expect(within(card).getByText('Two-factor required')).toBeInTheDocument();
    expect(within(card).getByTestId('users-without-two-factor')).toHaveTextContent(new RegExp(`^${text}$`));
  });

  it('asks before requiring it of users who do not have it, then PUTs it and reads the card and the team again', async () => {
    const user = userEvent.setup();
    const { card, toggle, puts, reads } = await openCard({ require_two_factor: false, users_without_two_factor: 3 });
    await screen.findByRole('region', { name: 'Team' }).then((team) => within(team).findByText('brian'));

    await user.click(toggle);
    let dialog = await screen.findByRole('dialog', { name: 'Require two-factor sign-in?' });
    expect(dialog).toHaveTextContent('3 users will have to set it up before they can do anything else.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toggle).not.toBeChecked();
    expect(puts()).toEqual([]);

    const [securityBefore, teamBefore] = [reads('/payg/settings/security'), reads('/payg/users')];
    await user.click(toggle);
    dialog = await screen.findByRole('dialog', { name: 'Require two-factor sign-in?' });
    await user.click(within(dialog).getByRole('button', { name: 'Require It' }));
    expect(await screen.findByText('Everyone must now sign in with two-factor sign-in')).toBeInTheDocument();
    expect(puts()).toEqual([{ require_two_factor: true }]);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(within(card).getByText('Two-factor required')).toBeInTheDocument();
    await waitFor(() => expect(reads('/payg/settings/security')).toBeGreaterThan(securityBefore));
    await waitFor(() => expect(reads('/payg/users')).toBeGreaterThan(teamBefore));
  });

  it('requires it without asking when everyone has it, and stops requiring it without asking', async () => {
    const user = userEvent.setup();
    const { toggle, puts } = await openCard({ require_two_factor: false, users_without_two_factor: 0 });
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(puts()).toEqual([{ require_two_factor: true }, { require_two_factor: false }]);
    expect(await screen.findByText('Two-factor sign-in is no longer required')).toBeInTheDocument();
  });

  it("shows the server's refusal in the card: the caller's own two-factor sign-in is off", async () => {
    const user = userEvent.setup();
    const { card, toggle, puts } = await openCard(
      { require_two_factor: false, users_without_two_factor: 2 },
      {
        handler: (call, path) =>
          path === '/payg/settings/security' && call.method === 'PUT' ? jsonResponse(409, { statusCode: 409, detail: OWN_FIRST, message: OWN_FIRST }) : undefined,
      },
    );
    await user.click(toggle);
    await user.click(within(await screen.findByRole('dialog', { name: 'Require two-factor sign-in?' })).getByRole('button', { name: 'Require It' }));
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to change the sign-in rule');
    expect(alert).toHaveTextContent(OWN_FIRST);
    expect(toggle).not.toBeChecked();
    expect(puts()).toEqual([{ require_two_factor: true }]);
  });

  it('is not shown to staff, nor asked for', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Two-Factor Sign-In' });
    expect(screen.queryByRole('region', { name: 'Security' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/security'))).toBe(false);
  });
});
