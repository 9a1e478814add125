import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAuthReply, buildUser, seedSession } from '@/testing/factories';
import { fakeJwt, jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { SessionProvider, useSession } from './session';

function Probe() {
  const session = useSession();
  const location = useLocation();
  return (
    <div>
      <p data-testid="status">{session.status}</p>
      <p data-testid="user">{session.user?.username ?? 'none'}</p>
      <p data-testid="org">{session.organizationId ?? 'none'}</p>
      <p data-testid="path">{location.pathname}</p>
      <button type="button" onClick={() => void session.logout()}>
        logout
      </button>
    </div>
  );
}

const probeRoutes = [
  {
    element: (
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    ),
    children: [{ path: '*', element: <Probe /> }],
  },
];

describe('session', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('restores a stored session on load', () => {
    seedSession({ user: buildUser({ username: 'wanjiru' }) });
    renderApp('/customers', probeRoutes);
    expect(screen.getByTestId('status')).toHaveTextContent('authenticated');
    expect(screen.getByTestId('user')).toHaveTextContent('wanjiru');
  });

  it('a corrupt stored user clears the whole session', () => {
    localStorage.setItem('authToken', 'access-1');
    localStorage.setItem('refreshToken', 'refresh-1');
    localStorage.setItem('user', '{"username": "half a JSON');
    renderApp('/customers', probeRoutes);
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('a stored user that is not an object is corrupt too', () => {
    seedSession();
    localStorage.setItem('user', '"just a string"');
    renderApp('/', probeRoutes);
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('falls back to the org_id claim of the token for the organization', () => {
    localStorage.setItem('authToken', fakeJwt({ org_id: 'org-from-token' }));
    renderApp('/', probeRoutes);
    expect(screen.getByTestId('status')).toHaveTextContent('authenticated');
    expect(screen.getByTestId('user')).toHaveTextContent('none');
    expect(screen.getByTestId('org')).toHaveTextContent('org-from-token');
  });

  it('an expired access token is refreshed before the app decides', async () => {
    const expired = fakeJwt({ org_id: 'org-1', exp: Math.floor(Date.now() / 1000) - 60 });
    seedSession({ token: expired });
    mockFetch(() => jsonResponse(200, buildAuthReply({ access_token: 'fresh', user: buildUser({ username: 'refreshed' }) })));
    renderApp('/', probeRoutes);
    expect(screen.getByTestId('status')).toHaveTextContent('loading');
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(screen.getByTestId('user')).toHaveTextContent('refreshed');
    expect(localStorage.getItem('authToken')).toBe('fresh');
  });

  it('an expired access token that cannot be refreshed ends the session', async () => {
    seedSession({ token: fakeJwt({ exp: 1 }) });
    mockFetch(() => jsonResponse(401, { detail: 'revoked' }));
    renderApp('/', probeRoutes);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('anonymous'));
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('unauthorized-logout clears the session and goes to /login', async () => {
    seedSession();
    const { router } = renderApp('/tokens', probeRoutes);
    act(() => {
      window.dispatchEvent(new Event('unauthorized-logout'));
    });
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/login'));
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous');
    expect(localStorage.getItem('authToken')).toBeNull();
    // replaced, not pushed: Back does not return to the page that was refused
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('logout revokes the refresh token, clears everything and goes to /, even if the call fails', async () => {
    seedSession({ token: 'access-9', refreshToken: 'refresh-9' });
    const { calls } = mockFetch(() => jsonResponse(500, {}));
    renderApp('/dashboard', probeRoutes);
    await userEvent.click(screen.getByRole('button', { name: 'logout' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent(/^\/$/));
    expect(calls[0]).toMatchObject({ url: '/payg/logout', method: 'POST', body: JSON.stringify({ refresh_token: 'refresh-9' }) });
    expect(calls[0]!.headers.authorization).toBe('Bearer access-9');
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
