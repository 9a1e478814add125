import type { Session } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

export const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
export const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

export function buildSession(overrides: Partial<Session> = {}): Session {
  return {
    session_id: 'sess-current',
    signed_in_at: '2026-11-20T08:00:00Z',
    last_active_at: '2026-11-25T09:30:00Z',
    expires_at: '2026-12-25T09:30:00Z',
    ip: '102.0.2.14',
    user_agent: CHROME_WINDOWS,
    current: true,
    ...overrides,
  };
}

/** This browser (Chrome on Windows), a phone and a laptop: the user's sessions, most recently active first. */
export const threeSessions = (): Session[] => [
  buildSession(),
  buildSession({ session_id: 'sess-phone', user_agent: SAFARI_IPHONE, ip: '41.90.64.7', current: false, last_active_at: '2026-11-24T18:05:00Z' }),
  buildSession({ session_id: 'sess-laptop', user_agent: FIREFOX_LINUX, ip: '2001:db8:85a3::8a2e:370:7334', current: false, last_active_at: '2026-11-02T07:45:00Z' }),
];

const sessionsText = (n: number) => (n === 1 ? '1 session' : `${n} sessions`);

/**
 * /auth/sessions in memory, as the API behaves: the list, one signed out
 * (404 when unknown), all others, or all. For mockSettingsApi's handler
 * (return undefined to fall through).
 */
export function sessionsApi(initial: Session[] = threeSessions()) {
  const state = { sessions: [...initial] };
  return {
    state,
    handler: (call: RecordedCall, path: string): Response | undefined => {
      if (!path.startsWith('/payg/auth/sessions')) return undefined;
      if (call.method === 'GET' && path === '/payg/auth/sessions') return jsonResponse(200, { data: state.sessions });
      if (call.method === 'POST' && path === '/payg/auth/sessions/sign-out-others') {
        const ended = state.sessions.filter((s) => !s.current).length;
        state.sessions = state.sessions.filter((s) => s.current);
        return jsonResponse(200, { message: `Signed out everywhere else (${sessionsText(ended)})`, sessions_ended: ended });
      }
      if (call.method === 'POST' && path === '/payg/auth/sessions/sign-out-everywhere') {
        const ended = state.sessions.length;
        state.sessions = [];
        return jsonResponse(200, { message: `Signed out everywhere (${sessionsText(ended)})`, sessions_ended: ended });
      }
      const one = /^\/payg\/auth\/sessions\/([^/]+)$/.exec(path);
      if (one && call.method === 'DELETE') {
        const id = decodeURIComponent(one[1]!);
        if (!state.sessions.some((s) => s.session_id === id)) return jsonResponse(404, { detail: 'Session not found', message: 'Session not found' });
        state.sessions = state.sessions.filter((s) => s.session_id !== id);
        return jsonResponse(200, { message: 'Signed out of that device', sessions_ended: 1 });
      }
      return undefined;
    },
  };
}
