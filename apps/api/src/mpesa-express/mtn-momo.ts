import { Injectable } from '@nestjs/common';
import { callProvider } from './provider-http.js';

/** One organization's MTN MoMo Collections subscription, in one market. */
export interface MomoAccount {
  baseUrl: string;
  /** X-Target-Environment: mtnuganda, mtnrwanda, ..., or sandbox. */
  target: string;
  /** The market's money, which every request asks in. */
  currency: string;
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
}

export interface RequestToPayInput {
  /** The request's X-Reference-Id (a UUID): how it is asked about later. */
  referenceId: string;
  /** The amount as MTN takes it: "1500" or "10.50". */
  amount: string;
  /** The payer's MSISDN, digits with the country code: 256772123456. */
  phone: string;
  /** Kept with the payment by MTN and given back in its result: the device's serial number. */
  externalId: string;
  /** Shown to the customer with the prompt, and on their statement. */
  payerMessage: string;
  /** Kept on the organization's side of the transaction. */
  payeeNote: string;
  callbackUrl: string;
}

/** What MTN says of a request to pay: still waiting for the customer, paid, or not paid and why. */
export type MomoStatus =
  | { state: 'pending' }
  | { state: 'successful'; financialTransactionId: string | null; amount: string | null; currency: string | null; payer: string | null }
  | { state: 'failed'; reason: string | null };

/** MTN refused, or did not answer: `message` says which, in words staff can act on. */
export class MomoError extends Error {}

/** An access token is reused until this long before MTN says it expires (3,600 s). */
const TOKEN_MARGIN_MS = 60_000;

/** MTN's own words from an error body ({message}, {code}, {error}), else the HTTP status. */
function refusal(status: number, body: unknown): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const said = [b.message, b.error_description, b.error].find((v) => typeof v === 'string' && v.trim());
  const code = typeof b.code === 'string' && b.code.trim() ? b.code.trim() : null;
  const text = said ? String(said).trim().slice(0, 300) : null;
  if (code && text) return `${code}: ${text}`;
  return code ?? text ?? `HTTP ${status}`;
}

/** A reason as MTN gives it: a code ("APPROVAL_REJECTED"), or {code, message}. */
export function momoReason(v: unknown): string | null {
  if (typeof v === 'string') return v.trim().slice(0, 500) || null;
  if (v && typeof v === 'object') {
    const r = v as { code?: unknown; message?: unknown };
    const code = typeof r.code === 'string' ? r.code.trim() : '';
    return (code || (typeof r.message === 'string' ? r.message.trim() : '')).slice(0, 500) || null;
  }
  return null;
}

/** The text of a field MTN may send as a string or a number. */
export function momoText(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** A request to pay as MTN reads it back (GET requesttopay/{id}, and the result posted to the callback). */
export function momoStatusOf(body: Record<string, unknown>): MomoStatus | null {
  const status = String(body.status ?? '').trim().toUpperCase();
  if (status === 'PENDING' || status === 'ONGOING' || status === 'CREATED') return { state: 'pending' };
  if (status === 'SUCCESSFUL') {
    const payer = body.payer && typeof body.payer === 'object' ? momoText((body.payer as Record<string, unknown>).partyId) : null;
    return {
      state: 'successful',
      financialTransactionId: momoText(body.financialTransactionId),
      amount: momoText(body.amount),
      currency: momoText(body.currency),
      payer,
    };
  }
  if (status === 'FAILED' || status === 'REJECTED' || status === 'TIMEOUT') {
    return { state: 'failed', reason: momoReason(body.reason) ?? (status === 'FAILED' ? null : status) };
  }
  return null;
}

const call = (url: string, init: RequestInit) => callProvider(url, init, (m) => new MomoError(m));

/**
 * MTN's MoMo Open API, Collections: an access token from the API user and key (with the product's subscription
 * key), then Request to Pay and its status. Access tokens are kept per API user until a minute before they expire:
 * a cache only, so every API process keeps its own.
 */
@Injectable()
export class MomoClient {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  async accessToken(a: Pick<MomoAccount, 'baseUrl' | 'apiUser' | 'apiKey' | 'subscriptionKey'>, fresh = false): Promise<string> {
    const key = `${a.baseUrl}\n${a.apiUser}\n${a.apiKey}\n${a.subscriptionKey}`;
    const kept = this.tokens.get(key);
    if (!fresh && kept && kept.until > Date.now()) return kept.token;
    const basic = Buffer.from(`${a.apiUser}:${a.apiKey}`).toString('base64');
    const { status, body } = await call(`${a.baseUrl}/collection/token/`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'ocp-apim-subscription-key': a.subscriptionKey, accept: 'application/json' },
    });
    const b = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (status !== 200 || typeof b.access_token !== 'string' || !b.access_token) {
      this.tokens.delete(key);
      const said = refusal(status, body);
      // 401 is a wrong API user or key, or a subscription key MTN does not know (its message says which).
      throw new MomoError(status === 401 && /subscription key/i.test(said) ? 'the subscription key is wrong' : status === 401 ? 'the API user or API key is wrong' : said);
    }
    const seconds = Number(b.expires_in) > 0 ? Number(b.expires_in) : 3600;
    this.tokens.set(key, { token: b.access_token, until: Date.now() + seconds * 1000 - TOKEN_MARGIN_MS });
    return b.access_token;
  }

  /** A call with the access token; a kept token MTN no longer takes is replaced once. */
  private async send(a: MomoAccount, path: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
    const go = async (token: string) =>
      call(`${a.baseUrl}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-target-environment': a.target,
          'ocp-apim-subscription-key': a.subscriptionKey,
          accept: 'application/json',
          ...init.headers,
        },
        body: init.body,
      });
    const reply = await go(await this.accessToken(a));
    return reply.status === 401 ? go(await this.accessToken(a, true)) : reply;
  }

  /** Asks MTN to prompt the payer; MTN answers 202 Accepted and posts the result to callbackUrl. */
  async requestToPay(a: MomoAccount, p: RequestToPayInput): Promise<void> {
    const reply = await this.send(a, '/collection/v1_0/requesttopay', {
      method: 'POST',
      headers: { 'x-reference-id': p.referenceId, 'x-callback-url': p.callbackUrl, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: p.amount,
        currency: a.currency,
        externalId: p.externalId,
        payer: { partyIdType: 'MSISDN', partyId: p.phone },
        payerMessage: p.payerMessage,
        payeeNote: p.payeeNote,
      }),
    });
    if (reply.status !== 202 && reply.status !== 200) throw new MomoError(refusal(reply.status, reply.body));
  }

  /** What became of a request to pay (GET requesttopay/{referenceId}). */
  async status(a: MomoAccount, referenceId: string): Promise<MomoStatus> {
    const reply = await this.send(a, `/collection/v1_0/requesttopay/${encodeURIComponent(referenceId)}`, { method: 'GET' });
    if (reply.status === 404) return { state: 'failed', reason: 'RESOURCE_NOT_FOUND' };
    const read = reply.status === 200 && reply.body && typeof reply.body === 'object' ? momoStatusOf(reply.body as Record<string, unknown>) : null;
    if (!read) throw new MomoError(refusal(reply.status, reply.body));
    return read;
  }
}
