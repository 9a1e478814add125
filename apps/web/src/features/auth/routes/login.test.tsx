import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAuthReply, seedSession } from '@/testing/factories';
import { deferred, jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';

const usernameInput = () => screen.getByLabelText('Username');
const passwordInput = () => screen.getByLabelText('Password', { exact: true });
const submit = () => screen.getByRole('button', { name: /sign in|signing in/i });

async function openLogin(url = '/login') {
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Sign in to Kidogo' });
  return view;
}

describe('login page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps Sign In disabled until both fields are filled, ignoring spaces in the username', async () => {
    const user = userEvent.setup();
    await openLogin();
    expect(submit()).toHaveTextContent('Sign In');
    expect(submit()).toBeDisabled();

    await user.type(usernameInput(), '   ');
    await user.type(passwordInput(), 'secret');
    expect(submit()).toBeDisabled();

    await user.type(usernameInput(), 'amina');
    expect(submit()).toBeEnabled();

    await user.clear(passwordInput());
    expect(submit()).toBeDisabled();
  });

  it('has a show/hide toggle on the password', async () => {
    const user = userEvent.setup();
    await openLogin();
    await user.type(passwordInput(), 'secret');
    expect(passwordInput()).toHaveAttribute('type', 'password');
    // Mantine's toggle is the only other button in the form
    const toggle = screen.getAllByRole('button').find((b) => b !== submit() && b.closest('form'));
    await user.click(toggle!);
    expect(passwordInput()).toHaveAttribute('type', 'text');
  });

  it("sends the trimmed username, shows 'Signing in...' while busy, then goes to the dashboard", async () => {
    const user = userEvent.setup();
    const reply = deferred<Response>();
    const { calls } = mockFetch((call) => (call.url === '/payg/authenticate' ? reply.promise : jsonResponse(200, { data: [] })));
    const { router } = await openLogin();

    await user.type(usernameInput(), '  amina  ');
    await user.type(passwordInput(), ' pass word ');
    await user.click(submit());

    expect(submit()).toHaveTextContent('Signing in...');
    expect(submit()).toBeDisabled();
    // The page first asked whether Forgot password? can be offered.
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /payg/auth/password-reset', 'POST /payg/authenticate']);
    const signIn = calls[1]!;
    expect(new URLSearchParams(signIn.body!).get('username')).toBe('amina');
    expect(new URLSearchParams(signIn.body!).get('password')).toBe(' pass word ');
    expect(signIn.headers.authorization).toBeUndefined();

    reply.resolve(jsonResponse(200, buildAuthReply({ access_token: 'access-new', refresh_token: 'refresh-new' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('authToken')).toBe('access-new');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-new');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ username: 'amina' });
  });

  it("shows 'Invalid response from server' when the reply has no access token", async () => {
    const user = userEvent.setup();
    mockFetch(() => jsonResponse(200, { token_type: 'bearer', user: null }));
    await openLogin();
    await user.type(usernameInput(), 'amina');
    await user.type(passwordInput(), 'secret');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid response from server');
    expect(submit()).toHaveTextContent('Sign In');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('shows the server detail, and typing clears the error', async () => {
    const user = userEvent.setup();
    mockFetch(() => jsonResponse(401, { detail: 'Invalid username or password', message: 'Unauthorized' }));
    await openLogin();
    await user.type(usernameInput(), 'amina');
    await user.type(passwordInput(), 'wrong');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');

    await user.type(passwordInput(), '!');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('falls back to the message, then to the generic sentence', async () => {
    const user = userEvent.setup();
    let body: unknown = { message: 'Account locked' };
    mockFetch(() => jsonResponse(401, body));
    await openLogin();
    await user.type(usernameInput(), 'amina');
    await user.type(passwordInput(), 'x');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Account locked');

    body = {};
    await user.click(submit());
    expect(await screen.findByText('Login failed. Please check your credentials.')).toBeInTheDocument();
  });

  it('returns to the page the visitor was sent away from', async () => {
    const user = userEvent.setup();
    mockFetch((call) => (call.url === '/payg/authenticate' ? jsonResponse(200, buildAuthReply()) : jsonResponse(200, { data: [] })));
    const { router } = renderApp('/customers?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await screen.findByRole('heading', { name: 'Sign in to Kidogo' });
    await user.type(usernameInput(), 'amina');
    await user.type(passwordInput(), 'secret');
    await user.click(submit());
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers'));
    expect(router.state.location.search).toBe('?page=2');
    expect(await screen.findByRole('heading', { name: 'Customers' })).toBeInTheDocument();
  });

  it('sends an already signed-in visitor on to the dashboard', async () => {
    seedSession();
    mockFetch(() => jsonResponse(200, { data: [] }));
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
