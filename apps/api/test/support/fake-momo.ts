import type { IncomingMessage } from 'node:http';
import { FakeProvider, type Reply } from './fake-provider.js';

/** The API user, API key and Collections subscription key the fake MTN accepts. */
export const MOMO_KEYS = {
  api_user: '5b2ad9a4-7c1e-4e7a-9f43-0c6f2d1e8a11',
  api_key: 'f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6',
  subscription_key: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
};

/** One request to pay MTN received: its headers and body. */
export interface MomoRequest {
  referenceId: string;
  callbackUrl: string;
  target: string;
  body: Record<string, unknown>;
}

/** What a status read of a request answers; one not set is PENDING. */
export type MomoAnswer = Record<string, unknown>;

/**
 * MTN's MoMo Open API, Collections, as far as Kidogo calls it: the access token, Request to Pay and its status, on a
 * real HTTP port. With `autoAnswer`, the customer answers each request after `afterMs`, as MTN reports it (a PUT to
 * its X-Callback-Url): paid, except an amount of 13, which the customer declines, and 14, which is paid but whose
 * result never comes: only a status read tells (the browser tests).
 */
export class FakeMomo extends FakeProvider {
  requests: MomoRequest[] = [];
  tokensIssued = 0;
  /** What the next requests to pay are answered with (null: 202 Accepted). */
  refuse: { status: number; body: object } | null = null;
  /** The status of each request, by X-Reference-Id. */
  answers = new Map<string, MomoAnswer>();
  private transactions = 0;

  constructor(private readonly autoAnswer: { afterMs: number } | null = null) {
    super();
  }


  /** MTN's answer for a request: paid (with a new financial transaction id) or failed for `reason`. */
  answerOf(r: MomoRequest, reason: string | null = null): MomoAnswer {
    const b = r.body;
    const common = { amount: b.amount, currency: b.currency, externalId: b.externalId, payer: b.payer, payerMessage: b.payerMessage, payeeNote: b.payeeNote };
    if (reason) return { ...common, status: 'FAILED', reason };
    this.transactions++;
    return { ...common, financialTransactionId: String(76_662_021_700 + this.transactions), status: 'SUCCESSFUL' };
  }

  protected async handle(req: IncomingMessage, raw: string, send: Reply) {
    const subscribed = req.headers['ocp-apim-subscription-key'] === MOMO_KEYS.subscription_key;
    if (!subscribed) {
      return send(401, { statusCode: 401, message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.' });
    }
    if (req.method === 'POST' && req.url === '/collection/token/') {
      const expected = `Basic ${Buffer.from(`${MOMO_KEYS.api_user}:${MOMO_KEYS.api_key}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return send(401, { error: 'login_failed' });
      this.tokensIssued++;
      return send(200, { access_token: `momo-at-${this.tokensIssued}`, token_type: 'access_token', expires_in: 3600 });
    }
    if (!/^Bearer momo-at-\d+$/.test(req.headers.authorization ?? '')) return send(401, { code: 'UNAUTHORIZED', message: 'Invalid access token' });
    if (req.method === 'POST' && req.url === '/collection/v1_0/requesttopay') {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const r: MomoRequest = {
        referenceId: String(req.headers['x-reference-id'] ?? ''),
        callbackUrl: String(req.headers['x-callback-url'] ?? ''),
        target: String(req.headers['x-target-environment'] ?? ''),
        body,
      };
      this.requests.push(r);
      if (this.refuse) return send(this.refuse.status, this.refuse.body);
      if (!/^[0-9a-f-]{36}$/.test(r.referenceId)) return send(400, { code: 'INVALID_REFERENCE_ID', message: 'X-Reference-Id must be a UUID' });
      if (this.autoAnswer) {
        const amount = Number(body.amount);
        setTimeout(() => {
          const answer = this.answerOf(r, amount === 13 ? 'APPROVAL_REJECTED' : null);
          this.answers.set(r.referenceId, answer);
          if (amount !== 14) void this.post(r.callbackUrl, answer);
        }, this.autoAnswer.afterMs).unref();
      }
      return send(202, null);
    }
    const status = /^\/collection\/v1_0\/requesttopay\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    if (req.method === 'GET' && status) {
      const r = this.requests.find((q) => q.referenceId === status[1]);
      if (!r) return send(404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
      const b = r.body;
      return send(200, this.answers.get(r.referenceId) ?? { amount: b.amount, currency: b.currency, externalId: b.externalId, payer: b.payer, status: 'PENDING' });
    }
    send(404, { code: 'RESOURCE_NOT_FOUND', message: 'Not found' });
  }

  /** MTN's result, put to the request's callback URL. */
  private async post(url: string, body: MomoAnswer): Promise<void> {
    await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(() => undefined);
  }
}
