/**
 * The one module every backend call goes through. It adds the bearer token,
 * speaks JSON, turns error replies into readable messages, recovers from an
 * expired access token once through /refresh, ends the session on a lasting
 * 401, reports a disabled or suspended organization, and reports a user who
 * must set up the two-factor sign-in their organization requires.
 */
import type { AuthReply, ServiceBlockedReply, TwoFactorRequiredReply } from '@kidogo/contracts';
import { clearStoredSession, getAuthToken, getRefreshToken, storeSession } from './storage';

/** Same origin; the dev server and the API's static hosting both serve /payg. */
export const API_BASE = '/payg';

export const UNAUTHORIZED_EVENT = 'unauthorized-logout';
export const SERVICE_DISABLED_EVENT = 'organization-service-disabled';
/**
 * Fired after any successful organization-scoped reply: the server refuses
 * every such call while the organization is blocked, so one success means
 * access is back (e.g. the organization was reactivated).
 */
export const SERVICE_AVAILABLE_EVENT = 'organization-service-available';
/**
 * Fired on a 403 TWO_FACTOR_REQUIRED: the organization requires two-factor
 * sign-in and the signed-in user has not set it up, so the server refuses
 * everything but setting it up. The session shows the set-up screen.
 */
export const TWO_FACTOR_REQUIRED_EVENT = 'two-factor-required';
/** Fired after a silent token refresh, with the AuthReply as detail, so the session state follows. */
export const SESSION_REFRESHED_EVENT = 'session-refreshed';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized - Please login again';

export type ServiceBlockedCode = ServiceBlockedReply['detail']['error'];
export type ServiceBlockedDetail = ServiceBlockedReply['detail'];

export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  constructor(
    message: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The parsed error body (JSON when it was JSON, else the text, else null). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends ApiError {
  override readonly name = 'UnauthorizedError';
  constructor(body: unknown = null) {
    super(UNAUTHORIZED_MESSAGE, 401, body);
  }
}

/** 403 because the caller's organization is disabled or suspended. */
export class ServiceBlockedError extends ApiError {
  override readonly name = 'ServiceBlockedError';
  constructor(
    message: string,
    readonly code: ServiceBlockedCode,
    readonly detail: ServiceBlockedDetail,
    body: unknown,
  ) {
    super(message, 403, body);
  }
}

/** 403 because the organization requires two-factor sign-in and the user has not set it up yet. */
export class TwoFactorRequiredError extends ApiError {
  override readonly name = 'TwoFactorRequiredError';
  constructor(message: string, body: unknown) {
    super(message, 403, body);
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: QueryParams;
  /** Sent as JSON, unless it is already FormData, URLSearchParams, Blob or a string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Default true: send the bearer token and, on 401, refresh once then end the
   * session. false: no token, and a 401 is an ordinary error (sign-in, logout).
   */
  auth?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Makes a human sentence out of whatever a server put in `message` or `detail`; null when there is none. */
export function readableText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() ? value : null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    // e.g. [{loc, msg}] validation lists, or [{field, message}]
    const parts = value.map((item) => readableText(item)).filter((p): p is string => p !== null);
    return parts.length ? parts.join('; ') : null;
  }
  if (isRecord(value)) {
    const inner = readableText(value.message) ?? readableText(value.msg) ?? readableText(value.error);
    if (inner) return typeof value.field === 'string' ? `${value.field}: ${inner}` : inner;
    const json = JSON.stringify(value);
    return json === '{}' ? null : json;
  }
  return null;
}

/** The error text rule: `message`, else `detail`, else 'HTTP error! status: {code}'. */
export function errorText(body: unknown, status: number): string {
  if (isRecord(body)) {
    const text = readableText(body.message) ?? readableText(body.detail);
    if (text) return text;
  }
  return `HTTP error! status: ${status}`;
}

/** The message of anything thrown, for error boxes and toasts. */
export function errorMessage(error: unknown, fallback = 'Something went wrong'): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

export function apiUrl(path: string, query?: QueryParams): string {
  const url = API_BASE + (path.startsWith('/') ? path : `/${path}`);
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function serviceBlockedDetail(body: unknown): ServiceBlockedDetail | null {
  if (!isRecord(body) || !isRecord(body.detail)) return null;
  const code = body.detail.error;
  return code === 'SERVICE_DISABLED' || code === 'SERVICE_SUSPENDED' ? (body.detail as ServiceBlockedDetail) : null;
}

// A literal, not the contracts' constant: that import would bring zod into every page's first download.
const TWO_FACTOR_REQUIRED: TwoFactorRequiredReply['detail']['error'] = 'TWO_FACTOR_REQUIRED';

const isTwoFactorRequired = (body: unknown) => isRecord(body) && isRecord(body.detail) && body.detail.error === TWO_FACTOR_REQUIRED;

async function toApiError(res: Response): Promise<ApiError> {
  const body = await readBody(res);
  const message = errorText(body, res.status);
  if (res.status === 403 && isTwoFactorRequired(body)) {
    window.dispatchEvent(new Event(TWO_FACTOR_REQUIRED_EVENT));
    return new TwoFactorRequiredError(message, body);
  }
  const blocked = res.status === 403 ? serviceBlockedDetail(body) : null;
  if (blocked) {
    const detail: ServiceBlockedDetail & { message: string } = {
      error: blocked.error,
      message: blocked.message ?? message,
      reason: blocked.reason ?? null,
      disabled_at: blocked.disabled_at ?? null,
      suspended_at: blocked.suspended_at ?? null,
      support_message: blocked.support_message,
    };
    window.dispatchEvent(new CustomEvent(SERVICE_DISABLED_EVENT, { detail }));
    return new ServiceBlockedError(message, blocked.error, detail, body);
  }
  return new ApiError(message, res.status, body);
}

/**
 * Takes a new token pair the server handed out for the signed-in user (a
 * refresh, a password change): stored, then announced so the session state
 * follows without signing the user out.
 */
export function adoptSession(reply: Partial<AuthReply> & { access_token: string }): void {
  storeSession({
    token: reply.access_token,
    ...(reply.refresh_token ? { refreshToken: reply.refresh_token } : {}),
    ...(reply.user ? { user: reply.user } : {}),
  });
  window.dispatchEvent(new CustomEvent(SESSION_REFRESHED_EVENT, { detail: reply }));
}

let refreshing: Promise<boolean> | null = null;

/**
 * Trades the stored refresh token for a new token pair; true on success.
 * One refresh at a time: concurrent 401s wait on the same attempt.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = getRefreshToken();
    if (!refreshToken) return false;
    try {
      const res = await fetch(apiUrl('/refresh'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      if (!res.ok) return false;
      const reply = (await readBody(res)) as Partial<AuthReply> | null;
      if (!reply || typeof reply.access_token !== 'string' || !reply.access_token) return false;
      adoptSession({ ...reply, access_token: reply.access_token, refresh_token: reply.refresh_token ?? refreshToken });
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Ends the session everywhere: storage, then whoever listens (the session provider navigates). */
function expireSession(body: unknown): never {
  clearStoredSession();
  window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  throw new UnauthorizedError(body);
}

type Send = (authHeaders: Record<string, string>) => Promise<Response>;

/**
 * The server's calls that answer without looking at the organization (the
 * health probes): their success says nothing about a blocked organization.
 */
const ORGANIZATION_FREE_PATHS: ReadonlySet<string> = new Set(['/health', '/ready', '/live']);

/** Runs a send (fetch or XHR) with the token, the one-time refresh on 401, and error mapping. */
async function execute(send: Send, auth: boolean, organizationScoped = auth): Promise<Response> {
  const headersFor = (token: string | null): Record<string, string> =>
    auth && token ? { Authorization: `Bearer ${token}` } : {};
  const sentToken = auth ? getAuthToken() : null;
  let res = await send(headersFor(sentToken));
  if (res.status === 401 && auth) {
    // Another call may already have refreshed while this one was in flight, or a new session (a password change's)
    // may have been adopted while this one's refresh was refused.
    const renewedElsewhere = () => {
      const current = getAuthToken();
      return current !== null && current !== sentToken;
    };
    const canRetry = renewedElsewhere() || (await refreshSession()) || renewedElsewhere();
    if (canRetry) res = await send(headersFor(getAuthToken()));
    if (res.status === 401) expireSession(await readBody(res));
  }
  if (!res.ok) throw await toApiError(res);
  if (organizationScoped) window.dispatchEvent(new Event(SERVICE_AVAILABLE_EVENT));
  return res;
}

function encodeBody(body: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (body instanceof URLSearchParams) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    return body.toString();
  }
  if (typeof body === 'string' || body instanceof FormData || body instanceof Blob) {
    return body;
  }
  headers['Content-Type'] = 'application/json';
  return JSON.stringify(body);
}

async function fetchResponse(path: string, options: RequestOptions): Promise<Response> {
  const auth = options.auth ?? true;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const body = encodeBody(options.body, headers);
  const url = apiUrl(path, options.query);
  return execute(async (authHeaders) => {
    try {
      return await fetch(url, {
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: { ...headers, ...authHeaders },
        body,
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError('Unable to reach the server. Check your connection and try again.', 0);
    }
  }, auth, auth && !ORGANIZATION_FREE_PATHS.has(path.startsWith('/') ? path : `/${path}`));
}

/** A JSON call; resolves with the parsed reply (undefined for an empty one). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await fetchResponse(path, options);
  return (await readBody(res) ?? undefined) as T;
}

type Opts = Omit<RequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: Opts) => request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Opts) => request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Opts) => request<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Opts) => request<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Opts) => request<T>(path, { ...options, method: 'DELETE' }),
};

/** A form-encoded POST (the sign-in call). Unauthenticated unless told otherwise. */
export function postForm<T>(path: string, fields: Record<string, string>, options: Opts = {}): Promise<T> {
  return request<T>(path, { auth: false, ...options, method: 'POST', body: new URLSearchParams(fields) });
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100, or null when the browser cannot tell the total. */
  percent: number | null;
}

function xhrResponse(xhr: XMLHttpRequest): Response {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const nullBody = [101, 204, 205, 304].includes(xhr.status);
  return new Response(nullBody ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers });
}

/**
 * A multipart upload with progress, through XMLHttpRequest because fetch
 * cannot report upload progress. Same token, refresh and error rules as `request`.
 */
export async function upload<T>(
  path: string,
  form: FormData,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal; query?: QueryParams } = {},
): Promise<T> {
  const url = apiUrl(path, options.query);
  const res = await execute(
    (authHeaders) =>
      new Promise<Response>((resolve, reject) => {
        if (options.signal?.aborted) return reject(new DOMException('The upload was cancelled', 'AbortError'));
        const xhr = new XMLHttpRequest();
        xhr.open('POST', url);
        xhr.setRequestHeader('Accept', 'application/json');
        for (const [name, value] of Object.entries(authHeaders)) xhr.setRequestHeader(name, value);
        xhr.upload.onprogress = (e) =>
          options.onProgress?.({
            loaded: e.loaded,
            total: e.total,
            percent: e.lengthComputable && e.total > 0 ? Math.round((e.loaded / e.total) * 100) : null,
          });
        xhr.onload = () => resolve(xhrResponse(xhr));
        xhr.onerror = () => reject(new ApiError('Unable to reach the server. Check your connection and try again.', 0));
        xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
        options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(form);
      }),
    true,
  );
  return (await readBody(res) ?? undefined) as T;
}

/** The file name in a Content-Disposition header (RFC 5987 `filename*` first), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name || null;
}

/** Fetches a file: its bytes and the server's file name, else `fallbackName`. */
export async function download(
  path: string,
  fallbackName: string,
  options: Omit<RequestOptions, 'body' | 'method'> & { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<{ blob: Blob; filename: string }> {
  const res = await fetchResponse(path, { ...options, headers: { Accept: '*/*', ...options.headers } });
  const blob = await res.blob();
  return { blob, filename: filenameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName };
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

/** download + saveBlob; resolves with the name the file was saved under. */
export async function downloadFile(
  path: string,
  fallbackName: string,
  options?: Parameters<typeof download>[2],
): Promise<string> {
  const { blob, filename } = await download(path, fallbackName, options);
  saveBlob(blob, filename);
  return filename;
}

/** A list reply after the suspension rule: `suspended` is true when the organization is blocked. */
export type Suspendable<R> = R & { suspended: boolean };

/**
 * For list queries: a disabled or suspended organization is not an error
 * screen but an empty list with `suspended: true` (the toast comes from the
 * event). `empty` fills the reply's other fields in that case, e.g. pagination.
 */
export async function suspendableList<R extends { data: readonly unknown[] }>(
  request: Promise<R>,
  empty?: Omit<R, 'data'>,
): Promise<Suspendable<R>> {
  try {
    return { ...(await request), suspended: false };
  } catch (error) {
    if (error instanceof ServiceBlockedError) return { ...empty, data: [], suspended: true } as unknown as Suspendable<R>;
    throw error;
  }
}

/**
 * The per-field problems of a 400 reply (`errors: [{field, message}]`) as
 * field → message, so a form can show each next to its input. Nested fields
 * keep their dotted path ("config.url").
 */
export function apiFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !isRecord(error.body) || !Array.isArray(error.body.errors)) return {};
  const out: Record<string, string> = {};
  for (const e of error.body.errors) {
    if (isRecord(e) && typeof e.field === 'string' && e.field && typeof e.message === 'string' && !(e.field in out)) {
      out[e.field] = e.message;
    }
  }
  return out;
}
