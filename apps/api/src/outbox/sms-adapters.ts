import { createHmac } from 'node:crypto';
import type { SmsRoute } from '../settings/sms-provider.service.js';

export interface OutgoingSms {
  organizationId: string;
  messageId: number;
  /** Canonical number (2547XXXXXXXX) as stored. */
  to: string;
  text: string;
}

export type SendResult = { ok: true; providerMessageId: string | null } | { ok: false; error: string };

const TIMEOUT_MS = 15_000;

/** +2547XXXXXXXX for providers that want E.164. */
export const e164 = (to: string) => (/^\d{8,15}$/.test(to) ? `+${to}` : to);

export const signBody = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

function describe(e: unknown): string {
  const err = e as Error & { cause?: { code?: string } };
  return err.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (err.cause?.code ?? err.message ?? String(e));
}

/**
 * Africa's Talking bulk SMS: POST {base}/version1/messaging, form-encoded
 * username, to, message, from; header apiKey. Sent when the first
 * recipient's status is Success.
 */
async function africasTalking(route: Extract<SmsRoute, { kind: 'africastalking' }>, sms: OutgoingSms): Promise<SendResult> {
  const form = new URLSearchParams({ username: route.username, to: e164(sms.to), message: sms.text });
  if (route.senderId) form.set('from', route.senderId);
  let res: Response;
  try {
    res = await fetch(`${route.baseUrl.replace(/\/+$/, '')}/version1/messaging`, {
      method: 'POST',
      headers: { apiKey: route.apiKey, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    return { ok: false, error: `Africa's Talking unreachable: ${describe(e)}` };
  }
  const body = await res.text().catch(() => '');
  if (!res.ok) return { ok: false, error: `Africa's Talking answered HTTP ${res.status}: ${body.slice(0, 200)}` };
  let json: { SMSMessageData?: { Message?: string; Recipients?: Array<{ status?: string; messageId?: string; statusCode?: number }> } };
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, error: `Africa's Talking answered something that is not JSON: ${body.slice(0, 200)}` };
  }
  const first = json.SMSMessageData?.Recipients?.[0];
  if (first?.status === 'Success') return { ok: true, providerMessageId: first.messageId ?? null };
  return { ok: false, error: `Africa's Talking did not send: ${first?.status ?? json.SMSMessageData?.Message ?? 'no recipient in the reply'}` };
}

/**
 * Generic webhook: POST JSON {to, message, message_id, organization_id} with
 * X-Kidogo-Signature = hex HMAC-SHA256 of the exact body with the shared
 * secret. Any 2xx is sent; a JSON reply's id or message_id is kept.
 */
async function webhook(route: Extract<SmsRoute, { kind: 'webhook' }>, sms: OutgoingSms): Promise<SendResult> {
  const body = JSON.stringify({ to: e164(sms.to), message: sms.text, message_id: sms.messageId, organization_id: sms.organizationId });
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (route.secret) headers['X-Kidogo-Signature'] = signBody(body, route.secret);
  let res: Response;
  try {
    res = await fetch(route.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { ok: false, error: `SMS webhook unreachable: ${describe(e)}` };
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) return { ok: false, error: `SMS webhook answered HTTP ${res.status}: ${text.slice(0, 200)}` };
  try {
    const json = JSON.parse(text) as { id?: unknown; message_id?: unknown };
    const id = json.id ?? json.message_id;
    return { ok: true, providerMessageId: id === undefined || id === null ? null : String(id).slice(0, 200) };
  } catch {
    return { ok: true, providerMessageId: null };
  }
}

export function sendSms(route: SmsRoute, sms: OutgoingSms): Promise<SendResult> {
  return route.kind === 'africastalking' ? africasTalking(route, sms) : webhook(route, sms);
}
