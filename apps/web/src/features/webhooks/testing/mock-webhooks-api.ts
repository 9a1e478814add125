import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

export const SECRET = 'whsec_Xy7Qm2Lk9Pw4Rt6Vb8Nc1Zd3Hf5Jg0Ab';

export function buildEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 1,
    url: 'https://erp.example.com/kidogo/events',
    description: 'Accounting (ERPNext)',
    events: ['payment.applied', 'payment.held'],
    is_active: true,
    secret_hint: 'whsec_…9Abc',
    created_at: '2026-11-20T09:00:00Z',
    created_by: 'amina',
    pending: 0,
    failed_7d: 0,
    last_attempt: { at: '2026-11-25T10:42:00Z', ok: true, response_status: 200, error: null },
    ...overrides,
  };
}

export function buildDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 11,
    endpoint_id: 1,
    event_id: '6f1c1a52-6a0e-4c1e-9d7c-5a4f3e2d1c0b',
    event_type: 'payment.applied',
    status: 'delivered',
    attempts: 1,
    created_at: '2026-11-25T10:42:00Z',
    next_attempt_at: null,
    delivered_at: '2026-11-25T10:42:01Z',
    response_status: 200,
    response_body: '{"ok":true}',
    duration_ms: 84,
    error: null,
    payload: { id: '6f1c1a52-6a0e-4c1e-9d7c-5a4f3e2d1c0b', type: 'payment.applied', data: { payment_id: 5, amount: '150.00' } },
    ...overrides,
  };
}

/**
 * /payg/webhooks in memory, for mockSettingsApi's handler: the list, create
 * (with its secret), PATCH, DELETE, rotate, test (answered as `testReply`) and
 * each endpoint's deliveries. Returns undefined for any other path.
 */
export function webhooksHandler(initial: WebhookEndpoint[] = [], deliveries: WebhookDelivery[] = [], testReply: Partial<WebhookDelivery> = {}) {
  const endpoints = [...initial];
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path === '/payg/webhooks' && call.method === 'GET') {
      return jsonResponse(200, { data: endpoints, events: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENTS[type] })) });
    }
    if (path === '/payg/webhooks' && call.method === 'POST') {
      const body = JSON.parse(call.body!);
      const created = buildEndpoint({ id: 100 + endpoints.length, ...body, secret_hint: `whsec_…${SECRET.slice(-4)}`, last_attempt: null });
      endpoints.push(created);
      return jsonResponse(201, { ...created, secret: SECRET });
    }
    const m = /^\/payg\/webhooks\/(\d+)(\/.*)?$/.exec(path);
    if (!m) return undefined;
    const at = endpoints.findIndex((e) => e.id === Number(m[1]));
    if (at < 0) return jsonResponse(404, { message: 'Webhook endpoint not found' });
    const rest = m[2] ?? '';
    if (rest === '' && call.method === 'PATCH') {
      endpoints[at] = { ...endpoints[at]!, ...JSON.parse(call.body!) };
      return jsonResponse(200, endpoints[at]);
    }
    if (rest === '' && call.method === 'DELETE') {
      endpoints.splice(at, 1);
      return jsonResponse(200, { message: 'Webhook endpoint deleted' });
    }
    if (rest === '/rotate-secret') return jsonResponse(200, { ...endpoints[at], secret: `${SECRET}2` });
    if (rest === '/test') return jsonResponse(200, buildDelivery({ id: 99, event_type: 'webhook.test', ...testReply }));
    if (rest === '/deliveries') return jsonResponse(200, { data: deliveries.filter((d) => d.endpoint_id === endpoints[at]!.id), next_cursor: null });
    const again = /^\/deliveries\/(\d+)\/redeliver$/.exec(rest);
    if (again) return jsonResponse(200, buildDelivery({ id: Number(again[1]), attempts: 2 }));
    return undefined;
  };
}
