import {
  PHONE_COUNTRIES,
  type AgreementSettings,
  type CommissionSettings,
  type PhoneCountry,
  type ReminderSettings,
  type SecuritySettings,
  type User,
  type WarrantySettings,
} from '@kidogo/contracts';
import { buildSession } from '@/features/sessions/testing/mock-sessions-api';
import { buildWarrantySettings, warrantiesRoute } from '@/features/warranties/testing/mock-warranties-api';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';

export const KEY = 'kdg_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
export const NEW_KEY = 'kdg_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210zyxwvut';

export function buildTeamUser(overrides: Partial<User> = {}): User {
  return {
    user_id: 7,
    username: 'amina',
    email: 'amina@example.com',
    organization_id: 'org-1',
    role: 'admin',
    is_active: true,
    last_login_at: null,
    two_factor_enabled: false,
    created_at: '2026-03-04T10:00:00Z',
    ...overrides,
  };
}

export function buildReminders(overrides: Partial<ReminderSettings> = {}): ReminderSettings {
  return {
    enabled: false,
    days_before: 1,
    send_hour: 9,
    time_zone: 'Africa/Nairobi',
    language: 'en',
    can_send: true,
    preview: 'Kidogo: Hi Grace, the credit on device SHS-0042 runs out tomorrow. Pay KES 50.00 a day to account SHS-0042 to keep it on.',
    sent_30_days: 0,
    last_sent_at: null,
    ...overrides,
  };
}

/** Commission settings as the API answers them, its example reckoned the same way (10 devices, 100,000.00 collected). */
export function buildCommissions(perDevice = '0.00', percent = '0.00'): CommissionSettings {
  const commission = (Number(perDevice) * 10 + (100_000 * Number(percent)) / 100).toFixed(2);
  return { per_device: perDevice, percent, example: { devices_given: 10, revenue: '100000.00', commission } };
}

/** GET /settings/phone-country for a calling code, as the API gives it. */
export function buildPhoneCountry(code: string): PhoneCountry {
  const c = PHONE_COUNTRIES.find((x) => x.code === code)!;
  return {
    phone_country_code: c.code,
    country: c.country,
    example: { written: c.example, read_as: `+${c.code}${c.example.replace(/\D/g, '').replace(/^0/, '')}` },
    unreadable_numbers: 0,
  };
}

/**
 * The Settings page's API in memory: health, API key, SMS provider, and a
 * team that POST, PUT and DELETE /users (and POST /users/{id}/2fa/reset)
 * really change (POST /users/{id}/sign-out answers as the API does), two-factor
 * sign-in off, this browser as the one signed-in device, and payment reminders
 * that PUT changes, and two-factor sign-in not required of everyone (PUT
 * changes it), agent commissions, the follow-on sales rule, the products' warranties, the phone country and the agreement's settings that PUT changes. `handler` answers first (return undefined to fall through).
 */
export function mockSettingsApi(
  handler?: (call: RecordedCall, path: string) => Response | Promise<Response> | undefined,
  team: User[] = [],
  reminders: ReminderSettings = buildReminders(),
  security: SecuritySettings = { require_two_factor: false, users_without_two_factor: 0 },
  warranties: WarrantySettings = buildWarrantySettings(),
) {
  const users = [...team];
  let stored = reminders;
  let commissions = buildCommissions();
  let followOn = { rule: 'any', refuse_repossessed: false };
  let phoneCountry = buildPhoneCountry('254');
  let agreement: AgreementSettings = { seller_details: null, paybill: null, extra_terms: null };
  let rule = security;
  const warrantiesApi = warrantiesRoute(warranties);
  return mockFetch((call) => {
    const url = new URL(call.url, 'http://x');
    const path = url.pathname;
    const custom = handler?.(call, path);
    if (custom) return custom;
    if (path === '/payg/notifications') return jsonResponse(200, { data: [] });
    if (path === '/payg/health') return jsonResponse(200, { status: 'healthy', database: 'connected', external_services: 'not_configured' });
    if (path === '/payg/settings/api-key') return jsonResponse(200, { api_key: KEY });
    if (path === '/payg/settings/api-key/rotate') return jsonResponse(200, { api_key: NEW_KEY });
    if (path === '/payg/settings/sms-provider' && call.method === 'GET') {
      return jsonResponse(200, { provider: 'none', config: {}, is_active: true, fallback: 'none', reply_language: 'en', text_name: null, updated_at: null });
    }
    if (path === '/payg/settings/sms-provider' && call.method === 'PUT') {
      const body = JSON.parse(call.body!);
      return jsonResponse(200, { ...body, config: { ...body.config, secret: body.config.secret ? '••••cret' : undefined }, fallback: 'none', updated_at: '2026-01-02T00:00:00Z' });
    }
    if (path === '/payg/settings/reminders' && call.method === 'GET') return jsonResponse(200, stored);
    if (path === '/payg/settings/phone-country' && call.method === 'GET') return jsonResponse(200, phoneCountry);
    if (path === '/payg/settings/phone-country' && call.method === 'PUT') {
      const code = (JSON.parse(call.body!) as { phone_country_code: string }).phone_country_code;
      const changed = code !== phoneCountry.phone_country_code;
      // Nigeria's numbers have a digit more: Kenyan ones typed without a code no longer read as a phone there.
      phoneCountry = { ...buildPhoneCountry(code), unreadable_numbers: code === '234' ? 1204 : 0 };
      return jsonResponse(200, { ...phoneCountry, customers_updated: changed ? 1204 : 0 });
    }
    if (path === '/payg/settings/commissions' && call.method === 'GET') return jsonResponse(200, commissions);
    if (path === '/payg/settings/commissions' && call.method === 'PUT') {
      const body = JSON.parse(call.body!) as { per_device?: number | string; percent?: number | string };
      commissions = buildCommissions(
        Number(body.per_device ?? commissions.per_device).toFixed(2),
        Number(body.percent ?? commissions.percent).toFixed(2),
      );
      return jsonResponse(200, commissions);
    }
    if (path === '/payg/settings/follow-on-sales' && call.method === 'GET') return jsonResponse(200, followOn);
    if (path === '/payg/settings/follow-on-sales' && call.method === 'PUT') {
      followOn = { ...followOn, ...(JSON.parse(call.body!) as Partial<typeof followOn>) };
      return jsonResponse(200, followOn);
    }
    const warranty = warrantiesApi(call, path);
    if (warranty) return warranty;
    if (path === '/payg/settings/agreement' && call.method === 'GET') return jsonResponse(200, agreement);
    if (path === '/payg/settings/agreement' && call.method === 'PUT') {
      const body = JSON.parse(call.body!) as Partial<AgreementSettings>;
      const clean = (v: string | null | undefined, was: string | null) => (v === undefined ? was : v?.trim() || null);
      agreement = {
        seller_details: clean(body.seller_details, agreement.seller_details),
        paybill: clean(body.paybill, agreement.paybill),
        extra_terms: clean(body.extra_terms, agreement.extra_terms),
      };
      return jsonResponse(200, agreement);
    }
    if (path === '/payg/webhooks' && call.method === 'GET') return jsonResponse(200, { data: [], events: [] });
    if (path === '/payg/auth/api-tokens' && call.method === 'GET') return jsonResponse(200, { data: [] });
    if (path === '/payg/auth/sessions' && call.method === 'GET') return jsonResponse(200, { data: [buildSession()] });
    if (path === '/payg/auth/2fa' && call.method === 'GET') return jsonResponse(200, { enabled: false, enabled_at: null, recovery_codes_left: 0 });
    if (path === '/payg/settings/security' && call.method === 'GET') return jsonResponse(200, rule);
    if (path === '/payg/settings/security' && call.method === 'PUT') {
      rule = { ...rule, require_two_factor: JSON.parse(call.body!).require_two_factor };
      return jsonResponse(200, rule);
    }
    if (path === '/payg/settings/reminders' && call.method === 'PUT') {
      stored = { ...stored, ...JSON.parse(call.body!) };
      return jsonResponse(200, stored);
    }
    if (path === '/payg/users' && call.method === 'GET') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const found = users.filter((u) => !search || u.username.toLowerCase().includes(search) || (u.email ?? '').toLowerCase().includes(search));
      return jsonResponse(200, { data: found.slice(offset, offset + limit), pagination: { total: found.length, limit, offset, total_pages: Math.ceil(found.length / limit) } });
    }
    if (path === '/payg/users' && call.method === 'POST') {
      const body = JSON.parse(call.body!);
      const user = buildTeamUser({ user_id: 100 + users.length, username: body.username, email: body.email, role: body.role, created_at: '2026-11-20T09:00:00Z' });
      users.unshift(user);
      return jsonResponse(201, user);
    }
    const reset = /^\/payg\/users\/(\d+)\/2fa\/reset$/.exec(path);
    if (reset && call.method === 'POST') {
      const at = users.findIndex((u) => u.user_id === Number(reset[1]));
      if (at < 0) return jsonResponse(404, { detail: 'User not found', message: 'User not found' });
      const { username, two_factor_enabled } = users[at]!;
      // As the API: where it is required, a user without it is given more days to set it up.
      if (!two_factor_enabled && rule.require_two_factor) return jsonResponse(200, { message: `${username} may set up two-factor sign-in with their password until 2026-12-03` });
      if (!two_factor_enabled) return jsonResponse(409, { detail: `${username} does not use two-factor sign-in`, message: `${username} does not use two-factor sign-in` });
      users[at] = { ...users[at]!, two_factor_enabled: false };
      return jsonResponse(200, { message: `${username} signs in with a password only until they set up two-factor sign-in again` });
    }
    const signOut = /^\/payg\/users\/(\d+)\/sign-out$/.exec(path);
    if (signOut && call.method === 'POST') {
      const found = users.find((u) => u.user_id === Number(signOut[1]));
      if (!found) return jsonResponse(404, { detail: 'User not found', message: 'User not found' });
      return jsonResponse(200, { message: `${found.username} is signed out everywhere (2 sessions)`, sessions_ended: 2 });
    }
    const one = /^\/payg\/users\/(\d+)$/.exec(path);
    if (one) {
      const at = users.findIndex((u) => u.user_id === Number(one[1]));
      if (at < 0) return jsonResponse(404, { detail: 'User not found', message: 'User not found' });
      if (call.method === 'DELETE') {
        const [gone] = users.splice(at, 1);
        return jsonResponse(200, { message: `User ${gone!.username} deleted` });
      }
      if (call.method === 'PUT') {
        const { password: _password, ...changes } = JSON.parse(call.body!);
        users[at] = { ...users[at]!, ...changes };
        return jsonResponse(200, users[at]);
      }
    }
    return jsonResponse(404, { message: 'not mocked' });
  });
}
