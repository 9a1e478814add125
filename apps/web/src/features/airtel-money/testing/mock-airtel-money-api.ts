import { airtelMoneyCountryOf, type AirtelMoneySettings, type AirtelMoneyTestReply } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

/** Airtel Money as GET answers it once set up: Uganda on Airtel's production system, its secret masked, ready. */
export function buildAirtelMoneySettings(overrides: Partial<AirtelMoneySettings> = {}): AirtelMoneySettings {
  return {
    configured: true,
    is_active: true,
    country: 'UG',
    currency: 'UGX',
    environment: 'production',
    client_id: 'kidogo-ug-4f2a9c',
    client_secret: 'c2Vj••••dHM1',
    callback_url: 'https://kidogo.example.com/payg/external/airtel-money/callback',
    ready: true,
    problem: null,
    updated_at: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

/** Nothing set up yet, as GET answers it for a new organization: Kenya, Airtel's staging system, no client id or secret. */
export const AIRTEL_MONEY_NOT_SET_UP = buildAirtelMoneySettings({
  configured: false,
  is_active: false,
  country: 'KE',
  currency: 'KES',
  environment: 'staging',
  client_id: null,
  client_secret: null,
  ready: false,
  problem: 'Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money',
  updated_at: null,
});

/**
 * /payg/settings/airtel-money in memory, for mockSettingsApi's handler: GET
 * answers the stored settings, PUT stores them (a secret sent is stored and
 * read back masked, one left out is kept; the market sets the money), POST
 * …/test answers `test`. Returns undefined for any other path.
 */
export function airtelMoneySettingsHandler(
  initial: AirtelMoneySettings = buildAirtelMoneySettings(),
  test: AirtelMoneyTestReply = { ok: true, message: 'Airtel accepted the client id and secret (production)' },
) {
  let stored = initial;
  const mask = (v: string) => `${v.slice(0, 4)}••••${v.slice(-4)}`;
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path === '/payg/settings/airtel-money' && call.method === 'GET') return jsonResponse(200, stored);
    if (path === '/payg/settings/airtel-money' && call.method === 'PUT') {
      const body = JSON.parse(call.body!) as Record<string, unknown>;
      const secret = typeof body.client_secret === 'string' && body.client_secret ? mask(body.client_secret) : stored.client_secret;
      const country = body.country as AirtelMoneySettings['country'];
      stored = {
        ...stored,
        configured: true,
        is_active: body.is_active as boolean,
        country,
        currency: airtelMoneyCountryOf(country)!.currency,
        environment: body.environment as AirtelMoneySettings['environment'],
        client_id: body.client_id as string,
        client_secret: secret,
        ready: body.is_active as boolean,
        problem: body.is_active ? null : 'Airtel Money is switched off: an owner or admin switches it on in Settings → Airtel Money',
        updated_at: '2026-11-26T08:00:00Z',
      };
      return jsonResponse(200, stored);
    }
    if (path === '/payg/settings/airtel-money/test' && call.method === 'POST') return jsonResponse(200, test);
    return undefined;
  };
}
