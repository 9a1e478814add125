import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildAuthReply, buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { CURRENT_CODE, PASSWORD, recoveryCodes, twoFactorApi } from '../testing/mock-two-factor-api';

const MESSAGE = 'Your organization requires two-factor sign-in: set it up in Settings → Two-Factor Sign-In';
const REQUIRED = { detail: { error: 'TWO_FACTOR_REQUIRED', message: MESSAGE }, message: MESSAGE };
const TITLE = 'Set up two-factor sign-in';
/** What the API answers a user who must set up two-factor sign-in, and what else the browser may call (sign-in, sign-out). */
// With the sign-in page's question whether Forgot password? is offered: public, asked before anyone signs in.
const OPEN = ['/payg/me', '/payg/auth/2fa', '/payg/auth/2fa/setup', '/payg/auth/2fa/enable', '/payg/auth/change-password', '/payg/logout', '/payg/authenticate', '/payg/auth/password-reset'];

const GATED = buildUser({ user_id: 7, username: 'amina', role: 'staff', two_factor_setup_required: true });
const pathOf = (call: RecordedCall) => new URL(call.url, 'http://x').pathname;

/**
 * The API while the organization requires two-factor sign-in of amina: /me
 * says so until she turns it on (or `required` is false: the organization
 * stopped requiring it), everything else is 403 TWO_FACTOR_REQUIRED until
 * then; after, the Settings page's API.
 */
function requiringApi({ required = true }: { required?: boolean } = {}) {
  const twoFactor = twoFactorApi();
  const gated = () => required && !twoFactor.state.enabled;
  const mock = mockSettingsApi((call, path) => {
    if (path === '/payg/me') return jsonResponse(200, { ...GATED, two_factor_setup_required: gated() });
    if (path === '/payg/logout') return jsonResponse(200, { message: 'Logged out' });
    if (path === '/payg/auth/password-reset') return jsonResponse(200, { available: false });
    const own = twoFactor.handler(call, path);
    if (own) return own;
    if (path === '/payg/authenticate') return jsonResponse(200, buildAuthReply({ user: { ...GATED, two_factor_setup_required: gated() } }));
    return gated() ? jsonResponse(403, REQUIRED) : undefined;
  });
  const refused = () => mock.calls.filter((c) => !OPEN.includes(pathOf(c)));
  return { ...mock, twoFactor, refused };
}

const gate = () => screen.findByRole('heading', { name: TITLE });
const passwordBox = () => screen.getByLabelText(/^Current password/, { selector: 'input' });

describe('the set-up screen of an organization that requires two-factor sign-in', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says by when to set it up, and once that has passed, whom to ask instead of the steps', async () => {
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    seedSession({ user: { ...GATED, two_factor_setup_until: until } });
    mockSettingsApi((_call, path) => (path === '/payg/me' ? jsonResponse(200, { ...GATED, two_factor_setup_until: until }) : jsonResponse(403, REQUIRED)));
    const first = renderApp('/settings');
    expect(await gate()).toBeInTheDocument();
    expect(screen.getByText(/requires a code from an authenticator app when you sign in\. Set it up by .+ to continue\./)).toBeInTheDocument();
    expect(passwordBox()).toBeInTheDocument();
    first.unmount();
    vi.unstubAllGlobals();

    const passed = new Date(Date.now() - 60_000).toISOString();
    seedSession({ user: { ...GATED, two_factor_setup_until: passed } });
    const { calls } = mockSettingsApi((_call, path) => (path === '/payg/me' ? jsonResponse(200, { ...GATED, two_factor_setup_until: passed }) : jsonResponse(403, REQUIRED)));
    renderApp('/settings');
    expect(await screen.findByText('The time to set it up has passed')).toBeInTheDocument();
    expect(screen.getByText(/Ask an owner or admin of Sunlight Ltd to reset your two-factor sign-in \(Settings → Team → Reset Two-Factor\)/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Current password/, { selector: 'input' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(calls.some((c) => pathOf(c) === '/payg/auth/2fa/setup')).toBe(false);
  });

  it('is all a user without it sees: no navigation, no page, no call the server would refuse', async () => {
    seedSession({ user: GATED });
    const { calls, refused } = requiringApi();
    const { router } = renderApp('/settings');
    expect(await gate()).toBeInTheDocument();
    expect(screen.getByText('Sunlight Ltd requires a code from an authenticator app when you sign in. Set it up to continue.')).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 3 · Your password')).toBeInTheDocument();
    expect(passwordBox()).toBeInTheDocument();
    // Nowhere else to go: no Cancel, no shell.
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    // It asks the server once whether that still holds; nothing else.
    await waitFor(() => expect(calls.map((c) => `${c.method} ${pathOf(c)}`)).toEqual(['GET /payg/me']));
    expect(refused()).toEqual([]);
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('takes over from any call answered 403 TWO_FACTOR_REQUIRED, and reads the user again', async () => {
    // Signed in before the organization required it: the stored user does not say so.
    seedSession({ user: { ...GATED, two_factor_setup_required: false } });
    const { calls } = requiringApi();
    renderApp('/settings');
    expect(await gate()).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Change Password' })).not.toBeInTheDocument();
    // The refusals of the page behind it are not shown as errors.
    expect(screen.queryByText(MESSAGE)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => pathOf(c) === '/payg/me')).toBe(true));
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ username: 'amina', two_factor_setup_required: true });
  });

  it('uses the set-up steps of Settings, and once they are done opens the page the user was going to', async () => {
    const user = userEvent.setup();
    seedSession({ user: GATED });
    const { calls, twoFactor } = requiringApi();
    const { router } = renderApp('/settings');
    await gate();

    await user.type(passwordBox(), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/Step 2 of 3/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Setup key' })).toHaveValue('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    // Back to the password (there is no leaving): a new secret comes with it.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('Step 1 of 3 · Your password')).toBeInTheDocument();
    await user.type(passwordBox(), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByRole('textbox', { name: /^Authentication code/ }), CURRENT_CODE);
    await user.click(screen.getByRole('button', { name: 'Turn On' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(recoveryCodes('a'));
    expect(twoFactor.state.enabled).toBe(true);
    // Still the set-up screen until Done: the codes are shown only here.
    expect(screen.getByRole('heading', { name: TITLE })).toBeInTheDocument();
    const meBefore = calls.filter((c) => pathOf(c) === '/payg/me').length;
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: TITLE })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings');
    expect(calls.filter((c) => pathOf(c) === '/payg/me').length).toBe(meBefore + 1);
    const card = await screen.findByRole('region', { name: 'Two-Factor Sign-In' });
    expect(await within(card).findByText('On')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ two_factor_setup_required: false });
  });

  it('lets the user in when the organization no longer requires it', async () => {
    seedSession({ user: GATED });
    requiringApi({ required: false });
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: TITLE })).not.toBeInTheDocument();
  });

  it('signs out', async () => {
    const user = userEvent.setup();
    seedSession({ user: GATED });
    const { calls } = requiringApi();
    const { router } = renderApp('/dashboard');
    await gate();
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/Small payments/);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(calls.some((c) => c.method === 'POST' && pathOf(c) === '/payg/logout')).toBe(true);
  });

  it('opens after a sign-in whose user must set it up, without loading the dashboard', async () => {
    const user = userEvent.setup();
    const { refused } = requiringApi();
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign in to Kidogo' });
    await user.type(screen.getByLabelText('Username'), 'amina');
    await user.type(screen.getByLabelText('Password', { exact: true }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await gate()).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(refused()).toEqual([]);
  });
});
