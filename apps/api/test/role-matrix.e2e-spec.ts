import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZServiceBlockedSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeSmtp } from './support/fake-smtp.js';
import { registeredRoutes, routeKey, type RouteEntry } from './support/routes.js';
import { buildCalls, currentApiKey, send, ROUTE_CALLS, type Credentials } from './support/route-calls.js';
import { changedTables, Fingerprints } from './support/fingerprint.js';
import { ReplyChecker } from './support/openapi-check.js';
import { seedUser, signToken } from './support/factories.js';
import { seedPlatform, seedWorld, type Platform, type World } from './support/world.js';

/**
 * Every route × every kind of caller, and the status each cell must get,
 * from one table: each route has a policy, each policy says what each caller
 * gets. Allowed cells send a real request in the caller's own organization
 * (test/support/route-calls.ts) and must get the route's documented success
 * status; refused cells must get exactly 401 or 403 and change nothing in
 * the database. A route without a policy fails the test.
 */
const CALLERS = [
  'super_admin',
  'owner',
  'admin',
  'staff',
  'suspended_org',
  'disabled_org',
  'no_token',
  'expired_token',
  'other_key_token',
  'deleted_user',
  'api_key',
  'blocked_api_key',
] as const;
type Caller = (typeof CALLERS)[number];

type Cell = 'ok' | 401 | 403 | 'SERVICE_SUSPENDED' | 'SERVICE_DISABLED';

const NO_USER = { no_token: 401, expired_token: 401, other_key_token: 401, deleted_user: 401 } as const;
const BLOCKED = { suspended_org: 'SERVICE_SUSPENDED', disabled_org: 'SERVICE_DISABLED' } as const;
const NOT_A_KEY = { api_key: 401, blocked_api_key: 401 } as const;

const POLICIES = {
  /** No credentials needed: whatever is sent, the call works. */
  public: Object.fromEntries(CALLERS.map((c) => [c, 'ok'])) as Record<Caller, Cell>,
  /** Any signed-in user of an active organization (and the super admin, in its own organization). */
  any: { super_admin: 'ok', owner: 'ok', admin: 'ok', staff: 'ok', ...BLOCKED, ...NO_USER, ...NOT_A_KEY },
  /** Any signed-in user, also of a suspended or disabled organization: its own bills, which it must be able to settle. */
  billing: { super_admin: 'ok', owner: 'ok', admin: 'ok', staff: 'ok', suspended_org: 'ok', disabled_org: 'ok', ...NO_USER, ...NOT_A_KEY },
  /** Owners, admins and the super admin. */
  manage: { super_admin: 'ok', owner: 'ok', admin: 'ok', staff: 403, ...BLOCKED, ...NO_USER, ...NOT_A_KEY },
  /** Owners and the super admin (billing). */
  owner_super: { super_admin: 'ok', owner: 'ok', admin: 403, staff: 403, ...BLOCKED, ...NO_USER, ...NOT_A_KEY },
  /** The platform console. */
  super_admin: { super_admin: 'ok', owner: 403, admin: 403, staff: 403, ...BLOCKED, ...NO_USER, ...NOT_A_KEY },
  /** The organization's API key in X-API-Key; a user token is not a key. */
  api_key: {
    super_admin: 401,
    owner: 401,
    admin: 401,
    staff: 401,
    suspended_org: 401,
    disabled_org: 401,
    ...NO_USER,
    api_key: 'ok',
    blocked_api_key: 'SERVICE_SUSPENDED',
  },
} satisfies Record<string, Record<Caller, Cell>>;
type Policy = keyof typeof POLICIES;

/** The one table: every route's policy. */
const ROUTE_POLICY: Record<string, Policy> = {
  'POST /payg/authenticate': 'public',
  'POST /payg/refresh': 'public',
  'POST /payg/authenticate/2fa': 'public',
  'GET /payg/auth/2fa': 'any',
  'POST /payg/auth/2fa/setup': 'any',
  'POST /payg/auth/2fa/enable': 'any',
  'POST /payg/auth/2fa/disable': 'any',
  'POST /payg/auth/2fa/recovery-codes': 'any',
  'POST /payg/users/{id}/2fa/reset': 'manage',
  'GET /payg/auth/sessions': 'any',
  'DELETE /payg/auth/sessions/{session_id}': 'any',
  'POST /payg/auth/sessions/sign-out-others': 'any',
  'POST /payg/auth/sessions/sign-out-everywhere': 'any',
  'POST /payg/users/{id}/sign-out': 'manage',
  'GET /payg/settings/security': 'manage',
  'PUT /payg/settings/security': 'manage',
  'POST /payg/logout': 'public',
  'GET /payg/health': 'public',
  'GET /payg/health/detailed': 'super_admin',
  'GET /payg/ready': 'public',
  'GET /payg/live': 'public',
  'GET /payg/me': 'any',
  'POST /payg/auth/change-password': 'any',
  'GET /payg/auth/password-reset': 'public',
  'POST /payg/auth/password-reset': 'public',
  'POST /payg/auth/password-reset/confirm': 'public',

  'GET /payg/find': 'any',
  'GET /payg/registered-customers': 'any',
  'POST /payg/register-customer': 'any',
  'POST /payg/add-customer': 'any',
  'POST /payg/fetch-customer': 'any',
  'GET /payg/customers/insights': 'any',
  'GET /payg/customers/{id}': 'any',
  'PUT /payg/customers/{id}': 'any',
  'DELETE /payg/customers/{id}': 'any',
  'GET /payg/customers/{id}/items': 'any',
  'GET /payg/customers/{id}/payments': 'any',
  'GET /payg/customers/{id}/status': 'any',
  'GET /payg/customers/{id}/credit-check': 'any',
  'GET /payg/payments/customer/{id}/history': 'any',
  'POST /payg/upload-csv': 'any',
  'GET /payg/export-customers-csv': 'any',

  'GET /payg/items': 'any',
  'POST /payg/items/add': 'any',
  'POST /payg/items/add/bulk': 'any',
  'POST /payg/items/accounts/import': 'manage',
  'GET /payg/items/accounts/export': 'manage',
  'POST /payg/items/fetch': 'any',
  'POST /payg/items/search': 'any',
  'POST /payg/items/assign': 'any',
  'POST /payg/items/unassign': 'any',
  'POST /payg/items/repossess': 'manage',
  'POST /payg/items/discount': 'manage',
  'POST /payg/items/discounts/{discount_id}/void': 'manage',
  'GET /payg/items/{serial_number}/discounts': 'any',
  'GET /payg/customers/{id}/discounts': 'any',
  'GET /payg/customers/{id}/ussd-sessions': 'any',
  'POST /payg/items/swap': 'manage',
  'POST /payg/items/transfer': 'manage',
  'GET /payg/device-swaps': 'any',
  'PUT /payg/items/{serial_number}': 'any',
  'DELETE /payg/items/{serial_number}': 'any',
  'GET /payg/products/summary': 'any',
  'GET /payg/products': 'any',
  'GET /payg/collections/summary': 'any',
  'GET /payg/collections/agents': 'any',
  'GET /payg/products/export': 'any',
  'GET /payg/stock-locations': 'any',
  'GET /payg/stock-locations/{location_id}': 'any',
  'POST /payg/stock-locations': 'manage',
  'PUT /payg/stock-locations/{location_id}': 'manage',
  'DELETE /payg/stock-locations/{location_id}': 'manage',
  'POST /payg/stock-locations/move': 'any',
  'POST /payg/stock-locations/{location_id}/stock-take': 'any',
  'GET /payg/stock-movements': 'any',
  'GET /payg/tickets': 'any',
  'GET /payg/tickets/assignees': 'any',
  'GET /payg/tickets/{ticket_id}': 'any',
  'GET /payg/tickets/{ticket_id}/history': 'any',
  'POST /payg/tickets': 'any',
  'PATCH /payg/tickets/{ticket_id}': 'any',
  'POST /payg/tickets/{ticket_id}/notes': 'any',
  'GET /payg/collections/promises/summary': 'any',
  'GET /payg/collections/promises': 'any',
  'GET /payg/collections/export': 'any',
  'GET /payg/collections': 'any',
  'POST /payg/collections/{item_id}/contacts': 'any',
  'GET /payg/collections/{item_id}/contacts': 'any',

  'GET /payg/payments/templates': 'any',
  'POST /payg/payments/templates/create': 'any',
  'GET /payg/payments/templates/summary': 'any',
  'GET /payg/payments/templates/performance': 'any',
  'GET /payg/payments/templates/assignments': 'any',
  'POST /payg/payments/templates/assign': 'any',
  'GET /payg/customers/{id}/statement': 'any',
  'POST /payg/payments/templates/assignments/{id}/end': 'any',
  'GET /payg/payments/templates/{id}': 'any',
  'PUT /payg/payments/templates/{id}': 'any',
  'DELETE /payg/payments/templates/{id}': 'any',
  'GET /payg/payments/templates/{id}/performance': 'any',
  'GET /payg/payments/templates/{id}/usage': 'any',
  'POST /payg/onboarding': 'any',

  'POST /payg/generate-token-by-days': 'any',
  'POST /payg/generate-token': 'manage',
  'POST /payg/update-token-count': 'any',
  'GET /payg/metrics/token-generation-logs': 'any',
  'POST /payg/config/product-oem/upsert': 'manage',
  'GET /payg/config/oems/list': 'any',

  'GET /payg/settings/api-key': 'manage',
  'POST /payg/settings/api-key/rotate': 'manage',
  'GET /payg/settings/sms-provider': 'manage',
  'GET /payg/settings/mpesa-express': 'manage',
  'PUT /payg/settings/mpesa-express': 'manage',
  'POST /payg/settings/mpesa-express/test': 'manage',
  'GET /payg/settings/mtn-momo': 'manage',
  'PUT /payg/settings/mtn-momo': 'manage',
  'POST /payg/settings/mtn-momo/test': 'manage',
  'GET /payg/settings/airtel-money': 'manage',
  'PUT /payg/settings/airtel-money': 'manage',
  'POST /payg/settings/airtel-money/test': 'manage',
  'GET /payg/payment-requests/providers': 'any',
  'PUT /payg/external/mtn-momo/{token}': 'public',
  'POST /payg/external/mtn-momo/{token}': 'public',
  'POST /payg/external/airtel-money/callback': 'public',
  'GET /payg/payment-requests': 'any',
  'GET /payg/payment-requests/{request_id}': 'any',
  'POST /payg/payment-requests': 'any',
  'POST /payg/payment-requests/{request_id}/check': 'any',
  'POST /payg/external/mpesa-express/{token}': 'public',
  'PUT /payg/settings/sms-provider': 'manage',
  'GET /payg/settings/reminders': 'manage',
  'GET /payg/settings/commissions': 'manage',
  'GET /payg/settings/ussd': 'manage',
  'PUT /payg/settings/ussd': 'manage',
  'POST /payg/settings/ussd/rotate': 'manage',
  'POST /payg/settings/ussd/try': 'manage',
  'GET /payg/settings/ussd/sessions': 'manage',
  'POST /payg/external/ussd/{key}': 'public',
  'GET /payg/settings/follow-on-sales': 'any',
  'GET /payg/settings/warranties': 'any',
  'GET /payg/settings/phone-country': 'any',
  'GET /payg/settings/agreement': 'manage',
  'GET /payg/audit-log': 'manage',
  'GET /payg/audit-log/export': 'manage',
  'POST /payg/collections/sms': 'manage',
  'POST /payg/sms-campaigns': 'manage',
  'GET /payg/sms-campaigns': 'manage',
  'GET /payg/sms-campaigns/{campaign_id}': 'manage',
  'POST /payg/sms-campaigns/{campaign_id}/cancel': 'manage',
  'GET /payg/sms-campaigns/{campaign_id}/texts': 'manage',
  'GET /payg/cash': 'any',
  'GET /payg/cash/collectors': 'any',
  'GET /payg/cash/{username}/ledger': 'any',
  'POST /payg/cash/handovers': 'manage',
  'GET /payg/cash/handovers/export': 'manage',
  'POST /payg/cash/handovers/{handover_id}/void': 'manage',
  'GET /payg/commissions': 'manage',
  'GET /payg/commissions/export': 'manage',
  'GET /payg/commissions/payouts': 'manage',
  'POST /payg/commissions/payouts': 'manage',
  'POST /payg/commissions/payouts/all': 'manage',
  'POST /payg/commissions/payouts/{payout_id}/void': 'manage',
  'GET /payg/auth/api-tokens': 'any',
  'POST /payg/auth/api-tokens': 'any',
  'DELETE /payg/auth/api-tokens/{id}': 'any',
  'GET /payg/webhooks': 'manage',
  'POST /payg/webhooks': 'manage',
  'GET /payg/webhooks/{id}': 'manage',
  'PATCH /payg/webhooks/{id}': 'manage',
  'DELETE /payg/webhooks/{id}': 'manage',
  'POST /payg/webhooks/{id}/rotate-secret': 'manage',
  'POST /payg/webhooks/{id}/test': 'manage',
  'GET /payg/webhooks/{id}/deliveries': 'manage',
  'POST /payg/webhooks/{id}/deliveries/{delivery_id}/redeliver': 'manage',
  'PUT /payg/settings/reminders': 'manage',
  'PUT /payg/settings/commissions': 'manage',
  'PUT /payg/settings/follow-on-sales': 'manage',
  'PUT /payg/settings/warranties': 'manage',
  'PUT /payg/settings/phone-country': 'manage',
  'PUT /payg/settings/agreement': 'manage',

  'GET /payg/payments': 'any',
  'POST /payg/payments': 'any',
  'POST /payg/payments/{id}/match': 'manage',
  'POST /payg/payments/{id}/reject': 'manage',
  'POST /payg/payments/{id}/reverse': 'manage',
  'POST /payg/customers/{id}/sms': 'any',
  'POST /payg/customers/{id}/sms-opt-out': 'any',
  'DELETE /payg/customers/{id}/sms-opt-out': 'manage',
  'GET /payg/customers/{id}/portal-link': 'any',
  'POST /payg/customers/{id}/portal-link': 'any',
  'DELETE /payg/customers/{id}/portal-link': 'any',
  'GET /payg/portal/{token}': 'public',
  'GET /payg/portal/{token}/statement': 'public',
  'POST /payg/portal/{token}/payments': 'public',
  'GET /payg/portal/{token}/payments/{request_id}': 'public',
  'GET /payg/customers/{id}/personal-data': 'manage',
  'GET /payg/customers/{id}/documents': 'any',
  'POST /payg/customers/{id}/documents': 'any',
  'GET /payg/customers/{id}/documents/{document_id}/file': 'any',
  'DELETE /payg/customers/{id}/documents/{document_id}': 'manage',
  'POST /payg/customers/{id}/erase': 'manage',
  'POST /payg/reports/upload-csv': 'manage',
  'POST /payg/external/receive-phoneteletalk': 'api_key',
  'GET /payg/fetch_messages': 'any',
  'GET /payg/messages/stats': 'any',
  'GET /payg/messages/debug': 'manage',
  'GET /payg/external/odyssey/customers': 'api_key',

  'GET /payg/metrics/summary': 'any',
  'GET /payg/metrics/customers': 'any',
  'GET /payg/metrics/payments': 'any',
  'GET /payg/metrics/items': 'any',
  'GET /payg/metrics/revenue': 'any',
  'GET /payg/metrics/usage': 'any',
  'GET /payg/metrics/performance': 'any',
  'POST /payg/reports/page': 'any',
  'GET /payg/devices/{serial}/activity': 'any',
  'GET /payg/devices/{serial}/agreement': 'any',
  'GET /payg/customers/{id}/payment-details': 'any',

  'GET /payg/invoices': 'billing',
  'GET /payg/invoices/stats': 'billing',
  'POST /payg/invoices': 'owner_super',
  'PUT /payg/invoices/{id}/status': 'owner_super',
  'DELETE /payg/invoices/{id}': 'owner_super',
  'POST /payg/invoices/{id}/email': 'owner_super',
  'GET /payg/invoice/{id}': 'billing',
  'GET /payg/download-invoice/{id}': 'billing',
  'POST /payg/submit-payment': 'billing',
  'GET /payg/update-invoice-settings': 'owner_super',
  'PUT /payg/update-invoice-settings': 'owner_super',

  'GET /payg/users': 'manage',
  'POST /payg/users': 'manage',
  'PUT /payg/users/{id}': 'manage',
  'DELETE /payg/users/{id}': 'manage',
  'GET /payg/notifications': 'any',
  'GET /payg/me/notifications': 'any',
  'POST /payg/me/notifications/read': 'any',
  'GET /payg/me/notification-settings': 'any',
  'PUT /payg/me/notification-settings': 'any',
  'GET /payg/config': 'any',
  'POST /payg/config/create': 'manage',
  'POST /payg/config/credentials/upsert': 'manage',
  'GET /payg/config/credentials/{organizationId}': 'manage',
  'GET /payg/config/{id}': 'any',
  'PUT /payg/config/{id}': 'manage',
  'DELETE /payg/config/{id}': 'manage',

  'GET /payg/admin/invoices': 'super_admin',
  'GET /payg/admin/invoices/stats': 'super_admin',
  'POST /payg/admin/invoices': 'super_admin',
  'GET /payg/admin/invoices/{id}': 'super_admin',
  'PUT /payg/admin/invoices/{id}/status': 'super_admin',
  'DELETE /payg/admin/invoices/{id}': 'super_admin',
  'POST /payg/admin/invoices/{id}/email': 'super_admin',
  'GET /payg/admin/settings/invoices': 'super_admin',
  'PUT /payg/admin/settings/invoices': 'super_admin',
  'GET /payg/admin/organizations': 'super_admin',
  'POST /payg/admin/organizations': 'super_admin',
  'GET /payg/admin/organizations/stats': 'super_admin',
  'GET /payg/admin/organizations/{id}': 'super_admin',
  'PUT /payg/admin/organizations/{id}': 'super_admin',
  'DELETE /payg/admin/organizations/{id}': 'super_admin',
  'GET /payg/admin/organizations/{id}/activity': 'super_admin',
  'GET /payg/admin/organizations/{id}/status': 'super_admin',
  'PUT /payg/admin/organizations/{id}/status': 'super_admin',
  'POST /payg/admin/organizations/{id}/notify': 'super_admin',
  'GET /payg/admin/users': 'super_admin',
  'POST /payg/admin/users': 'super_admin',
  'PUT /payg/admin/users/{id}': 'super_admin',
  'DELETE /payg/admin/users/{id}': 'super_admin',
  'POST /payg/admin/create-super-admin': 'super_admin',
  'GET /payg/admin/metrics/token-logs': 'super_admin',
  'GET /payg/admin/payment-providers': 'super_admin',
  'GET /payg/admin/payment-providers/{id}': 'super_admin',
  'POST /payg/admin/payment-providers': 'super_admin',
  'PUT /payg/admin/payment-providers/{id}': 'super_admin',
  'DELETE /payg/admin/payment-providers/{id}': 'super_admin',
  'GET /payg/admin/oem-credentials': 'super_admin',
  'GET /payg/admin/oem-credentials/{id}': 'super_admin',
  'POST /payg/admin/oem-credentials': 'super_admin',
  'PUT /payg/admin/oem-credentials/{id}': 'super_admin',
  'DELETE /payg/admin/oem-credentials/{id}': 'super_admin',
  'GET /payg/admin/plans': 'super_admin',
  'GET /payg/admin/plans/{code}': 'super_admin',
  'POST /payg/admin/plans': 'super_admin',
  'PUT /payg/admin/plans/{code}': 'super_admin',
  'DELETE /payg/admin/plans/{code}': 'super_admin',
  'GET /payg/admin/org-plans': 'super_admin',
  'POST /payg/admin/org-plans': 'super_admin',
  'DELETE /payg/admin/org-plans/{organization_id}': 'super_admin',
  'GET /payg/admin/features': 'super_admin',
  'POST /payg/admin/features': 'super_admin',
  'DELETE /payg/admin/features/{id}': 'super_admin',
};

describe('role matrix: every route × every kind of caller', () => {
  let t: TestApp;
  let p: Platform;
  /** The organization of owner, admin, staff and the API key. */
  let x: World;
  /** The super admin's own organization. */
  let home: World;
  let suspended: World;
  let disabled: World;
  let fp: Fingerprints;
  let routes: RouteEntry[];
  let successStatus: Map<string, number>;
  let replies: ReplyChecker;
  let smtp: FakeSmtp;
  const creds = {} as Record<Caller, () => Promise<Credentials>>;
  const worldOf = {} as Record<Caller, World>;

  beforeAll(async () => {
    // Invoices are emailed: a mail server that takes them.
    smtp = await new FakeSmtp().start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    p = await seedPlatform(t);
    [x, home, suspended, disabled] = await Promise.all([
      seedWorld(t, p, { label: 'x' }),
      seedWorld(t, p, { label: 'home', org: p.platformOrg }),
      seedWorld(t, p, { label: 'susp', status: 'suspended' }),
      seedWorld(t, p, { label: 'dis', status: 'disabled' }),
    ]);
    const claims = (u: { user_id: number; username: string; organization_id: string; role: 'owner' }) => ({
      sub: String(u.user_id),
      user_id: u.user_id,
      username: u.username,
      org_id: u.organization_id,
      role: u.role,
      app: 'kidogo' as const,
    });
    const gone = await seedUser(t, { organization_id: x.org, role: 'owner' });
    await t.db.platform.user.delete({ where: { id: gone.user_id } });
    const bearer = (token: string) => async () => ({ bearer: token });
    Object.assign(creds, {
      super_admin: bearer(p.root.token),
      owner: bearer(x.owner.token),
      admin: bearer(x.admin.token),
      staff: bearer(x.staff.token),
      suspended_org: bearer(suspended.owner.token),
      disabled_org: bearer(disabled.owner.token),
      no_token: async () => ({}),
      expired_token: bearer(signToken(t, claims({ ...x.owner, role: 'owner' }), { expiresIn: -60 })),
      other_key_token: bearer(signToken(t, claims({ ...x.owner, role: 'owner' }), { secret: 'not-the-server-secret-0123456789abcdef' })),
      deleted_user: bearer(gone.token),
      api_key: async () => ({ apiKey: await currentApiKey(t, x.org) }),
      blocked_api_key: async () => ({ apiKey: await currentApiKey(t, suspended.org) }),
    } satisfies Record<Caller, () => Promise<Credentials>>);
    Object.assign(worldOf, {
      super_admin: home,
      suspended_org: suspended,
      disabled_org: disabled,
      ...Object.fromEntries(['owner', 'admin', 'staff', 'no_token', 'expired_token', 'other_key_token', 'deleted_user', 'api_key', 'blocked_api_key'].map((c) => [c, x])),
    });
    routes = registeredRoutes(t.app);
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body as ConstructorParameters<typeof ReplyChecker>[0];
    replies = new ReplyChecker(doc);
    successStatus = new Map(
      routes.map((r) => [routeKey(r), Number(Object.keys(doc.paths[r.path]![r.method.toLowerCase()]!.responses).find((s) => s.startsWith('2')))]),
    );
    fp = await Fingerprints.open(t.databaseUrl);
  }, 180_000);
  afterAll(async () => {
    await fp?.close();
    await t?.close();
    await smtp?.close();
  });

  it('has a policy for every route the application serves (and none for a route it does not)', () => {
    const served = routes.map(routeKey);
    const missing = served.filter((k) => !ROUTE_POLICY[k]).map((k) => `${k}: add it to the role matrix`);
    const stale = Object.keys(ROUTE_POLICY).filter((k) => !served.includes(k)).map((k) => `${k}: no such route`);
    const noCall = served.filter((k) => !ROUTE_CALLS[k]).map((k) => `${k}: no call in route-calls.ts`);
    expect([...missing, ...stale, ...noCall]).toEqual([]);
  });

  it('refuses every caller a cell says no to, with exactly that status (documented, with its documented body), and changes nothing', async () => {
    const problems: string[] = [];
    // Build every refused request first (building may seed rows), then send them all between two fingerprints.
    const planned: { key: string; method: string; caller: Caller; expected: Cell; call: Awaited<ReturnType<typeof buildCalls>>[number] }[] = [];
    for (const route of routes) {
      const key = routeKey(route);
      const policy = POLICIES[ROUTE_POLICY[key]!];
      const refused = CALLERS.filter((c) => policy[c] !== 'ok');
      if (!refused.length) continue;
      const calls = await buildCalls(key, { t, p, w: x });
      for (const caller of refused) for (const call of calls) planned.push({ key, method: route.method, caller, expected: policy[caller], call });
    }
    const before = await fp.ofDatabase();
    for (const { key, method, caller, expected, call } of planned) {
      const { status, text, res } = await send(t, method, call, await creds[caller]());
      const cell = `${key} as ${caller}`;
      const undocumented = replies.check(method, key.slice(method.length + 1), status, String(res.headers['content-type'] ?? ''), text);
      if (undocumented) problems.push(`${cell}: ${undocumented}`);
      if (expected === 'SERVICE_SUSPENDED' || expected === 'SERVICE_DISABLED') {
        const body = status === 403 ? ZServiceBlockedSchema.safeParse(JSON.parse(text)) : null;
        if (!body?.success || body.data.detail.error !== expected) problems.push(`${cell}: ${status} ${text.slice(0, 160)} (expected 403 ${expected})`);
      } else if (status !== expected) {
        problems.push(`${cell}: ${status} ${text.slice(0, 160)} (expected ${expected})`);
      }
    }
    expect(problems).toEqual([]);
    expect(changedTables(before, await fp.ofDatabase())).toEqual([]);
    expect(planned.length).toBeGreaterThan(routes.length * 6);
  }, 300_000);

  it('lets every caller a cell says yes to through, with the documented success status and a reply the document describes', async () => {
    const problems: string[] = [];
    let cells = 0;
    for (const route of routes) {
      const key = routeKey(route);
      const policy = POLICIES[ROUTE_POLICY[key]!];
      for (const caller of CALLERS.filter((c) => policy[c] === 'ok')) {
        for (const call of await buildCalls(key, { t, p, w: worldOf[caller] })) {
          const { status, text, res } = await send(t, route.method, call, await creds[caller]());
          cells++;
          if (status !== successStatus.get(key)) problems.push(`${key} as ${caller}: ${status} ${text.slice(0, 160)} (expected ${successStatus.get(key)})`);
          const undocumented = replies.check(route.method, route.path, status, String(res.headers['content-type'] ?? ''), text);
          if (undocumented) problems.push(`${key} as ${caller}: ${undocumented}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(cells).toBeGreaterThan(routes.length * 2);
  }, 300_000);
});
