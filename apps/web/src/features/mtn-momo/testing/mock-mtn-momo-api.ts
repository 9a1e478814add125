import { mtnMomoTargetOf, type MtnMomoSettings, type MtnMomoTestReply } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

/** MTN MoMo as GET answers it once set up: Uganda, its keys masked, ready. */
export function buildMtnMomoSettings(overrides: Partial<MtnMomoSettings> = {}): MtnMomoSettings {
  return {
    configured: true,
    is_active: true,
    target_environment: 'mtnuganda',
    currency: 'UGX',
    api_user: '3f1c2b9e-7d4a-4c1e-9b8f-2a6d5e4c3b21',
    api_key: '9c0e••••41fa',
    subscription_key: 'a1b2••••e5f6',
    callback_base: 'https://kidogo.example.com/payg/external/mtn-momo',
    callback_host: 'kidogo.example.com',
    ready: true,
    problem: null,
    updated_at: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

/** Nothing set up yet, as GET answers it for a new organization: the sandbox, no keys. */
export const MTN_MOMO_NOT_SET_UP = buildMtnMomoSettings({
  configured: false,
  is_active: false,
  target_environment: 'sandbox',
  currency: 'EUR',
  api_user: null,
  api_key: null,
  subscription_key: null,
  ready: false,
  problem: 'MTN MoMo is not set up: enter your API user and keys',
  updated_at: null,
});

/**
 * /payg/settings/mtn-momo in memory, for mockSettingsApi's handler: GET
 * answers the stored settings, PUT stores them (a key sent is stored and read
 * back masked, one left out is kept; the market sets the money), POST …/test
 * answers `test`. Returns undefined for any other path.
 */
export function mtnMomoSettingsHandler(
  initial: MtnMomoSettings = buildMtnMomoSettings(),
  test: MtnMomoTestReply = { ok: true, message: 'MTN accepted the API user and keys (mtnuganda)' },
) {
  let stored = initial;
  const mask = (v: string) => `${v.slice(0, 4)}••••${v.slice(-4)}`;
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path === '/payg/settings/mtn-momo' && call.method === 'GET') return jsonResponse(200, stored);
    if (path === '/payg/settings/mtn-momo' && call.method === 'PUT') {
      const body = JSON.parse(call.body!) as Record<string, unknown>;
      const secret = (k: 'api_key' | 'subscription_key') => (typeof body[k] === 'string' && body[k] ? mask(body[k] as string) : stored[k]);
      const target = body.target_environment as MtnMomoSettings['target_environment'];
      stored = {
        ...stored,
        configured: true,
        is_active: body.is_active as boolean,
        target_environment: target,
        currency: mtnMomoTargetOf(target)!.currency,
        api_user: body.api_user as string,
        api_key: secret('api_key'),
        subscription_key: secret('subscription_key'),
        ready: body.is_active as boolean,
        problem: body.is_active ? null : 'MTN MoMo is switched off',
        updated_at: '2026-11-26T08:00:00Z',
      };
      return jsonResponse(200, stored);
    }
    if (path === '/payg/settings/mtn-momo/test' && call.method === 'POST') return jsonResponse(200, test);
    return undefined;
  };
}
