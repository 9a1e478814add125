import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildAuthReply, buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import {
  api,
  ApiError,
  download,
  errorText,
  filenameFromDisposition,
  postForm,
  ServiceBlockedError,
  suspendableList,
  TwoFactorRequiredError,
  UnauthorizedError,
  upload,
} from './api-client';

function listen(name: string) {
  const events: Event[] = [];
  const handler = (e: Event) => events.push(e);
  window.addEventListener(name, handler);
  return { events, stop: () => window.removeEventListener(name, handler) };
}

describe('api client', () => {
  beforeEach(() => seedSession({ token: 'access-1', refreshToken: 'refresh-1' }));
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON to /payg with the bearer token and parses the reply', async () => {
    const { calls } = mockFetch(() => jsonResponse(200, { ok: true }));
    const reply = await api.post<{ ok: boolean }>('/items/add', { serial_number: 'SN1' }, { query: { a: 1, b: '', c: undefined } });
    expect(reply).toEqual({ ok: true });
    expect(calls[0]).toMatchObject({
      url: '/payg/items/add?a=1',
      method: 'POST',
      body: JSON.stringify({ serial_number: 'SN1' }),
    });
    expect(calls[0]!.headers).toMatchObject({ authorization: 'Bearer access-1', 'content-type': 'application/json' });
  });

  describe('error text rule', () => {
    it.each([
      [{ message: 'Customer not found', detail: 'ignored' }, 404, 'Customer not found'],
      [{ detail: 'Template name is required' }, 400, 'Template name is required'],
      [{ message: '', detail: 'falls through an empty message' }, 400, 'falls through an empty message'],
      [{ detail: { message: 'nested message' } }, 409, 'nested message'],
      [{ detail: [{ loc: ['body', 'x'], msg: 'field required' }, { msg: 'too short' }] }, 422, 'field required; too short'],
      [{ detail: { code: 42 } }, 400, '{"code":42}'],
      [{}, 500, 'HTTP error! status: 500'],
      ['<html>Bad gateway</html>', 502, 'HTTP error! status: 502'],
      [null, 503, 'HTTP error! status: 503'],
    ])('%j with %i → %s', (body, status, text) => {
      expect(errorText(body, status)).toBe(text);
    });

    it('throws an ApiError carrying that text, the status and the body', async () => {
      mockFetch(() => jsonResponse(400, { detail: 'Bad serial', message: 'Validation failed' }));
      const error = await api.get('/items').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ message: 'Validation failed', status: 400, body: { detail: 'Bad serial' } });
    });

    it('falls back to the status for an empty error body', async () => {
      mockFetch(() => new Response(null, { status: 500 }));
      await expect(api.get('/items')).rejects.toThrow('HTTP error! status: 500');
    });
  });

  describe('401', () => {
    it('refreshes once, stores the new tokens and retries the call', async () => {
      const refreshed = buildAuthReply({ access_token: 'access-2', refresh_token: 'refresh-2', user: buildUser({ username: 'neo' }) });
      const { calls } = mockFetch((call) => {
        if (call.url === '/payg/refresh') return jsonResponse(200, refreshed);
        return call.headers.authorization === 'Bearer access-2'
          ? jsonResponse(200, { data: [1] })
          : jsonResponse(401, { detail: 'Token expired' });
      });
      const refreshedEvents = listen('session-refreshed');

      await expect(api.get('/registered-customers')).resolves.toEqual({ data: [1] });

      expect(calls.map((c) => c.url)).toEqual(['/payg/registered-customers', '/payg/refresh', '/payg/registered-customers']);
      expect(JSON.parse(calls[1]!.body!)).toEqual({ refresh_token: 'refresh-1' });
      expect(localStorage.getItem('authToken')).toBe('access-2');
      expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
      expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ username: 'neo' });
      expect(refreshedEvents.events).toHaveLength(1);
      refreshedEvents.stop();
    });

    it('shares one refresh between calls that fail together', async () => {
      const { calls } = mockFetch((call) => {
        if (call.url === '/payg/refresh') return jsonResponse(200, buildAuthReply({ access_token: 'access-2' }));
        return call.headers.authorization === 'Bearer access-2' ? jsonResponse(200, {}) : jsonResponse(401, {});
      });
      await Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
      expect(calls.filter((c) => c.url === '/payg/refresh')).toHaveLength(1);
    });

    it('when the refresh fails: clears the session, broadcasts unauthorized-logout and throws', async () => {
      localStorage.setItem('theme', 'dark');
      const { calls } = mockFetch((call) =>
        call.url === '/payg/refresh' ? jsonResponse(401, { detail: 'Refresh token revoked' }) : jsonResponse(401, {}),
      );
      const logout = listen('unauthorized-logout');

      const error = await api.get('/tokens').catch((e: unknown) => e);

      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).toBe('Unauthorized - Please login again');
      expect(localStorage.getItem('authToken')).toBeNull();
      expect(localStorage.getItem('user')).toBeNull();
      expect(localStorage.getItem('refreshToken')).toBeNull();
      expect(localStorage.getItem('theme')).toBe('dark');
      expect(logout.events).toHaveLength(1);
      expect(calls).toHaveLength(2);
      logout.stop();
    });

    it('keeps a session adopted while its refresh was refused (a password change answered meanwhile) and retries with it', async () => {
      const { calls } = mockFetch((call) => {
        if (call.url === '/payg/refresh') {
          // The password change's reply lands while this refresh, with the revoked refresh token, is on its way.
          seedSession({ token: 'access-new', refreshToken: 'refresh-new' });
          return jsonResponse(401, { detail: 'Invalid or expired refresh token' });
        }
        return call.headers.authorization === 'Bearer access-new' ? jsonResponse(200, { ok: true }) : jsonResponse(401, {});
      });
      const logout = listen('unauthorized-logout');
      await expect(api.get('/tokens')).resolves.toEqual({ ok: true });
      expect(calls.map((c) => [c.url, c.headers.authorization])).toEqual([
        ['/payg/tokens', 'Bearer access-1'],
        ['/payg/refresh', undefined],
        ['/payg/tokens', 'Bearer access-new'],
      ]);
      expect(localStorage.getItem('authToken')).toBe('access-new');
      expect(logout.events).toHaveLength(0);
      logout.stop();
    });

    it('when the retried call is refused again: ends the session without a second refresh', async () => {
      const { calls } = mockFetch((call) =>
        call.url === '/payg/refresh' ? jsonResponse(200, buildAuthReply({ access_token: 'access-2' })) : jsonResponse(401, {}),
      );
      const logout = listen('unauthorized-logout');
      await expect(api.get('/tokens')).rejects.toBeInstanceOf(UnauthorizedError);
      expect(calls.map((c) => c.url)).toEqual(['/payg/tokens', '/payg/refresh', '/payg/tokens']);
      expect(localStorage.getItem('authToken')).toBeNull();
      expect(logout.events).toHaveLength(1);
      logout.stop();
    });

    it('without a refresh token: ends the session at once', async () => {
      localStorage.removeItem('refreshToken');
      const { calls } = mockFetch(() => jsonResponse(401, {}));
      await expect(api.get('/tokens')).rejects.toThrow('Unauthorized - Please login again');
      expect(calls).toHaveLength(1);
      expect(localStorage.getItem('authToken')).toBeNull();
    });

    it('an unauthenticated call (sign-in) reports its 401 like any error', async () => {
      const logout = listen('unauthorized-logout');
      const { calls } = mockFetch(() => jsonResponse(401, { detail: 'Invalid username or password' }));
      const error = await postForm('/authenticate', { username: 'a', password: 'b' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(UnauthorizedError);
      expect((error as ApiError).message).toBe('Invalid username or password');
      expect(calls[0]!.headers.authorization).toBeUndefined();
      expect(calls[0]!.headers['content-type']).toContain('application/x-www-form-urlencoded');
      expect(calls[0]!.body).toBe('username=a&password=b');
      expect(localStorage.getItem('authToken')).toBe('access-1');
      expect(logout.events).toHaveLength(0);
      logout.stop();
    });
  });

  describe('403 SERVICE_*', () => {
    const blocked = (error: 'SERVICE_DISABLED' | 'SERVICE_SUSPENDED') => ({
      detail: {
        error,
        message: 'Service suspended for this organization',
        reason: 'Unpaid invoice',
        suspended_at: '2026-11-01T10:00:00Z',
        support_message: 'Contact support@kidogo.local',
      },
      message: 'Service suspended for this organization',
    });

    it('broadcasts organization-service-disabled and throws ServiceBlockedError', async () => {
      mockFetch(() => jsonResponse(403, blocked('SERVICE_SUSPENDED')));
      const events = listen('organization-service-disabled');

      const error = await api.get('/registered-customers').catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ServiceBlockedError);
      expect(error).toMatchObject({ status: 403, code: 'SERVICE_SUSPENDED', message: 'Service suspended for this organization' });
      expect(events.events).toHaveLength(1);
      expect((events.events[0] as CustomEvent).detail).toEqual({
        error: 'SERVICE_SUSPENDED',
        message: 'Service suspended for this organization',
        reason: 'Unpaid invoice',
        disabled_at: null,
        suspended_at: '2026-11-01T10:00:00Z',
        support_message: 'Contact support@kidogo.local',
      });
      expect(localStorage.getItem('authToken')).toBe('access-1');
      events.stop();
    });

    it('an organization call that succeeds again announces access is back; the public health probe does not', async () => {
      mockFetch(() => jsonResponse(200, { status: 'healthy' }));
      const available = listen('organization-service-available');
      await api.get('/health');
      await postForm('/authenticate', { username: 'a', password: 'b' });
      expect(available.events).toHaveLength(0);
      await api.get('/registered-customers');
      expect(available.events).toHaveLength(1);
      available.stop();
    });

    it('list queries turn it into an empty list flagged suspended', async () => {
      mockFetch(() => jsonResponse(403, blocked('SERVICE_DISABLED')));
      const result = await suspendableList(api.get<{ data: string[]; pagination: { total: number } }>('/items'), {
        pagination: { total: 0 },
      });
      expect(result).toEqual({ data: [], pagination: { total: 0 }, suspended: true });
    });

    it('list queries pass other replies and errors through', async () => {
      mockFetch((call) => (call.url === '/payg/ok' ? jsonResponse(200, { data: ['x'] }) : jsonResponse(403, { detail: 'Forbidden' })));
      await expect(suspendableList(api.get<{ data: string[] }>('/ok'))).resolves.toEqual({ data: ['x'], suspended: false });
      const error = await suspendableList(api.get<{ data: string[] }>('/other')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(ServiceBlockedError);
      expect((error as Error).message).toBe('Forbidden');
    });
  });

  describe('403 TWO_FACTOR_REQUIRED', () => {
    const MESSAGE = 'Your organization requires two-factor sign-in: set it up in Settings → Two-Factor Sign-In';

    it('broadcasts two-factor-required and throws TwoFactorRequiredError, keeping the session', async () => {
      mockFetch(() => jsonResponse(403, { detail: { error: 'TWO_FACTOR_REQUIRED', message: MESSAGE }, message: MESSAGE }));
      const required = listen('two-factor-required');
      const blocked = listen('organization-service-disabled');
      const error = await api.get('/registered-customers').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TwoFactorRequiredError);
      expect(error).not.toBeInstanceOf(ServiceBlockedError);
      expect(error).toMatchObject({ status: 403, message: MESSAGE });
      expect(required.events).toHaveLength(1);
      expect(blocked.events).toHaveLength(0);
      expect(localStorage.getItem('authToken')).toBe('access-1');
      required.stop();
      blocked.stop();
    });

    it('another 403 is an ordinary error', async () => {
      mockFetch(() => jsonResponse(403, { detail: 'This action needs one of the roles: owner, admin', message: 'This action needs one of the roles: owner, admin' }));
      const required = listen('two-factor-required');
      const error = await api.get('/users').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(TwoFactorRequiredError);
      expect(required.events).toHaveLength(0);
      required.stop();
    });
  });

  describe('uploads', () => {
    /** Just enough XMLHttpRequest: answers each send with the next scripted reply, after one progress event. */
    function fakeXhr(replies: { status: number; body: unknown }[]) {
      const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
      class FakeXhr {
        status = 0;
        statusText = '';
        responseText = '';
        upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = {
          onprogress: null,
        };
        onload: (() => void) | null = null;
        onerror: (() => void) | null = null;
        onabort: (() => void) | null = null;
        private url = '';
        private headers: Record<string, string> = {};
        open(_method: string, url: string) {
          this.url = url;
        }
        setRequestHeader(name: string, value: string) {
          this.headers[name.toLowerCase()] = value;
        }
        getAllResponseHeaders() {
          return 'content-type: application/json\r\n';
        }
        abort() {
          this.onabort?.();
        }
        send(body: unknown) {
          sent.push({ url: this.url, headers: this.headers, body });
          const reply = replies.shift()!;
          queueMicrotask(() => {
            this.upload.onprogress?.({ loaded: 50, total: 200, lengthComputable: true });
            this.status = reply.status;
            this.responseText = JSON.stringify(reply.body);
            this.onload?.();
          });
        }
      }
      vi.stubGlobal('XMLHttpRequest', FakeXhr);
      return sent;
    }

    it('posts the form with the token and reports progress', async () => {
      const sent = fakeXhr([{ status: 200, body: { imported: 3 } }]);
      const form = new FormData();
      form.append('csv_file', new Blob(['a,b']), 'customers.csv');
      const progress: (number | null)[] = [];
      const reply = await upload<{ imported: number }>('/upload-csv', form, { onProgress: (p) => progress.push(p.percent) });
      expect(reply).toEqual({ imported: 3 });
      expect(progress).toEqual([25]);
      expect(sent[0]).toMatchObject({ url: '/payg/upload-csv', headers: { authorization: 'Bearer access-1' }, body: form });
    });

    it('follows the same 401 rule: refresh, then resend with the new token', async () => {
      const sent = fakeXhr([
        { status: 401, body: {} },
        { status: 200, body: { ok: true } },
      ]);
      mockFetch(() => jsonResponse(200, buildAuthReply({ access_token: 'access-2' })));
      await expect(upload('/items/add/bulk', new FormData())).resolves.toEqual({ ok: true });
      expect(sent.map((s) => s.headers.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    });

    it('maps an error reply like any other call', async () => {
      fakeXhr([{ status: 400, body: { message: 'csv_file is required' } }]);
      await expect(upload('/upload-csv', new FormData())).rejects.toThrow('csv_file is required');
    });

    it('does not start when already cancelled', async () => {
      const sent = fakeXhr([]);
      const controller = new AbortController();
      controller.abort();
      await expect(upload('/upload-csv', new FormData(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(sent).toHaveLength(0);
    });
  });

  describe('downloads', () => {
    it.each([
      ['attachment; filename="customers_export_2026-11-21.csv"', 'customers_export_2026-11-21.csv'],
      ['attachment; filename=report.pdf', 'report.pdf'],
      ["attachment; filename=\"fallback.csv\"; filename*=UTF-8''wateja%20wote.csv", 'wateja wote.csv'],
      ['inline', null],
      [null, null],
    ])('Content-Disposition %j → %j', (header, name) => {
      expect(filenameFromDisposition(header)).toBe(name);
    });

    it("uses the server's file name, else the fallback", async () => {
      mockFetch((call) =>
        call.url.startsWith('/payg/named')
          ? new Response('a,b', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="server.csv"' } })
          : new Response('a,b', { status: 200 }),
      );
      await expect(download('/named', 'customers.csv')).resolves.toMatchObject({ filename: 'server.csv' });
      const plain = await download('/export-customers-csv', 'customers.csv');
      expect(plain.filename).toBe('customers.csv');
      expect(await plain.blob.text()).toBe('a,b');
    });
  });
});
