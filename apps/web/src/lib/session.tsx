import type { AuthReply, ChallengeExpiredReply, LoginReply, SessionUser, TwoFactorChallenge } from '@kidogo/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import {
  ApiError,
  SESSION_REFRESHED_EVENT,
  TWO_FACTOR_REQUIRED_EVENT,
  UNAUTHORIZED_EVENT,
  postForm,
  readableText,
  refreshSession,
  request,
} from './api-client';
import {
  clearStoredSession,
  decodeTokenClaims,
  getAuthToken,
  getRefreshToken,
  isTokenExpired,
  readStoredSession,
  storeSession,
} from './storage';

/**
 * Whether the user runs the organization (owner, admin, or a super admin): the
 * team, integrations, reversals, texts to whole bands. The API enforces the same.
 */
export const managesOrganization = (user: Pick<SessionUser, 'role'> | null | undefined): boolean =>
  user?.role === 'owner' || user?.role === 'admin' || user?.role === 'super_admin';

export const LOGIN_FAILED_MESSAGE = 'Login failed. Please check your credentials.';
export const INVALID_RESPONSE_MESSAGE = 'Invalid response from server';
export const CHALLENGE_EXPIRED_MESSAGE = 'This sign-in has expired: enter your password again';

/**
 * The second step of a sign-in can no longer be completed (the challenge
 * expired, or the server does not know it): the password is asked again.
 */
export class ChallengeExpiredError extends Error {
  override readonly name = 'ChallengeExpiredError';
}

type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

interface SessionState {
  status: SessionStatus;
  token: string | null;
  user: SessionUser | null;
}

export interface Session extends SessionState {
  isAuthenticated: boolean;
  isLoading: boolean;
  /** The user's organization, else the org_id claim of the token. */
  organizationId: string | null;
  /**
   * Signs in with a password. Resolves null once signed in, or with the
   * challenge when the user has two-factor sign-in on: then `verifyTwoFactor`.
   */
  login: (username: string, password: string) => Promise<TwoFactorChallenge | null>;
  /** The second step: the challenge and a code from the authenticator app, or a recovery code. Throws ChallengeExpiredError when the password must be asked again. */
  verifyTwoFactor: (challengeToken: string, code: string) => Promise<void>;
  logout: () => Promise<void>;
  /**
   * Ends the session in this browser alone and shows the login page: for when
   * the server has already ended it (Sign Out Everywhere), so there is nothing
   * left to revoke and /logout would only be refused.
   */
  endLocalSession: () => void;
  /**
   * The organization requires two-factor sign-in and this user has not set it
   * up: the server refuses everything but setting it up, so the app shows
   * only that (from the sign-in reply, GET /me, or any call's 403 TWO_FACTOR_REQUIRED).
   */
  twoFactorSetupRequired: boolean;
  /** Reads the signed-in user again (GET /me) and keeps it, stored too; resolves with it. */
  reloadUser: () => Promise<SessionUser>;
}

const ANONYMOUS: SessionState = { status: 'anonymous', token: null, user: null };

const SessionContext = createContext<Session | null>(null);

/** Restores the stored session; an expired access token waits for one refresh before the app decides. */
function initialState(): SessionState {
  const stored = readStoredSession();
  if (!stored) return ANONYMOUS;
  if (isTokenExpired(stored.token)) {
    if (stored.refreshToken) return { status: 'loading', token: stored.token, user: stored.user };
    clearStoredSession();
    return ANONYMOUS;
  }
  return { status: 'authenticated', token: stored.token, user: stored.user };
}

/** Login failure text: the server's detail or message, else the generic sentence. */
function loginErrorText(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const body = error.body as { detail?: unknown; message?: unknown };
    return readableText(body.detail) ?? readableText(body.message) ?? LOGIN_FAILED_MESSAGE;
  }
  return LOGIN_FAILED_MESSAGE;
}

const isChallenge = (reply: unknown): reply is TwoFactorChallenge =>
  typeof reply === 'object' &&
  reply !== null &&
  (reply as { two_factor_required?: unknown }).two_factor_required === true &&
  typeof (reply as { challenge_token?: unknown }).challenge_token === 'string';

/**
 * A 401 of the second step is either a wrong code (try another) or a
 * challenge the server no longer takes (expired, unknown), which only the
 * password can replace: that one says code TWO_FACTOR_CHALLENGE_EXPIRED.
 */
const TWO_FACTOR_CHALLENGE_EXPIRED: ChallengeExpiredReply['code'] = 'TWO_FACTOR_CHALLENGE_EXPIRED';
function isExpiredChallenge(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    (error.body as { code?: unknown } | null)?.code === TWO_FACTOR_CHALLENGE_EXPIRED
  );
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(initialState);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const endLocally = useCallback(() => {
    clearStoredSession();
    queryClient.clear();
    setState(ANONYMOUS);
  }, [queryClient]);

  useEffect(() => {
    if (state.status !== 'loading') return;
    let live = true;
    void refreshSession().then((ok) => {
      if (!live) return;
      const stored = ok ? readStoredSession() : null;
      if (stored) setState({ status: 'authenticated', token: stored.token, user: stored.user });
      else endLocally();
    });
    return () => {
      live = false;
    };
  }, [state.status, endLocally]);

  useEffect(() => {
    const onUnauthorized = () => {
      endLocally();
      const { pathname, search, hash } = window.location;
      if (pathname !== paths.login.path) {
        navigate(paths.login.path, { replace: true, state: { from: { pathname, search, hash } } });
      }
    };
    const onRefreshed = (event: Event) => {
      const reply = (event as CustomEvent<Partial<AuthReply>>).detail;
      setState((s) =>
        s.status === 'anonymous'
          ? s
          : { status: 'authenticated', token: reply.access_token ?? s.token, user: reply.user ?? s.user },
      );
    };
    // The server says so before /me does (a session from before the organization required it): the
    // set-up screen takes over at once, and reads /me itself.
    const onTwoFactorRequired = () => {
      const stored = readStoredSession();
      if (!stored?.user || stored.user.two_factor_setup_required) return;
      const user = { ...stored.user, two_factor_setup_required: true };
      storeSession({ token: stored.token, user });
      setState((s) => (s.status === 'authenticated' && s.token === stored.token ? { ...s, user } : s));
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    window.addEventListener(SESSION_REFRESHED_EVENT, onRefreshed);
    window.addEventListener(TWO_FACTOR_REQUIRED_EVENT, onTwoFactorRequired);
    return () => {
      window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
      window.removeEventListener(SESSION_REFRESHED_EVENT, onRefreshed);
      window.removeEventListener(TWO_FACTOR_REQUIRED_EVENT, onTwoFactorRequired);
    };
  }, [endLocally, navigate]);

  /** Stores a session the server handed out and lets the app in, as every sign-in ends. */
  const begin = useCallback(
    (reply: Partial<AuthReply> | null) => {
      if (!reply || typeof reply !== 'object' || typeof reply.access_token !== 'string' || !reply.access_token) {
        throw new Error(INVALID_RESPONSE_MESSAGE);
      }
      const user = reply.user ?? null;
      storeSession({ token: reply.access_token, refreshToken: reply.refresh_token ?? null, user });
      // A different user may sign in on this browser: nothing cached may carry over.
      queryClient.clear();
      setState({ status: 'authenticated', token: reply.access_token, user });
    },
    [queryClient],
  );

  const login = useCallback(
    async (username: string, password: string) => {
      let reply: Partial<LoginReply> | null;
      try {
        reply = await postForm<Partial<LoginReply> | null>('/authenticate', { username: username.trim(), password });
      } catch (error) {
        throw new Error(loginErrorText(error), { cause: error });
      }
      if (isChallenge(reply)) return reply;
      begin(reply as Partial<AuthReply> | null);
      return null;
    },
    [begin],
  );

  const verifyTwoFactor = useCallback(
    async (challengeToken: string, code: string) => {
      let reply: Partial<AuthReply> | null;
      try {
        reply = await request<Partial<AuthReply> | null>('/authenticate/2fa', {
          method: 'POST',
          body: { challenge_token: challengeToken, code: code.trim() },
          auth: false,
        });
      } catch (error) {
        const text = loginErrorText(error);
        if (isExpiredChallenge(error)) throw new ChallengeExpiredError(text, { cause: error });
        throw new Error(text, { cause: error });
      }
      begin(reply);
    },
    [begin],
  );

  const logout = useCallback(async () => {
    const token = getAuthToken();
    const refreshToken = getRefreshToken();
    // Revoke server-side without making the user wait; a failure changes nothing here.
    void request('/logout', {
      method: 'POST',
      body: { refresh_token: refreshToken },
      auth: false,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    }).catch(() => undefined);
    clearStoredSession();
    // Commit the trip home before the session flips, so the protected routes
    // see a navigation under way instead of a visitor to send to /login; and
    // before the cache is cleared, so that no query of the pages left behind
    // is still watched and refetched without a session (a 401 on the way out).
    void navigate(paths.home.path, { flushSync: true });
    queryClient.clear();
    setState(ANONYMOUS);
  }, [navigate, queryClient]);

  const endLocalSession = useCallback(() => {
    endLocally();
    void navigate(paths.login.path, { replace: true });
  }, [endLocally, navigate]);

  const reloadUser = useCallback(async () => {
    const user = await request<SessionUser>('/me');
    const stored = readStoredSession();
    // Signed out (or in as someone else) meanwhile: this reply is not the session's any more.
    if (!stored || (stored.user && stored.user.user_id !== user.user_id)) return user;
    const wasGated = stored.user?.two_factor_setup_required === true;
    storeSession({ token: stored.token, user });
    setState((s) => (s.status === 'authenticated' && s.token === stored.token ? { ...s, user } : s));
    // Out of the set-up screen: what failed behind it with 403 TWO_FACTOR_REQUIRED reads again.
    if (wasGated && !user.two_factor_setup_required) void queryClient.invalidateQueries();
    return user;
  }, [queryClient]);

  const value = useMemo<Session>(() => {
    const claims = state.token ? decodeTokenClaims(state.token) : null;
    const claimOrg = typeof claims?.org_id === 'string' ? claims.org_id : null;
    return {
      ...state,
      isAuthenticated: state.status === 'authenticated',
      isLoading: state.status === 'loading',
      organizationId: state.user?.organization_id ?? claimOrg,
      login,
      verifyTwoFactor,
      logout,
      endLocalSession,
      twoFactorSetupRequired: state.status === 'authenticated' && state.user?.two_factor_setup_required === true,
      reloadUser,
    };
  }, [state, login, verifyTwoFactor, logout, endLocalSession, reloadUser]);

  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
