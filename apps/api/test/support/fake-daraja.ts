import type { IncomingMessage } from 'node:http';
import { FakeProvider, type Reply } from './fake-provider.js';

/** The Daraja app keys and Lipa na M-Pesa Online passkey the fake Safaricom accepts. */
export const DARAJA_KEYS = {
  consumer_key: 'ck_live_0123456789abcdefghij',
  consumer_secret: 'cs_0123456789abcdefghij',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
};

/** One STK push Safaricom received. */
export interface Push {
  auth: string | undefined;
  body: Record<string, unknown>;
}

/** What an STK push query is answered with: the customer's answer, or (null) still waiting for it. */
export type QueryAnswer = { ResultCode: string; ResultDesc: string } | null;

/** Safaricom's Daraja, as far as Kidogo calls it: the OAuth access token, the STK push and its query, on a real HTTP port. */
export class FakeDaraja extends FakeProvider {
  pushes: Push[] = [];
  tokensIssued = 0;
  /** What the next STK pushes are answered with (null: accepted). */
  refuse: { status: number; body: object } | null = null;
  /** The STK push queries received (their bodies). */
  queries: Record<string, unknown>[] = [];
  /** The answer to a query for each CheckoutRequestID; one not here is still waiting for the customer. */
  queryAnswers = new Map<string, QueryAnswer>();
  /** What the next queries are answered with instead (a refusal). */
  refuseQuery: { status: number; body: object } | null = null;

  /**
   * With `autoAnswer`, the customer answers each accepted push after `afterMs`, as Safaricom reports it: posted to
   * its CallBackURL, paid, except an amount of 13 shillings, which the customer cancels, and 14, which the customer
   * pays but whose result never comes: only a query tells (the browser tests, where nobody can post the result by hand).
   */
  constructor(private readonly autoAnswer: { afterMs: number } | null = null) {
    super();
  }


  /** The CheckoutRequestID the n-th push (from 1) was answered with. */
  static checkoutId(n: number): string {
    return `ws_CO_05122026101500${String(n).padStart(6, '0')}`;
  }

  protected async handle(req: IncomingMessage, raw: string, send: Reply) {
    if (req.method === 'GET' && req.url === '/oauth/v1/generate?grant_type=client_credentials') {
      const expected = `Basic ${Buffer.from(`${DARAJA_KEYS.consumer_key}:${DARAJA_KEYS.consumer_secret}`).toString('base64')}`;
      // Safaricom answers wrong keys with a 400 and no body.
      if (req.headers.authorization !== expected) return send(400, null);
      this.tokensIssued++;
      return send(200, { access_token: `at-${this.tokensIssued}`, expires_in: '3599' });
    }
    if (req.method === 'POST' && req.url === '/mpesa/stkpush/v1/processrequest') {
      if (!/^Bearer at-\d+$/.test(req.headers.authorization ?? '')) return send(401, { errorCode: '404.001.03', errorMessage: 'Invalid Access Token' });
      const body = JSON.parse(raw) as Record<string, unknown>;
      this.pushes.push({ auth: req.headers.authorization, body });
      if (this.refuse) return send(this.refuse.status, this.refuse.body);
      const n = this.pushes.length;
      if (this.autoAnswer) {
        const checkout = FakeDaraja.checkoutId(n);
        const lost = Number(body.Amount) === 14;
        setTimeout(() => {
          this.queryAnswers.set(checkout, FakeDaraja.answerOf(Number(body.Amount) === 13 ? 1032 : 0));
          if (!lost) void this.answer(body, checkout);
        }, this.autoAnswer.afterMs).unref();
      }
      return send(200, {
        MerchantRequestID: `29115-3462056-${n}`,
        CheckoutRequestID: FakeDaraja.checkoutId(n),
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
    }
    if (req.method === 'POST' && req.url === '/mpesa/stkpushquery/v1/query') {
      if (!/^Bearer at-\d+$/.test(req.headers.authorization ?? '')) return send(401, { errorCode: '404.001.03', errorMessage: 'Invalid Access Token' });
      const body = JSON.parse(raw) as Record<string, unknown>;
      this.queries.push(body);
      if (this.refuseQuery) return send(this.refuseQuery.status, this.refuseQuery.body);
      const password = Buffer.from(`${String(body.BusinessShortCode)}${DARAJA_KEYS.passkey}${String(body.Timestamp)}`).toString('base64');
      if (body.Password !== password) return send(400, { requestId: '1-1', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Password' });
      const checkout = String(body.CheckoutRequestID);
      const answer = this.queryAnswers.get(checkout);
      // Safaricom's answer while the customer still has the prompt: an error.
      if (!answer) return send(500, { requestId: '2-2', errorCode: '500.001.1001', errorMessage: 'The transaction is being processed' });
      return send(200, {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: '29115-3462056-1',
        CheckoutRequestID: checkout,
        ...answer,
      });
    }
    send(404, { errorMessage: 'Not found' });
  }

  /** A query's answer for an M-Pesa result code, in Safaricom's words (as text, as the query gives them). */
  static answerOf(code: number): NonNullable<QueryAnswer> {
    const words: Record<number, string> = {
      0: 'The service request is processed successfully.',
      1: 'The balance is insufficient for the transaction.',
      1032: 'Request cancelled by user',
      1037: 'DS timeout user cannot be reached',
    };
    return { ResultCode: String(code), ResultDesc: words[code] ?? 'Failed' };
  }

  /** The result of a push, posted where it asked (the customer paid, or cancelled 13 shillings). */
  private async answer(push: Record<string, unknown>, checkout: string): Promise<void> {
    const cancelled = Number(push.Amount) === 13;
    const stkCallback = {
      MerchantRequestID: '29115-3462056-1',
      CheckoutRequestID: checkout,
      ResultCode: cancelled ? 1032 : 0,
      ResultDesc: cancelled ? 'Request cancelled by user' : 'The service request is processed successfully.',
      ...(cancelled
        ? {}
        : {
            CallbackMetadata: {
              Item: [
                { Name: 'Amount', Value: Number(push.Amount) },
                { Name: 'MpesaReceiptNumber', Value: `TL${Date.now().toString(36).toUpperCase().slice(-8)}` },
                { Name: 'Balance' },
                { Name: 'TransactionDate', Value: Number(new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14)) },
                { Name: 'PhoneNumber', Value: Number(push.PhoneNumber) },
              ],
            },
          }),
    };
    await fetch(String(push.CallBackURL), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Body: { stkCallback } }) }).catch(
      () => undefined,
    );
  }
}
