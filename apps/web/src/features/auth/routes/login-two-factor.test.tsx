import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TwoFactorChallenge } from '@kidogo/contracts';
import { buildAuthReply, buildUser } from '@/testing/factories';
import { deferred, jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const CHALLENGE: TwoFactorChallenge = {
  two_factor_required: true,
  challenge_token: 'challenge-1',
  expires_in: 300,
  message: 'Enter the code from your authenticator app',
};
const EXPIRED = 'This sign-in has expired: enter your password again';

const codeInput = () => screen.getByRole('textbox', { name: 'Authentication code' });
const verify = () => screen.getByRole('button', { name: /^(Verify|Verifying\.\.\.)$/ });
const secondStepCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url === '/payg/authenticate/2fa');

/**
 * /authenticate answers a challenge (a new one each time); /authenticate/2fa
 * answers `second(call)`; anything else is an empty list (the dashboard).
 */
function mockSignIn(second: (call: RecordedCall) => Response | Promise<Response>) {
  let challenges = 0;
  return mockFetch((call) => {
    if (call.url === '/payg/authenticate') return jsonResponse(200, { ...CHALLENGE, challenge_token: `challenge-${++challenges}` });
    if (call.url === '/payg/authenticate/2fa') return second(call);
    return jsonResponse(200, { data: [] });
  });
}

async function passwordStep(user: ReturnType<typeof userEvent.setup>, url = '/login') {
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Sign in to Kidogo' });
  await user.type(screen.getByLabelText('Username'), 'amina');
  await user.type(screen.getByLabelText('Password', { exact: true }), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  await screen.findByRole('heading', { name: 'Two-factor sign-in' });
  return view;
}

describe('two-factor sign-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the code after a correct password, in the same card, then signs in as a password sign-in does', async () => {
    const user = userEvent.setup();
    const held = deferred<Response>();
    const { calls } = mockSignIn(() => held.promise);
    const { router } = await passwordStep(user);

    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password', { exact: true })).not.toBeInTheDocument();
    expect(codeInput()).toHaveAttribute('inputmode', 'numeric');
    expect(codeInput()).toHaveAttribute('autocomplete', 'one-time-code');
    expect(codeInput()).toHaveFocus();
    expect(verify()).toBeDisabled();
    expect(localStorage.getItem('authToken')).toBeNull();

    await user.type(codeInput(), '123 456');
    await user.click(verify());
    expect(verify()).toHaveTextContent('Verifying...');
    expect(verify()).toBeDisabled();
    const [sent] = secondStepCalls(calls);
    expect(sent).toMatchObject({ method: 'POST' });
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent!.body!)).toEqual({ challenge_token: 'challenge-1', code: '123456' });

    held.resolve(jsonResponse(200, buildAuthReply({ access_token: 'access-2fa', refresh_token: 'refresh-2fa', user: buildUser({ username: 'amina' }) })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('authToken')).toBe('access-2fa');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2fa');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ username: 'amina' });
  });

  it('returns to the page the visitor was sent away from, as a password sign-in does', async () => {
    const user = userEvent.setup();
    mockSignIn(() => jsonResponse(200, buildAuthReply()));
    const { router } = await passwordStep(user, '/customers?page=2');
    await user.type(codeInput(), '123456');
    await user.click(verify());
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers'));
    expect(router.state.location.search).toBe('?page=2');
  });

  it("shows the server's reason for a wrong code, keeps the step, and typing clears it", async () => {
    const user = userEvent.setup();
    const { calls } = mockSignIn(() => jsonResponse(401, { statusCode: 401, detail: 'Invalid code', message: 'Invalid code' }));
    await passwordStep(user);
    await user.type(codeInput(), '000000');
    await user.click(verify());
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid code');
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(verify()).toHaveTextContent('Verify');
    expect(localStorage.getItem('authToken')).toBeNull();
    await user.type(codeInput(), '1');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(secondStepCalls(calls)).toHaveLength(1);
  });

  it('says how a code looks before sending one that is not six digits', async () => {
    const user = userEvent.setup();
    const { calls } = mockSignIn(() => jsonResponse(200, buildAuthReply()));
    await passwordStep(user);
    await user.type(codeInput(), '12345');
    await user.click(verify());
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the 6 digits your authenticator app shows.');
    expect(secondStepCalls(calls)).toEqual([]);
  });

  it('shows a lockout as the server words it', async () => {
    const user = userEvent.setup();
    mockSignIn(() => jsonResponse(429, { detail: 'Too many failed attempts. Try again in 15 minutes.', message: 'Too many failed attempts. Try again in 15 minutes.', retry_after: 900 }));
    await passwordStep(user);
    await user.type(codeInput(), '123456');
    await user.click(verify());
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts. Try again in 15 minutes.');
  });

  it('takes a recovery code instead, and switches back to the app', async () => {
    const user = userEvent.setup();
    const { calls } = mockSignIn(() => jsonResponse(200, buildAuthReply({ access_token: 'access-rc' })));
    const { router } = await passwordStep(user);

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const recovery = screen.getByRole('textbox', { name: 'Recovery code' });
    expect(screen.queryByRole('textbox', { name: 'Authentication code' })).not.toBeInTheDocument();
    expect(recovery).toHaveAttribute('inputmode', 'text');
    expect(recovery).toHaveFocus();
    expect(screen.getByText(/Enter one of the recovery codes you saved/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    expect(codeInput()).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByRole('textbox', { name: 'Recovery code' }), ' k7p2m-x9q4d ');
    await user.click(verify());
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(JSON.parse(secondStepCalls(calls)[0]!.body!)).toEqual({ challenge_token: 'challenge-1', code: 'k7p2m-x9q4d' });
    expect(localStorage.getItem('authToken')).toBe('access-rc');
  });

  it('sends the user back to the password when the challenge has expired, and signs in from there', async () => {
    const user = userEvent.setup();
    let expired = true;
    const { calls } = mockSignIn(() => (expired ? jsonResponse(401, { detail: EXPIRED, message: EXPIRED, code: 'TWO_FACTOR_CHALLENGE_EXPIRED' }) : jsonResponse(200, buildAuthReply())));
    const { router } = await passwordStep(user);
    await user.type(codeInput(), '123456');
    await user.click(verify());

    expect(await screen.findByRole('alert')).toHaveTextContent(EXPIRED);
    expect(screen.queryByRole('heading', { name: 'Two-factor sign-in' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('amina');
    expect(screen.getByLabelText('Password', { exact: true })).toHaveValue('');
    expect(screen.getByLabelText('Password', { exact: true })).toHaveFocus();

    expired = false;
    await user.type(screen.getByLabelText('Password', { exact: true }), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.type(await screen.findByRole('textbox', { name: 'Authentication code' }), '654321');
    await user.click(verify());
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(secondStepCalls(calls).map((c) => JSON.parse(c.body!))).toEqual([
      { challenge_token: 'challenge-1', code: '123456' },
      { challenge_token: 'challenge-2', code: '654321' },
    ]);
  });

  it('goes back to the password when the challenge is older than it lasts, without asking the server', async () => {
    const user = userEvent.setup();
    const { calls } = mockSignIn(() => jsonResponse(200, buildAuthReply()));
    await passwordStep(user);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 301_000);
    await user.type(codeInput(), '123456');
    await user.click(verify());
    expect(await screen.findByRole('alert')).toHaveTextContent(EXPIRED);
    expect(screen.getByLabelText('Password', { exact: true })).toBeInTheDocument();
    expect(secondStepCalls(calls)).toEqual([]);
  });

  it('Back returns to the password step, keeping the username', async () => {
    const user = userEvent.setup();
    mockSignIn(() => jsonResponse(200, buildAuthReply()));
    await passwordStep(user);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('heading', { name: 'Two-factor sign-in' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('amina');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
