import { PASSWORD_RESET_SENT } from '@kidogo/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { NOT_SET_UP } from './forgot-password';
import { INCOMPLETE_LINK } from './reset-password';

const AVAILABILITY = '/payg/auth/password-reset';

/** The API as these pages see it: whether email is set up, and what the two calls answer. */
function api(available: boolean, answer: (call: RecordedCall) => Response = () => jsonResponse(202, { message: PASSWORD_RESET_SENT })) {
  return mockFetch((call) => (call.url === AVAILABILITY && call.method === 'GET' ? jsonResponse(200, { available }) : answer(call)));
}

const posted = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST').map((c) => ({ url: c.url, body: JSON.parse(c.body!) }));

describe('forgot password', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is offered on the sign-in page only where email is set up, and carries the username over', async () => {
    const user = userEvent.setup();
    api(true);
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign in to Kidogo' });
    await user.type(screen.getByLabelText('Username'), ' amina ');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { name: 'Forgot your password?' });
    expect(router.state.location.pathname).toBe('/forgot-password');
    expect(screen.getByLabelText('Username or email')).toHaveValue('amina');
  });

  it('is not offered where the installation cannot email', async () => {
    api(false);
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign in to Kidogo' });
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();

    renderApp('/forgot-password');
    expect(await screen.findByText(NOT_SET_UP)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Link' })).not.toBeInTheDocument();
  });

  it('asks for the username or email, sends it trimmed, and says where to look', async () => {
    const user = userEvent.setup();
    const { calls } = api(true);
    renderApp('/forgot-password');
    const send = await screen.findByRole('button', { name: 'Send Link' });
    await user.click(send);
    expect(screen.getByText('Username or email is required')).toBeInTheDocument();
    expect(posted(calls)).toEqual([]);

    await user.type(screen.getByLabelText('Username or email'), '  amina@jua.test ');
    await user.click(send);
    expect(await screen.findByText(PASSWORD_RESET_SENT)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Check your email');
    expect(posted(calls)).toEqual([{ url: '/payg/auth/password-reset', body: { login: 'amina@jua.test' } }]);
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/login');
  });

  it('shows why a request was refused', async () => {
    const user = userEvent.setup();
    api(true, () => jsonResponse(429, { detail: 'Too many password reset requests. Try again in 12 minutes.' }, { 'Retry-After': '700' }));
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Username or email'), 'amina');
    await user.click(screen.getByRole('button', { name: 'Send Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many password reset requests. Try again in 12 minutes.');
  });
});

describe('choosing a new password', () => {
  afterEach(() => vi.unstubAllGlobals());

  const fill = async (user: ReturnType<typeof userEvent.setup>, password: string, confirm = password) => {
    await user.clear(screen.getByLabelText(/^New password/));
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    if (password) await user.type(screen.getByLabelText(/^New password/), password);
    if (confirm) await user.type(screen.getByLabelText(/^Confirm new password/), confirm);
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
  };

  it('checks the password, sends it with the link\'s token, then offers Sign In', async () => {
    const user = userEvent.setup();
    const { calls } = api(true, () => jsonResponse(200, { message: 'The password of amina has been changed. Sign in with the new password.' }));
    renderApp('/reset-password?token=abc-123_XYZ');
    await screen.findByRole('heading', { name: 'Choose a new password' });

    await fill(user, 'short');
    expect(screen.getByText('New password must be at least 8 characters')).toBeInTheDocument();
    await fill(user, 'long-enough-1', 'long-enough-2');
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(posted(calls)).toEqual([]);

    await fill(user, 'long-enough-1');
    expect(await screen.findByText('The password of amina has been changed. Sign in with the new password.')).toBeInTheDocument();
    expect(posted(calls)).toEqual([{ url: '/payg/auth/password-reset/confirm', body: { token: 'abc-123_XYZ', new_password: 'long-enough-1' } }]);
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  });

  it('says when the link was refused, and offers a new one', async () => {
    const user = userEvent.setup();
    const refusal = 'This link has expired or was already used: ask for a new one';
    api(true, () => jsonResponse(400, { detail: `token: ${refusal}`, errors: [{ field: 'token', message: refusal }] }));
    renderApp('/reset-password?token=used-link');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await fill(user, 'long-enough-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Link not valid');
    expect(alert).toHaveTextContent(refusal);
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('says a link without its token is not complete', async () => {
    api(true);
    renderApp('/reset-password');
    expect(await screen.findByText(INCOMPLETE_LINK)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
  });
});
