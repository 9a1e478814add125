import { Injectable } from '@nestjs/common';
import type { MpesaExpressTransactionType } from '@kidogo/contracts';
import { callProvider } from './provider-http.js';

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

/** Daraja's STK push query: still waiting for the customer, or their answer (M-Pesa's ResultCode and ResultDesc). */
export type StkQueryAnswer = { state: 'processing' } | { state: 'answered'; resultCode: number; resultDesc: string | null };

/** The error code of an STK push query for a push M-Pesa is still waiting on. */
const STK_QUERY_PROCESSING = '500.001.1001';

/** Safaricom refused, or did not answer: `message` says which, in words staff can act on. */
export class DarajaError extends Error {}

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

const call = (url: string, init: RequestInit) => callProvider(url, init, (m) => new DarajaError(m));

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

  /** A POST with the app's access token; a kept token Safaricom no longer takes (revoked, or the keys changed there) is replaced once. */
  private async post(a: DarajaAccount, path: string, body: object): Promise<{ status: number; body: unknown }> {
    const send = async (token: string) =>
      call(`${a.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
    const reply = await send(await this.accessToken(a));
    return reply.status === 401 ? send(await this.accessToken(a, true)) : reply;
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
    const reply = await this.post(a, '/mpesa/stkpush/v1/processrequest', body);
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

  /**
   * What became of a push (Daraja's STK push query), for a request whose result never came: the customer's answer,
   * or `processing` while M-Pesa still waits for it. The answer has no receipt: only the result posted to the
   * callback, the paybill's confirmation or the SMS carries it.
   */
  async stkQuery(a: DarajaAccount, checkoutRequestId: string, now = new Date()): Promise<StkQueryAnswer> {
    const timestamp = darajaTimestamp(now);
    const reply = await this.post(a, '/mpesa/stkpushquery/v1/query', {
      BusinessShortCode: a.shortCode,
      Password: stkPassword(a.shortCode, a.passkey, timestamp),
      Timestamp: timestamp,
      CheckoutRequestID: checkoutRequestId,
    });
    const r = (reply.body ?? {}) as Record<string, unknown>;
    // Safaricom answers a push the customer has not answered yet with an error: 500.001.1001, "The transaction is being processed".
    if (r.errorCode === STK_QUERY_PROCESSING || /being processed/i.test(String(r.errorMessage ?? ''))) return { state: 'processing' };
    // ResultCode comes as text ("1032") from the query, as a number in the callback.
    const code = /^\d{1,9}$/.test(String(r.ResultCode ?? '').trim()) ? Number(r.ResultCode) : NaN;
    if (reply.status !== 200 || String(r.ResponseCode ?? '') !== '0' || Number.isNaN(code)) {
      throw new DarajaError(refusal(reply.status, reply.body));
    }
    return { state: 'answered', resultCode: code, resultDesc: typeof r.ResultDesc === 'string' && r.ResultDesc.trim() ? r.ResultDesc.trim() : null };
  }
}
