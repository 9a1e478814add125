import type { SessionUser } from '@kidogo/contracts';

/** Every localStorage key the app owns, in one place (spec §3: kept locally). */
export const STORAGE_KEYS = {
  authToken: 'authToken',
  user: 'user',
  refreshToken: 'refreshToken',
  theme: 'theme',
  sidebarExpanded: 'sidebarExpanded',
} as const;

export interface StoredSession {
  token: string;
  refreshToken: string | null;
  user: SessionUser | null;
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the session then lives in memory only.
  }
}

export function getAuthToken(): string | null {
  return read(STORAGE_KEYS.authToken) || null;
}

export function getRefreshToken(): string | null {
  return read(STORAGE_KEYS.refreshToken) || null;
}

export function clearStoredSession(): void {
  write(STORAGE_KEYS.authToken, null);
  write(STORAGE_KEYS.user, null);
  write(STORAGE_KEYS.refreshToken, null);
}

export function storeSession(session: { token: string; refreshToken?: string | null; user?: SessionUser | null }): void {
  write(STORAGE_KEYS.authToken, session.token);
  if (session.refreshToken !== undefined) write(STORAGE_KEYS.refreshToken, session.refreshToken);
  if (session.user !== undefined) write(STORAGE_KEYS.user, session.user ? JSON.stringify(session.user) : null);
}

/**
 * The stored session, or null when there is none. A stored user that is not a
 * JSON object is corrupt: the whole session is cleared rather than trusted.
 */
export function readStoredSession(): StoredSession | null {
  const token = getAuthToken();
  const rawUser = read(STORAGE_KEYS.user);
  let user: SessionUser | null = null;
  if (rawUser !== null) {
    try {
      const parsed: unknown = JSON.parse(rawUser);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      user = parsed as SessionUser;
    } catch {
      clearStoredSession();
      return null;
    }
  }
  if (!token) return null;
  return { token, refreshToken: getRefreshToken(), user };
}

/** Claims read from the access token's payload without verifying it (the server verifies). */
export function decodeTokenClaims(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(
      Array.from(atob(base64), (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join(''),
    );
    const claims: unknown = JSON.parse(json);
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** True when the token carries an `exp` claim that has passed (with a small margin for clock skew). */
export function isTokenExpired(token: string, nowMs = Date.now()): boolean {
  const exp = decodeTokenClaims(token)?.exp;
  return typeof exp === 'number' && exp * 1000 <= nowMs + 5_000;
}
