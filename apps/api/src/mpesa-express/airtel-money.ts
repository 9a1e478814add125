import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { callProvider } from './provider-http.js';

/** One organization's Airtel app (the Collections product), in one market. */
export interface AirtelAccount {
  baseUrl: string;
  /** X-Country: KE, UG, TZ, ... */
  country: string;
  /** X-Currency: the market's money, which every request asks in. */
  currency: string;
  clientId: string;
  clientSecret: string;
}

export interface UssdPushInput {
  /** The transaction's id, Kidogo's: how Airtel names it in its callback and how it is asked about. */
  transactionId: string;
  /** The amount as Airtel takes it (a number in the market's money). */
  amount: number;
  /** The payer's number without its country code, as Airtel takes it: 772123456. */
  msisdn: string;
  /** Shown on the transaction: the device's serial number. */
  reference: string;
}

/** What Airtel says of a transaction: still waiting for the customer, paid, or not paid and why. */
export type AirtelStatus =
  | { state: 'pending' }
  | { state: 'successful'; airtelMoneyId: string | null }
  | { state: 'failed'; reason: string | null };

/** Airtel refused, or did not answer: `message` says which, in words staff can act on. */
export class AirtelError extends Error {}

/** An access token is reused until this long before Airtel says it expires. */
const TOKEN_MARGIN_MS = 30_000;

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/**
 * A transaction id for Airtel: "KDG" and 17 letters and digits (85 random bits), unique across installations in
 * practice, short and plain enough for every Airtel market's systems.
 */
export function airtelTransactionId(): string {
  let id = 'KDG';
  for (let i = 0; i < 17; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

const text = (v: unknown): string | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : null;
};
const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Airtel's own words from a reply: {status: {message, response_code}}, {error_description}, {error}, else the HTTP status. */
function refusal(status: number, body: unknown): string {
  const b = record(body);
  const st = record(b.status);
  const said = [st.message, b.error_description, b.message, b.error].map(text).find(Boolean) ?? null;
  const code = text(st.response_code) ?? text(st.result_code);
  if (code && said) return `${code}: ${said.slice(0, 300)}`;
  return code ?? said?.slice(0, 300) ?? `HTTP ${status}`;
}

/**
 * A transaction as Airtel's Transaction Enquiry reads it: data.transaction.status TS (paid), TF (failed), TE
 * (expired), TIP (in progress) or TA (ambiguous: Airtel has not settled it yet), with status.response_code saying
 * why (DP00800001007: not enough balance, ...). Null when the reply is not one.
 */
export function airtelStatusOf(body: unknown): AirtelStatus | null {
  const b = record(body);
  const tx = record(record(b.data).transaction);
  const code = text(record(b.status).response_code);
  const status = (text(tx.status) ?? '').toUpperCase();
  if (status === 'TIP' || status === 'TA') return { state: 'pending' };
  if (status === 'TS') return { state: 'successful', airtelMoneyId: text(tx.airtel_money_id) };
  if (status === 'TF' || status === 'TE') {
    const known = code && code !== 'DP00800001001' && code !== 'DP00800001006' ? code : null;
    return { state: 'failed', reason: known ?? (status === 'TE' ? 'TE' : (text(tx.message)?.slice(0, 500) ?? null)) };
  }
  // Not found: the push never reached the customer (or was made with another app).
  if (code === 'DP00800001025') return { state: 'failed', reason: code };
  return null;
}

const call = (url: string, init: RequestInit) => callProvider(url, init, (m) => new AirtelError(m));

/**
 * Airtel Africa's Open API, Collections: an access token from the app's client id and secret, then the USSD push
 * and the Transaction Enquiry. Access tokens are kept per app until shortly before they expire: a cache only, so
 * every API process keeps its own.
 */
@Injectable()
export class AirtelMoneyClient {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  async accessToken(a: Pick<AirtelAccount, 'baseUrl' | 'clientId' | 'clientSecret'>, fresh = false): Promise<string> {
    const key = `${a.baseUrl}\n${a.clientId}\n${a.clientSecret}`;
    const kept = this.tokens.get(key);
    if (!fresh && kept && kept.until > Date.now()) return kept.token;
    const { status, body } = await call(`${a.baseUrl}/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_id: a.clientId, client_secret: a.clientSecret, grant_type: 'client_credentials' }),
    });
    const b = record(body);
    if (status !== 200 || typeof b.access_token !== 'string' || !b.access_token) {
      this.tokens.delete(key);
      throw new AirtelError(status === 401 || status === 400 ? 'the client id or client secret is wrong' : refusal(status, body));
    }
    // Airtel gives expires_in as a number or as text ("180").
    const seconds = Number(b.expires_in) > 0 ? Number(b.expires_in) : 180;
    this.tokens.set(key, { token: b.access_token, until: Date.now() + Math.max(seconds * 1000 - TOKEN_MARGIN_MS, 5_000) });
    return b.access_token;
  }

  /** A call with the access token and the market's headers; a kept token Airtel no longer takes is replaced once. */
  private async send(a: AirtelAccount, path: string, init: { method: string; body?: string }) {
    const go = async (token: string) =>
      call(`${a.baseUrl}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-country': a.country,
          'x-currency': a.currency,
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        body: init.body,
      });
    const reply = await go(await this.accessToken(a));
    return reply.status === 401 ? go(await this.accessToken(a, true)) : reply;
  }

  /** Asks Airtel to prompt the payer; Airtel answers at once that it took the request, and tells the callback URL how it ended. */
  async ussdPush(a: AirtelAccount, p: UssdPushInput): Promise<void> {
    const reply = await this.send(a, '/merchant/v1/payments/', {
      method: 'POST',
      body: JSON.stringify({
        reference: p.reference,
        subscriber: { country: a.country, currency: a.currency, msisdn: p.msisdn },
        transaction: { amount: p.amount, country: a.country, currency: a.currency, id: p.transactionId },
      }),
    });
    const st = record(record(reply.body).status);
    // Airtel says yes with HTTP 200 and status.success true; a refusal may still come as HTTP 200, with success false.
    if (reply.status !== 200 || st.success === false || st.success === 'false') throw new AirtelError(refusal(reply.status, reply.body));
  }

  /** What became of a transaction (GET /standard/v1/payments/{id}). */
  async status(a: AirtelAccount, transactionId: string): Promise<AirtelStatus> {
    const reply = await this.send(a, `/standard/v1/payments/${encodeURIComponent(transactionId)}`, { method: 'GET' });
    if (reply.status === 404) return { state: 'failed', reason: 'DP00800001025' };
    const read = reply.status === 200 ? airtelStatusOf(reply.body) : null;
    if (!read) throw new AirtelError(refusal(reply.status, reply.body));
    return read;
  }
}
