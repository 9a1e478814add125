import type { UssdSession, UssdSettings, UssdTryInput, UssdTryReply } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

export const ADDRESS = 'https://kidogo.example.com/payg/external/ussd/u_7Hk2pQ9xLm4Rt8Vw';
export const NEW_ADDRESS = 'https://kidogo.example.com/payg/external/ussd/u_Zb3nYc6Df1Gh5Jk0';

/** The menu as GET answers it once on: turned on by amina, dialled at *384*123#, used this week. */
export function buildUssdSettings(overrides: Partial<UssdSettings> = {}): UssdSettings {
  return {
    enabled: true,
    callback_url: ADDRESS,
    enabled_at: '2026-11-20T09:00:00Z',
    enabled_by: 'amina',
    sessions_7d: 12,
    customers_7d: 9,
    last_session_at: '2026-11-25T10:00:00Z',
    service_code: '*384*123#',
    ...overrides,
  };
}

/** Never turned on, as GET answers it for a new organization. */
export const USSD_NEVER_ON = buildUssdSettings({
  enabled: false,
  callback_url: null,
  enabled_at: null,
  enabled_by: null,
  sessions_7d: 0,
  customers_7d: 0,
  last_session_at: null,
  service_code: null,
});

/** One dial of the menu: Amina Wanjiru's (customer 11), who read her balance. */
export function buildUssdSession(overrides: Partial<UssdSession> = {}): UssdSession {
  return {
    session_id: 'ATUid_9f2c1e',
    phone_number: '+254712345678',
    customer_id: 11,
    customer_name: 'Amina Wanjiru',
    service_code: '*384*123#',
    steps: 1,
    outcome: 'balance',
    detail: 'SHS-0001',
    started_at: '2026-11-25T10:00:00Z',
    updated_at: '2026-11-25T10:00:20Z',
    ...overrides,
  };
}

const MAIN = 'Hi Amina\n1. My balance\n2. My last code\n3. Pay now\n4. Report a problem';

/**
 * A small menu for Amina's phone, as POST …/try answers it: the main menu, her balance (1), her last code (2, texted
 * in earnest), Pay now with M-Pesa (3, 1, an amount), and "Invalid choice." for anything else.
 */
export function fakeMenu(input: UssdTryInput): UssdTryReply {
  const text = String(input.text ?? '');
  const answers = text ? text.split('*') : [];
  const con = (screen: string, outcome: UssdTryReply['outcome'] = 'menu'): UssdTryReply => ({ screen, end: false, outcome, would: null });
  const [first, second, third] = answers;
  if (first === undefined) return con(MAIN);
  if (first === '1') return { screen: 'SHS-0001: on until 28 Nov.\nKES 50.00 a day\nKES 10,500.00 left to pay', end: true, outcome: 'balance', would: null };
  if (first === '2') {
    return {
      screen: 'SHS-0001 last code: 123 456 789 (24 Nov, 3 days).\nWe sent it by SMS too.',
      end: true,
      outcome: 'code',
      would: 'Text the code to +254712345678',
    };
  }
  if (first === '3' && second === undefined) return con('Pay with:\n1. M-Pesa\n0. Back', 'pay');
  if (first === '3' && second === '1' && third === undefined) return con('Enter the amount (KES):', 'pay');
  if (first === '3' && second === '1') {
    return {
      screen: `M-Pesa will ask for your PIN to pay KES ${third} for SHS-0001.`,
      end: true,
      outcome: 'pay',
      would: `Ask +254712345678 to pay KES ${third} with M-Pesa for SHS-0001`,
    };
  }
  return con(`Invalid choice.\n${MAIN}`);
}

/** A 400 as the API words one, naming its field. */
export const fieldRefusal = (field: string, message: string) => jsonResponse(400, { message: `${field}: ${message}`, errors: [{ field, message }] });

/**
 * /payg/settings/ussd in memory, for mockSettingsApi's handler: GET answers the stored settings; PUT turns the menu on
 * (an address made the first time, kept after) or off (its address not shown); POST …/rotate gives it NEW_ADDRESS; POST
 * …/try answers `tryMenu` (fakeMenu unless told); GET …/sessions pages through `sessions` (newest first) by `before`.
 * Returns undefined for any other path.
 */
export function ussdHandler({
  settings = buildUssdSettings(),
  sessions = [],
  tryMenu = fakeMenu,
}: {
  settings?: UssdSettings;
  sessions?: UssdSession[];
  tryMenu?: (input: UssdTryInput) => UssdTryReply | Response;
} = {}) {
  let stored = settings;
  let address = settings.callback_url;
  // The API pages by its own row ids: the newest session has the highest.
  const ids = sessions.map((_, i) => sessions.length - i);
  return (call: RecordedCall, path: string): Response | undefined => {
    if (path === '/payg/settings/ussd' && call.method === 'GET') return jsonResponse(200, { data: stored });
    if (path === '/payg/settings/ussd' && call.method === 'PUT') {
      const { enabled } = JSON.parse(call.body!) as { enabled: boolean };
      if (enabled) {
        address ??= ADDRESS;
        stored = { ...stored, enabled, callback_url: address, enabled_at: '2026-11-26T08:00:00Z', enabled_by: 'amina' };
        return jsonResponse(200, { data: stored, message: 'The USSD menu is on: give its address to your USSD gateway as the callback URL' });
      }
      stored = { ...stored, enabled, callback_url: null };
      return jsonResponse(200, { data: stored, message: 'The USSD menu is off: customers who dial it are told it is not available' });
    }
    if (path === '/payg/settings/ussd/rotate' && call.method === 'POST') {
      address = NEW_ADDRESS;
      stored = { ...stored, callback_url: address };
      return jsonResponse(200, { data: stored, message: 'A new address is made: the old one no longer answers, so give this one to your USSD gateway' });
    }
    if (path === '/payg/settings/ussd/try' && call.method === 'POST') {
      const reply = tryMenu(JSON.parse(call.body!) as UssdTryInput);
      return reply instanceof Response ? reply : jsonResponse(200, reply);
    }
    if (path === '/payg/settings/ussd/sessions' && call.method === 'GET') {
      const q = new URL(call.url, 'http://x').searchParams;
      const limit = Number(q.get('limit') ?? 20);
      const before = q.has('before') ? Number(q.get('before')) : Infinity;
      const from = ids.findIndex((id) => id < before);
      const page = from < 0 ? [] : sessions.slice(from, from + limit);
      const more = from >= 0 && from + limit < sessions.length;
      return jsonResponse(200, { data: page, next_before: more ? ids[from + limit - 1]! : null });
    }
    return undefined;
  };
}

/** The bodies POSTed to …/try, in order. */
export const tries = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/settings/ussd/try').map((c) => JSON.parse(c.body!) as UssdTryInput);

/** The bodies PUT to /settings/ussd, in order. */
export const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/payg/settings/ussd').map((c) => JSON.parse(c.body!) as unknown);

/** The GET …/sessions calls made, by URL. */
export const sessionCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/settings/ussd/sessions')).map((c) => c.url);
