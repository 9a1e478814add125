import type { IncomingMessage } from 'node:http';
import { FakeProvider, type Reply } from './fake-provider.js';

/** The Airtel app's client id and secret the fake Airtel accepts. */
export const AIRTEL_KEYS = { client_id: 'kidogo-test-app-7f3a', client_secret: 'c2VjcmV0LWZvci1haXJ0ZWwtdGVzdHM' };

/** One USSD push Airtel received: its market headers and body. */
export interface AirtelPush {
  id: string;
  country: string;
  currency: string;
  body: { reference: string; subscriber: { country: string; currency: string; msisdn: string }; transaction: { amount: number; country: string; currency: string; id: string } };
}

/** What the Transaction Enquiry answers for a push; one not set is TIP (in progress). */
export type AirtelAnswer = { status: string; airtel_money_id: string | null; message: string; response_code: string };

/**
 * Airtel Africa's Open API, Collections, as far as Kidogo calls it: the access token, the USSD push and the
 * Transaction Enquiry, on a real HTTP port. With `autoAnswer`, the customer answers each push after `afterMs`, and
 * Airtel posts the end of the transaction to `callbackUrl` (the app's callback URL, set in Airtel's portal): paid,
 * except an amount of 13, which the customer refuses, and 14, which is paid but whose callback never comes: only an
 * enquiry tells (the browser tests).
 */
export class FakeAirtel extends FakeProvider {
  pushes: AirtelPush[] = [];
  tokensIssued = 0;
  /** What the next pushes are answered with (null: accepted). */
  refuse: { status: number; body: object } | null = null;
  /** The app's callback URL, where autoAnswer posts each push's end. */
  callbackUrl: string | null = null;
  /** The end of each push, by Kidogo's transaction id. */
  answers = new Map<string, AirtelAnswer>();
  private transactions = 0;

  constructor(private readonly autoAnswer: { afterMs: number } | null = null) {
    super();
  }


  /** Airtel's end of a push: paid (with a new Airtel Money id), or failed with `code` (DP00800001007, ...). */
  answerOf(code: string | null = null): AirtelAnswer {
    if (code) return { status: code === 'DP00800001029' ? 'TE' : 'TF', airtel_money_id: null, message: 'Transaction failed', response_code: code };
    this.transactions++;
    return { status: 'TS', airtel_money_id: `MP261206.1015.A${String(this.transactions).padStart(5, '0')}`, message: 'Transaction successful', response_code: 'DP00800001001' };
  }

  /** What Airtel posts to the callback URL for a push's end. */
  callbackOf(id: string, a: AirtelAnswer) {
    return { transaction: { id, message: a.message, status_code: a.status === 'TS' ? 'TS' : 'TF', airtel_money_id: a.airtel_money_id } };
  }

  protected async handle(req: IncomingMessage, raw: string, send: Reply) {
    const json = () => JSON.parse(raw || '{}') as Record<string, unknown>;
    if (req.method === 'POST' && req.url === '/auth/oauth2/token') {
      const b = json();
      if (b.grant_type !== 'client_credentials' || b.client_id !== AIRTEL_KEYS.client_id || b.client_secret !== AIRTEL_KEYS.client_secret) {
        return send(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      }
      this.tokensIssued++;
      return send(200, { access_token: `airtel-at-${this.tokensIssued}`, expires_in: '180', token_type: 'bearer' });
    }
    if (!/^Bearer airtel-at-\d+$/.test(req.headers.authorization ?? '')) return send(401, { error: 'invalid_token', error_description: 'Invalid access token' });
    const country = String(req.headers['x-country'] ?? '');
    const currency = String(req.headers['x-currency'] ?? '');
    if (req.method === 'POST' && req.url === '/merchant/v1/payments/') {
      const body = json() as unknown as AirtelPush['body'];
      const push: AirtelPush = { id: String(body.transaction?.id ?? ''), country, currency, body };
      this.pushes.push(push);
      if (this.refuse) return send(this.refuse.status, this.refuse.body);
      if (this.pushes.filter((p) => p.id === push.id).length > 1) {
        return send(200, { data: {}, status: { code: '400', message: 'Duplicate transaction id', response_code: 'DP00800001005', result_code: 'ESB000001', success: false } });
      }
      if (this.autoAnswer) {
        const amount = Number(body.transaction.amount);
        setTimeout(() => {
          const answer = this.answerOf(amount === 13 ? 'DP00800001008' : null);
          this.answers.set(push.id, answer);
          if (amount !== 14 && this.callbackUrl) void this.post(this.callbackUrl, this.callbackOf(push.id, answer));
        }, this.autoAnswer.afterMs).unref();
      }
      return send(200, {
        data: { transaction: { id: push.id, status: 'Success.' } },
        status: { code: '200', message: 'Success.', result_code: 'ESB000010', response_code: 'DP00800001006', success: true },
      });
    }
    const enquiry = /^\/standard\/v1\/payments\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && enquiry) {
      const id = decodeURIComponent(enquiry[1]!);
      if (!this.pushes.some((p) => p.id === id)) {
        return send(200, { data: {}, status: { code: '200', message: 'Transaction not found', response_code: 'DP00800001025', result_code: 'ESB000008', success: false } });
      }
      const a = this.answers.get(id) ?? { status: 'TIP', airtel_money_id: null, message: 'In process', response_code: 'DP00800001006' };
      return send(200, {
        data: { transaction: { airtel_money_id: a.airtel_money_id, id, message: a.message, status: a.status } },
        status: { code: '200', message: 'SUCCESS', response_code: a.response_code, result_code: 'ESB000010', success: true },
      });
    }
    send(404, { status: { code: '404', message: 'Not found', success: false } });
  }

  /** Airtel's callback, posted to the app's callback URL. */
  private async post(url: string, body: object): Promise<void> {
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(() => undefined);
  }
}
