import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildTeamUser, mockSettingsApi } from '../testing/mock-settings-api';

const ME = buildTeamUser({ user_id: 7, username: 'amina', email: 'amina@example.com', role: 'owner' });
const TEAM = [
  ME,
  buildTeamUser({ user_id: 8, username: 'brian', email: 'brian@example.com', role: 'admin' }),
  buildTeamUser({ user_id: 9, username: 'chao', email: null, role: 'staff', is_active: false }),
];

const signInAs = (role: 'owner' | 'admin' | 'staff') => seedSession({ user: buildUser({ user_id: 7, username: 'amina', role }) });

async function teamTable() {
  const card = await screen.findByRole('region', { name: 'Team' });
  const table = within(card).getByRole('table', { name: 'Team' });
  await within(table).findByText('brian');
  return { card, table };
}

async function roleOptions(dialog: HTMLElement) {
  await userEvent.click(within(dialog).getByLabelText('Role', { selector: 'input' }));
  // The role list's own options: the page has other selects (the SMS reply language).
  return within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
}

describe('Team card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to staff, who get only their own password', async () => {
    signInAs('staff');
    const { calls } = mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'Team' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/users'))).toBe(false);
  });

  it('lists the users with username, email, role, active and created, marking the signed-in one', async () => {
    signInAs('owner');
    const { calls } = mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    const { table } = await teamTable();
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Username', 'Email', 'Role', 'Active', 'Created', 'Actions']);
    expect(within(rows[1]!).getByText('You')).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent(/brian.*brian@example\.com.*Admin.*Active/);
    expect(rows[3]).toHaveTextContent(/chao.*—.*Staff.*Inactive/);
    expect(within(rows[3]!).getByRole('time')).toHaveAttribute('dateTime', '2026-03-04T10:00:00.000Z');
    const list = new URL(calls.find((c) => c.url.startsWith('/payg/users'))!.url, 'http://x');
    expect(Object.fromEntries(list.searchParams)).toEqual({ limit: '20', offset: '0' });
  });

  it('searches by username or email', async () => {
    const user = userEvent.setup();
    signInAs('admin');
    const { calls } = mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    const { card, table } = await teamTable();
    await user.type(within(card).getByRole('textbox', { name: 'Search team' }), 'chao{Enter}');
    await waitFor(() => expect(within(table).queryByText('brian')).not.toBeInTheDocument());
    expect(within(table).getByText('chao')).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('search=chao'))).toBe(true);
  });

  it('lets an owner give the owner role, and an admin only admin or staff', async () => {
    signInAs('owner');
    mockSettingsApi(undefined, TEAM);
    const owner = renderApp('/settings');
    let { card } = await teamTable();
    await userEvent.click(within(card).getByRole('button', { name: 'Add User' }));
    expect(await roleOptions(await screen.findByRole('dialog', { name: 'Add User' }))).toEqual(['Owner', 'Admin', 'Staff']);
    owner.unmount();

    signInAs('admin');
    renderApp('/settings');
    ({ card } = await teamTable());
    await userEvent.click(within(card).getByRole('button', { name: 'Add User' }));
    expect(await roleOptions(await screen.findByRole('dialog', { name: 'Add User' }))).toEqual(['Admin', 'Staff']);
  });

  it("adds a user after checking the form with the API's rules", async () => {
    const user = userEvent.setup();
    signInAs('admin');
    const { calls } = mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    const { card, table } = await teamTable();
    await user.click(within(card).getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Username/ }), 'x y');
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'nope');
    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(within(dialog).getByText('Username may contain letters, digits, . _ @ and - only')).toBeInTheDocument();
    expect(within(dialog).getByText('Email must be a valid email')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(dialog).getByRole('textbox', { name: /^Username/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Username/ }), 'field.agent');
    await user.clear(within(dialog).getByRole('textbox', { name: /^Email/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'agent@example.com');
    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), '-and-long');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('User field.agent added')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual({ username: 'field.agent', email: 'agent@example.com', password: 'short-and-long', role: 'staff' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add User' })).not.toBeInTheDocument());
    expect(await within(table).findByText('field.agent')).toBeInTheDocument();
  });

  it("shows the API's reason when it refuses, as it comes", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi(
      (call, path) =>
        path === '/payg/users' && call.method === 'POST'
          ? jsonResponse(409, { detail: 'The username "brian" is already taken', message: 'The username "brian" is already taken' })
          : undefined,
      TEAM,
    );
    renderApp('/settings');
    const { card } = await teamTable();
    await user.click(within(card).getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Username/ }), 'brian');
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'b@example.com');
    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), 'long-enough');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByText('The username "brian" is already taken')).toBeInTheDocument();
  });

  it('edits email, role, active and password, sending only what changed', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    const { table } = await teamTable();
    await user.click(within(table).getByRole('button', { name: 'Edit brian' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit brian' });
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await user.click(within(dialog).getByRole('switch', { name: 'Active (can sign in)' }));
    await user.type(within(dialog).getByLabelText('Reset password', { selector: 'input' }), 'a-fresh-start');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User brian updated')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/payg/users/8');
    expect(JSON.parse(put.body!)).toEqual({ is_active: false, password: 'a-fresh-start' });
    await waitFor(() => expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Inactive'));
  });

  it('offers no password reset on your own row (Change Password is for that)', async () => {
    signInAs('owner');
    mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    const { table } = await teamTable();
    await userEvent.click(within(table).getByRole('button', { name: 'Edit amina' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit amina' });
    expect(within(dialog).queryByLabelText('Reset password')).not.toBeInTheDocument();
    expect(within(dialog).getByText('To change your own password, use Change Password on this page.')).toBeInTheDocument();
  });

  it('deletes after a confirmation naming the user, and shows a refusal such as the last owner', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(
      (call, path) =>
        path === '/payg/users/7' && call.method === 'DELETE'
          ? jsonResponse(409, { detail: 'An organization must keep at least one active owner', message: 'An organization must keep at least one active owner' })
          : undefined,
      TEAM,
    );
    renderApp('/settings');
    const { table } = await teamTable();

    await user.click(within(table).getByRole('button', { name: 'Delete amina' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete user?' });
    expect(dialog).toHaveTextContent('Delete amina?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete User' }));
    expect(await within(dialog).findByText('An organization must keep at least one active owner')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete user?' })).not.toBeInTheDocument());

    await user.click(within(table).getByRole('button', { name: 'Delete chao' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete user?' });
    expect(dialog).toHaveTextContent('Delete chao? They will no longer be able to sign in.');
    expect(calls.some((c) => c.url === '/payg/users/9')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('User chao deleted')).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('chao')).not.toBeInTheDocument());
  });

  it('marks who signs in with two-factor, and lets an owner reset it for someone who lost their phone', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(undefined, [
      { ...ME, two_factor_enabled: true },
      buildTeamUser({ user_id: 8, username: 'brian', email: 'brian@example.com', role: 'admin', two_factor_enabled: true }),
      buildTeamUser({ user_id: 9, username: 'chao', email: null, role: 'staff' }),
    ]);
    renderApp('/settings');
    const { table } = await teamTable();
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('2FA')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('2FA')).toBeInTheDocument();
    expect(within(rows[3]!).queryByText('2FA')).not.toBeInTheDocument();
    // Only for someone else who has it on: your own is turned off with your password, in Two-Factor Sign-In.
    expect(within(table).queryByRole('button', { name: 'Reset Two-Factor for amina' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Reset Two-Factor for chao' })).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Reset Two-Factor for brian' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor sign-in?' });
    expect(dialog).toHaveTextContent(
      'brian lost their phone? They will sign in with their password only until they set up two-factor sign-in again, and every session they have is signed out.',
    );
    expect(calls.some((c) => c.url.includes('/2fa/reset'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Reset Two-Factor' }));
    expect(await screen.findByText('brian signs in with a password only until they set up two-factor sign-in again')).toBeInTheDocument();
    const reset = calls.filter((c) => c.url.includes('/2fa/reset'));
    expect(reset.map((c) => [c.method, c.url])).toEqual([['POST', '/payg/users/8/2fa/reset']]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset two-factor sign-in?' })).not.toBeInTheDocument());
    // The list is read again: brian has it off now.
    await waitFor(() => expect(within(within(table).getAllByRole('row')[2]!).queryByText('2FA')).not.toBeInTheDocument());
    expect(within(table).queryByRole('button', { name: 'Reset Two-Factor for brian' })).not.toBeInTheDocument();
  });

  it('where two-factor sign-in is required, lets an owner give someone without it more days to set it up', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(
      undefined,
      [
        { ...ME, two_factor_enabled: true },
        buildTeamUser({ user_id: 8, username: 'brian', email: 'brian@example.com', role: 'admin', two_factor_enabled: true }),
        buildTeamUser({ user_id: 9, username: 'chao', email: null, role: 'staff' }),
      ],
      undefined,
      { require_two_factor: true, users_without_two_factor: 1 },
    );
    renderApp('/settings');
    const { table } = await teamTable();
    await user.click(await within(table).findByRole('button', { name: 'Allow Two-Factor Set-Up for chao' }));
    const dialog = await screen.findByRole('dialog', { name: 'Allow two-factor set-up?' });
    expect(dialog).toHaveTextContent('chao has not set up two-factor sign-in. They get 7 days to set it up with their password');
    await user.click(within(dialog).getByRole('button', { name: 'Allow Set-Up' }));
    expect(await screen.findByText('chao may set up two-factor sign-in with their password until 2026-12-03')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('/2fa/reset')).map((c) => [c.method, c.url])).toEqual([['POST', '/payg/users/9/2fa/reset']]);
    // Not for yourself.
    expect(within(table).queryByRole('button', { name: 'Allow Two-Factor Set-Up for amina' })).not.toBeInTheDocument();
  });

  it("shows the API's refusal to reset in the dialog", async () => {
    const user = userEvent.setup();
    signInAs('admin');
    mockSettingsApi(
      (call, path) =>
        path === '/payg/users/8/2fa/reset' && call.method === 'POST'
          ? jsonResponse(409, { detail: 'brian does not use two-factor sign-in', message: 'brian does not use two-factor sign-in' })
          : undefined,
      [ME, buildTeamUser({ user_id: 8, username: 'brian', role: 'staff', two_factor_enabled: true })],
    );
    renderApp('/settings');
    const { table } = await teamTable();
    await user.click(within(table).getByRole('button', { name: 'Reset Two-Factor for brian' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor sign-in?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset Two-Factor' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to reset two-factor sign-in');
    expect(alert).toHaveTextContent('brian does not use two-factor sign-in');
  });

  it('signs another user out of every device after a confirmation, with the server\'s count', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(undefined, TEAM);
    renderApp('/settings');
    const { table } = await teamTable();
    // Your own are signed out in Signed-In Devices, where this session ends too.
    expect(within(table).queryByRole('button', { name: 'Sign Out Everywhere for amina' })).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Sign Out Everywhere for brian' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(dialog).toHaveTextContent('brian is signed out on every device at once: they sign in again with their password.');
    expect(calls.some((c) => c.url.endsWith('/sign-out'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Sign Out Everywhere' }));
    expect(await screen.findByText('brian is signed out everywhere (2 sessions)')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/sign-out')).map((c) => [c.method, c.url])).toEqual([['POST', '/payg/users/8/sign-out']]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign out everywhere?' })).not.toBeInTheDocument());
  });

  it('does not offer an admin to sign out an owner, as the API refuses it', async () => {
    signInAs('admin');
    mockSettingsApi(undefined, [
      buildTeamUser({ user_id: 7, username: 'amina', role: 'admin' }),
      buildTeamUser({ user_id: 8, username: 'brian', role: 'admin' }),
      buildTeamUser({ user_id: 9, username: 'chao', role: 'staff' }),
      buildTeamUser({ user_id: 10, username: 'dora', role: 'owner' }),
    ]);
    renderApp('/settings');
    const { table } = await teamTable();
    expect(within(table).getByRole('button', { name: 'Sign Out Everywhere for brian' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Sign Out Everywhere for chao' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Sign Out Everywhere for dora' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Sign Out Everywhere for amina' })).not.toBeInTheDocument();
  });

  it("shows the API's refusal to sign a user out in the dialog", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi(
      (_call, path) => (path === '/payg/users/9/sign-out' ? jsonResponse(404, { detail: 'User not found', message: 'User not found' }) : undefined),
      TEAM,
    );
    renderApp('/settings');
    const { table } = await teamTable();
    await user.click(within(table).getByRole('button', { name: 'Sign Out Everywhere for chao' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign Out Everywhere' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to sign the user out');
    expect(alert).toHaveTextContent('User not found');
  });
});
