import { Injectable } from '@nestjs/common';
import type { MpesaExpressTransactionType } from '@kidogo/contracts';

/** One organization's Daraja app and Lipa na M-Pesa Online till or paybill. */
export interface DarajaAccount {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  shortCode: string;
  passkey: string;
  transactionType: MpesaExpressTransactionType;
  /** Buy Goods: the till that receives the money (PartyB); a paybill receives it itself. */
  tillNumber: string | null;
}

export interface StkPushInput {
  /** 254XXXXXXXXX */
  phone: string;
  /** Whole shillings. */
  amount: number;
  accountReference: string;
  description: string;
  callbackUrl: string;
}

export interface StkPushAccepted {
  merchantRequestId: string | null;
  checkoutRequestId: string;
  customerMessage: string | null;
}

/** Safaricom refused, or did not answer: `message` says which, in words staff can act on. */
export class DarajaError extends Error {}

/** How long one call to Safaricom may take. */
const TIMEOUT_MS = 15_000;
/** An access token is reused until this long before Safaricom says it expires (3,599 s). */
const TOKEN_MARGIN_MS = 60_000;

/** Daraja's timestamp, YYYYMMDDHHmmss in Kenyan time (UTC+3, no daylight saving), as its password is made with. */
export function darajaTimestamp(at: Date): string {
  return new Date(at.getTime() + 3 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** The STK push password: base64 of the short code, the passkey and the timestamp. */
export function stkPassword(shortCode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortCode}${passkey}${timestamp}`).toString('base64');
}

/** Safaricom's own words from an error body ({errorMessage}, {ResponseDescription}, {error_description}), else the HTTP status. */
function refusal(status: number, body: unknown): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const said = [b.errorMessage, b.ResponseDescription, b.error_description, b.error].find((v) => typeof v === 'string' && v.trim());
  return said ? String(said).trim().slice(0, 300) : `HTTP ${status}`;
}

async function call(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (e) {
    const timedOut = (e as Error).name === 'TimeoutError';
    throw new DarajaError(timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : `could not reach ${new URL(url).host}`);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

/**
 * Safaricom's Daraja API: an OAuth access token from the app's consumer key
 * and secret, then the STK push. Access tokens are kept per app until a
 * minute before they expire: a cache only, so every API process keeps its own.
 */
@Injectable()
export class DarajaClient {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  async accessToken(a: Pick<DarajaAccount, 'baseUrl' | 'consumerKey' | 'consumerSecret'>, fresh = false): Promise<string> {
    const key = `${a.baseUrl}\n${a.consumerKey}\n${a.consumerSecret}`;
    const kept = this.tokens.get(key);
    if (!fresh && kept && kept.until > Date.now()) return kept.token;
    const basic = Buffer.from(`${a.consumerKey}:${a.consumerSecret}`).toString('base64');
    const { status, body } = await call(`${a.baseUrl}/oauth/v1/generate?grant_type=client_credentials`, {
      method: 'GET',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
    });
    const b = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (status !== 200 || typeof b.access_token !== 'string' || !b.access_token) {
      this.tokens.delete(key);
      throw new DarajaError(status === 400 || status === 401 ? 'the consumer key or secret is wrong' : refusal(status, body));
    }
    const seconds = Number(b.expires_in) > 0 ? Number(b.expires_in) : 3599;
    this.tokens.set(key, { token: b.access_token, until: Date.now() + seconds * 1000 - TOKEN_MARGIN_MS });
    return b.access_token;
  }

  async stkPush(a: DarajaAccount, p: StkPushInput, now = new Date()): Promise<StkPushAccepted> {
    const timestamp = darajaTimestamp(now);
    const body = {
      BusinessShortCode: a.shortCode,
      Password: stkPassword(a.shortCode, a.passkey, timestamp),
      Timestamp: timestamp,
      TransactionType: a.transactionType,
      Amount: p.amount,
      PartyA: p.phone,
      PartyB: a.transactionType === 'CustomerBuyGoodsOnline' && a.tillNumber ? a.tillNumber : a.shortCode,
      PhoneNumber: p.phone,
      CallBackURL: p.callbackUrl,
      AccountReference: p.accountReference,
      TransactionDesc: p.description,
    };
    const send = async (token: string) =>
      call(`${a.baseUrl}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
    let reply = await send(await this.accessToken(a));
    // A kept token Safaricom no longer takes (revoked, or the app's keys changed there): once more with a new one.
    if (reply.status === 401) reply = await send(await this.accessToken(a, true));
    const r = (reply.body ?? {}) as Record<string, unknown>;
    if (reply.status !== 200 || String(r.ResponseCode ?? '') !== '0' || typeof r.CheckoutRequestID !== 'string') {
      throw new DarajaError(refusal(reply.status, reply.body));
    }
    return {
      merchantRequestId: typeof r.MerchantRequestID === 'string' ? r.MerchantRequestID : null,
      checkoutRequestId: r.CheckoutRequestID,
      customerMessage: typeof r.CustomerMessage === 'string' ? r.CustomerMessage : null,
    };
  }
}
