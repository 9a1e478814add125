import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildSession, sessionsApi } from '../testing/mock-sessions-api';

async function openCard(api = sessionsApi(), handler?: (call: RecordedCall, path: string) => Response | undefined) {
  seedSession({ user: buildUser({ user_id: 7, username: 'amina', role: 'staff' }) });
  const { calls } = mockSettingsApi((call, path) => handler?.(call, path) ?? api.handler(call, path));
  const view = renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Signed-In Devices' });
  const sent = (method: string, path: string) => calls.filter((c) => c.method === method && c.url === `/payg/auth/sessions${path}`);
  return { ...view, card, api, calls, sent };
}

const devices = async (card: HTMLElement) => within(await within(card).findByRole('list', { name: 'Signed-in devices' })).getAllByRole('listitem');

describe('Signed-In Devices card', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists where the user is signed in, naming each device, with "This device" on the current one', async () => {
    const { card } = await openCard();
    expect(card).toHaveTextContent('Where your account is signed in. Sign out of a device you no longer use or do not recognise.');
    const items = await devices(card);
    expect(items).toHaveLength(3);

    const [here, phone, laptop] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(here).toHaveAccessibleName('Chrome on Windows, this device');
    expect(within(here).getByText('This device')).toBeInTheDocument();
    expect(here).toHaveTextContent('102.0.2.14');
    expect(here).toHaveTextContent('Active now');
    expect(within(here).getByRole('time')).toHaveAttribute('dateTime', '2026-11-20T08:00:00.000Z');
    expect(within(here).queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument();

    expect(phone).toHaveAccessibleName('Safari on iPhone');
    expect(phone).toHaveTextContent('41.90.64.7');
    expect(within(phone).queryByText('This device')).not.toBeInTheDocument();
    expect(within(phone).getAllByRole('time').map((t) => t.getAttribute('dateTime'))).toEqual(['2026-11-20T08:00:00.000Z', '2026-11-24T18:05:00.000Z']);
    expect(phone).toHaveTextContent(/Last active/);
    expect(within(phone).getByRole('button', { name: 'Sign Out' })).toBeEnabled();

    expect(laptop).toHaveAccessibleName('Firefox on Linux');
    expect(laptop).toHaveTextContent('2001:db8:85a3::8a2e:370:7334');
    expect(within(card).getByRole('button', { name: 'Sign Out Everywhere Else' })).toBeEnabled();
  });

  it('signs out of one other device, and the list reads again without it', async () => {
    const user = userEvent.setup();
    const { card, sent, calls } = await openCard();
    const [, phone] = await devices(card);
    await user.click(within(phone!).getByRole('button', { name: 'Sign Out' }));

    expect(await screen.findByText('Signed out of that device')).toBeInTheDocument();
    expect(sent('DELETE', '/sess-phone')).toHaveLength(1);
    await waitFor(async () => expect(await devices(card)).toHaveLength(2));
    expect(within(card).queryByText('Safari on iPhone')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'GET' && c.url === '/payg/auth/sessions').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's reason when a device had already gone, and drops it from the list", async () => {
    const user = userEvent.setup();
    const api = sessionsApi();
    const { card } = await openCard(api);
    const [, phone] = await devices(card);
    // Signed out meanwhile, from the phone itself.
    api.state.sessions = api.state.sessions.filter((s) => s.session_id !== 'sess-phone');
    await user.click(within(phone!).getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('Session not found')).toBeInTheDocument();
    await waitFor(async () => expect(await devices(card)).toHaveLength(2));
  });

  it('signs out everywhere else, leaving only this device', async () => {
    const user = userEvent.setup();
    const { card, sent } = await openCard();
    await devices(card);
    await user.click(within(card).getByRole('button', { name: 'Sign Out Everywhere Else' }));

    expect(await screen.findByText('Signed out everywhere else (2 sessions)')).toBeInTheDocument();
    expect(sent('POST', '/sign-out-others')).toHaveLength(1);
    await waitFor(async () => expect(await devices(card)).toHaveLength(1));
    expect(within(card).getByText('This device')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Sign Out Everywhere Else' })).toBeDisabled();
  });

  it('signs out everywhere after a confirmation, this device too, and ends at the login page without calling /logout', async () => {
    const user = userEvent.setup();
    const { card, sent, calls, router } = await openCard();
    await devices(card);
    await user.click(within(card).getByRole('button', { name: 'Sign Out Everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(dialog).toHaveTextContent('Every device signed in to your account is signed out at once, this one too: you sign in again with your password.');
    expect(sent('POST', '/sign-out-everywhere')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Sign Out Everywhere' }));
    expect(await screen.findByText('Signed out everywhere (3 sessions)')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(sent('POST', '/sign-out-everywhere')).toHaveLength(1);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    // The server has already revoked the refresh token: nothing more is sent with it.
    expect(calls.some((c) => c.url === '/payg/logout' || c.url === '/payg/refresh')).toBe(false);
  });

  it('keeps the dialog open with the reason when signing out everywhere fails', async () => {
    const user = userEvent.setup();
    const { card, router } = await openCard(sessionsApi(), (_call, path) =>
      path === '/payg/auth/sessions/sign-out-everywhere' ? jsonResponse(500, { message: 'Database unavailable' }) : undefined,
    );
    await devices(card);
    await user.click(within(card).getByRole('button', { name: 'Sign Out Everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign Out Everywhere' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to sign out everywhere');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(router.state.location.pathname).toBe('/settings');
    expect(localStorage.getItem('authToken')).toBe('access-1');
  });

  it('offers nothing to sign out but everywhere when this is the only device', async () => {
    const { card } = await openCard(sessionsApi([buildSession()]));
    expect(await devices(card)).toHaveLength(1);
    expect(within(card).getByRole('button', { name: 'Sign Out Everywhere Else' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Sign Out Everywhere' })).toBeEnabled();
  });

  it('says so when there is no session to list', async () => {
    const { card } = await openCard(sessionsApi([]));
    expect(await within(card).findByText('No devices are signed in.')).toBeInTheDocument();
    expect(within(card).queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows a load failure with Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    const { card } = await openCard(sessionsApi(), (call, path) =>
      fail && call.method === 'GET' && path === '/payg/auth/sessions' ? jsonResponse(500, { message: 'Database unavailable' }) : undefined,
    );
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(within(card).queryByRole('button', { name: 'Sign Out Everywhere' })).not.toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await devices(card)).toHaveLength(3);
  });
});
