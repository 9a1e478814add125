import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeSmtp } from './support/fake-smtp.js';
import { registeredRoutes, routeKey } from './support/routes.js';
import { buildCalls, currentApiKey, send, ROUTE_CALLS, type Call } from './support/route-calls.js';
import { changedTables, Fingerprints } from './support/fingerprint.js';
import { seedPlatform, seedWorld, type Platform, type World } from './support/world.js';
import { settledAuditEntry } from './support/audit.js';

/**
 * Organization B's owner (and B's API key on the gateway routes) calls every
 * organization-scoped route of the application on organization A's
 * resources: A's ids, serial numbers, search terms that match A's data,
 * exports and reports. Never a reply that carries A's data, never a change
 * to A's rows. The routes come from the application's own route table, so a
 * new route without a row here fails the test.
 *
 * The value is the statuses B may get. The calls themselves (A's ids in the
 * path, A's search terms) are in test/support/route-calls.ts, shared with
 * the role matrix.
 */
const SCOPED: Record<string, number[]> = {
  'GET /payg/me': [200],
  // Lists, searches and exports: B's own (empty of A) data.
  'GET /payg/find': [200],
  'GET /payg/registered-customers': [200],
  'GET /payg/customers/insights': [200],
  'GET /payg/export-customers-csv': [200],
  'GET /payg/items': [200],
  'POST /payg/items/search': [200],
  'GET /payg/products/summary': [200],
  'GET /payg/products': [200],
  'GET /payg/collections/summary': [200],
  'GET /payg/collections/agents': [200],
  'GET /payg/collections/promises/summary': [200],
  'GET /payg/collections/promises': [200],
  'GET /payg/collections/export': [200],
  'GET /payg/collections': [200],
  'GET /payg/products/export': [200],
  'GET /payg/items/accounts/export': [200],
  'GET /payg/stock-locations': [200],
  'GET /payg/stock-movements': [200],
  'GET /payg/device-swaps': [200],
  'GET /payg/tickets': [200],
  'GET /payg/tickets/assignees': [200],
  'GET /payg/payments/templates': [200],
  'GET /payg/payments/templates/summary': [200],
  'GET /payg/payments/templates/performance': [200],
  'GET /payg/payments/templates/assignments': [200],
  'GET /payg/metrics/token-generation-logs': [200],
  'GET /payg/config/oems/list': [200],
  'GET /payg/payments': [200],
  'GET /payg/fetch_messages': [200],
  'GET /payg/messages/stats': [200],
  'GET /payg/messages/debug': [200],
  'GET /payg/external/odyssey/customers': [200],
  'GET /payg/metrics/summary': [200],
  'GET /payg/metrics/customers': [200],
  'GET /payg/metrics/payments': [200],
  'GET /payg/metrics/items': [200],
  'GET /payg/metrics/revenue': [200],
  'GET /payg/metrics/usage': [200],
  'GET /payg/metrics/performance': [200],
  'POST /payg/reports/page': [200],
  'GET /payg/invoices': [200],
  'GET /payg/invoices/stats': [200],
  'GET /payg/users': [200],
  'GET /payg/notifications': [200],
  // The caller's own notifications: B's, and marking A's read by id passes them over.
  'GET /payg/me/notifications': [200],
  'POST /payg/me/notifications/read': [200],
  'GET /payg/me/notification-settings': [200],
  'PUT /payg/me/notification-settings': [200],
  'GET /payg/config': [200],
  // A's rows by id, serial number, ID number or phone: not found.
  'POST /payg/fetch-customer': [404],
  'GET /payg/customers/{id}': [404],
  'PUT /payg/customers/{id}': [404],
  'DELETE /payg/customers/{id}': [404],
  'GET /payg/customers/{id}/items': [404],
  'GET /payg/collections/{item_id}/contacts': [404],
  'POST /payg/collections/{item_id}/contacts': [404],
  'GET /payg/stock-locations/{location_id}': [404],
  'PUT /payg/stock-locations/{location_id}': [404],
  'DELETE /payg/stock-locations/{location_id}': [404],
  'POST /payg/stock-locations/move': [404],
  'POST /payg/stock-locations/{location_id}/stock-take': [404],
  'GET /payg/tickets/{ticket_id}': [404],
  'GET /payg/tickets/{ticket_id}/history': [404],
  'PATCH /payg/tickets/{ticket_id}': [404],
  'POST /payg/tickets/{ticket_id}/notes': [404],
  'POST /payg/tickets': [404],
  'GET /payg/customers/{id}/payments': [404],
  'GET /payg/customers/{id}/status': [404],
  'GET /payg/customers/{id}/credit-check': [404],
  'GET /payg/payments/customer/{id}/history': [404],
  'GET /payg/customers/{id}/payment-details': [404],
  'GET /payg/customers/{id}/statement': [404],
  'POST /payg/items/fetch': [404],
  'POST /payg/items/assign': [404],
  'POST /payg/items/unassign': [404],
  'POST /payg/items/repossess': [404],
  'POST /payg/items/discount': [404],
  'POST /payg/items/discounts/{discount_id}/void': [404],
  'GET /payg/items/{serial_number}/discounts': [404],
  'GET /payg/customers/{id}/discounts': [404],
  'GET /payg/customers/{id}/ussd-sessions': [404],
  'POST /payg/items/swap': [404],
  'POST /payg/items/transfer': [404],
  'PUT /payg/items/{serial_number}': [404],
  'DELETE /payg/items/{serial_number}': [404],
  'POST /payg/payments/templates/assign': [404],
  'POST /payg/payments/templates/assignments/{id}/end': [404],
  'GET /payg/payments/templates/{id}': [404],
  'PUT /payg/payments/templates/{id}': [404],
  'DELETE /payg/payments/templates/{id}': [404],
  'GET /payg/payments/templates/{id}/performance': [404],
  'GET /payg/payments/templates/{id}/usage': [404],
  'POST /payg/onboarding': [404],
  'POST /payg/generate-token-by-days': [404],
  'POST /payg/generate-token': [404],
  'POST /payg/update-token-count': [404],
  'POST /payg/payments': [404],
  'POST /payg/payments/{id}/match': [404],
  'POST /payg/payments/{id}/reject': [404],
  'POST /payg/payments/{id}/reverse': [404],
  'POST /payg/customers/{id}/sms': [404],
  'POST /payg/customers/{id}/sms-opt-out': [404],
  'DELETE /payg/customers/{id}/sms-opt-out': [404],
  'GET /payg/customers/{id}/portal-link': [404],
  'POST /payg/customers/{id}/portal-link': [404],
  'DELETE /payg/customers/{id}/portal-link': [404],
  'GET /payg/customers/{id}/personal-data': [404],
  'GET /payg/customers/{id}/documents': [404],
  'POST /payg/customers/{id}/documents': [404],
  'GET /payg/customers/{id}/documents/{document_id}/file': [404],
  'DELETE /payg/customers/{id}/documents/{document_id}': [404],
  'POST /payg/customers/{id}/erase': [404],
  'GET /payg/devices/{serial}/activity': [404],
  'GET /payg/devices/{serial}/agreement': [404],
  'PUT /payg/invoices/{id}/status': [404],
  'DELETE /payg/invoices/{id}': [404],
  'POST /payg/invoices/{id}/email': [404],
  'GET /payg/invoice/{id}': [404],
  'GET /payg/download-invoice/{id}': [404],
  'POST /payg/submit-payment': [404],
  'PUT /payg/users/{id}': [404],
  'DELETE /payg/users/{id}': [404],
  'GET /payg/config/{id}': [404],
  'PUT /payg/config/{id}': [404],
  'DELETE /payg/config/{id}': [404],
  // Naming A's organization outright: refused.
  'POST /payg/invoices': [403],
  'POST /payg/config/credentials/upsert': [403],
  'GET /payg/config/credentials/{organizationId}': [403],
  // Writes that only ever land in B (fresh values, or A's serial / OEM name used as B's own).
  'POST /payg/register-customer': [201],
  'POST /payg/add-customer': [201],
  'POST /payg/upload-csv': [200],
  'POST /payg/items/add': [201],
  'POST /payg/stock-locations': [201],
  'POST /payg/items/add/bulk': [200],
  // A's serial and customer's ID number are no device or customer of B's: each row is reported, nothing kept.
  'POST /payg/items/accounts/import': [200],
  'POST /payg/payments/templates/create': [201],
  'POST /payg/config/product-oem/upsert': [200],
  'GET /payg/settings/api-key': [200],
  'POST /payg/settings/api-key/rotate': [200],
  'GET /payg/settings/sms-provider': [200],
  'GET /payg/settings/mpesa-express': [200],
  'PUT /payg/settings/mpesa-express': [200],
  // B's own set-up, tried: none yet (409), or B's keys (saved by the PUT above), which reach no Safaricom in tests.
  'POST /payg/settings/mpesa-express/test': [200, 409],
  'GET /payg/settings/mtn-momo': [200],
  'PUT /payg/settings/mtn-momo': [200],
  // B's own set-up, tried: none yet (409), or B's keys (saved by the PUT above), which reach no MTN in tests.
  'POST /payg/settings/mtn-momo/test': [200, 409],
  'GET /payg/settings/airtel-money': [200],
  'PUT /payg/settings/airtel-money': [200],
  // B's own set-up, tried: none yet (409), or B's client id and secret (saved by the PUT above), which reach no Airtel in tests.
  'POST /payg/settings/airtel-money/test': [200, 409],
  'GET /payg/payment-requests/providers': [200],
  'GET /payg/payment-requests': [200],
  'GET /payg/payment-requests/{request_id}': [404],
  'POST /payg/payment-requests': [404, 409],
  'POST /payg/payment-requests/{request_id}/check': [404],
  'PUT /payg/settings/sms-provider': [200],
  'GET /payg/settings/reminders': [200],
  'GET /payg/settings/commissions': [200],
  'GET /payg/settings/ussd': [200],
  'PUT /payg/settings/ussd': [200],
  'POST /payg/settings/ussd/rotate': [200],
  'POST /payg/settings/ussd/try': [200],
  'GET /payg/settings/ussd/sessions': [200],
  'GET /payg/settings/follow-on-sales': [200],
  'GET /payg/settings/warranties': [200],
  'GET /payg/settings/phone-country': [200],
  'GET /payg/settings/agreement': [200],
  'GET /payg/audit-log': [200],
  'GET /payg/audit-log/export': [200],
  'POST /payg/collections/sms': [200],
  'POST /payg/sms-campaigns': [200],
  'GET /payg/sms-campaigns': [200],
  'GET /payg/sms-campaigns/{campaign_id}': [404],
  'POST /payg/sms-campaigns/{campaign_id}/cancel': [404],
  'GET /payg/sms-campaigns/{campaign_id}/texts': [404],
  // B's own collectors; A's collector is nobody in B
  'GET /payg/cash': [200],
  'GET /payg/cash/collectors': [200],
  'GET /payg/cash/{username}/ledger': [404],
  'POST /payg/cash/handovers': [400],
  'GET /payg/cash/handovers/export': [400],
  'POST /payg/cash/handovers/{handover_id}/void': [404],
  // B's own agents and payouts; A's agent has no customer in B
  'GET /payg/commissions': [200],
  'GET /payg/commissions/export': [200],
  'GET /payg/commissions/payouts': [200],
  'POST /payg/commissions/payouts': [400],
  'POST /payg/commissions/payouts/all': [409],
  'POST /payg/commissions/payouts/{payout_id}/void': [404],
  'GET /payg/auth/api-tokens': [200],
  'POST /payg/auth/api-tokens': [201],
  'DELETE /payg/auth/api-tokens/{id}': [404],
  'GET /payg/webhooks': [200],
  'POST /payg/webhooks': [201],
  'GET /payg/webhooks/{id}': [404],
  'PATCH /payg/webhooks/{id}': [404],
  'DELETE /payg/webhooks/{id}': [404],
  'POST /payg/webhooks/{id}/rotate-secret': [404],
  'POST /payg/webhooks/{id}/test': [404],
  'GET /payg/webhooks/{id}/deliveries': [404],
  'POST /payg/webhooks/{id}/deliveries/{delivery_id}/redeliver': [404],
  'PUT /payg/settings/reminders': [200],
  'PUT /payg/settings/commissions': [200],
  'PUT /payg/settings/follow-on-sales': [200],
  'PUT /payg/settings/warranties': [200],
  'PUT /payg/settings/phone-country': [200],
  'PUT /payg/settings/agreement': [200],
  'POST /payg/reports/upload-csv': [200],
  'POST /payg/external/receive-phoneteletalk': [200],
  'GET /payg/update-invoice-settings': [200],
  'PUT /payg/update-invoice-settings': [200],
  'POST /payg/users': [201],
  // The caller's own account only: nothing in the request names a user or an organization.
  'POST /payg/auth/change-password': [200],
  'POST /payg/users/{id}/2fa/reset': [404],
  'POST /payg/users/{id}/sign-out': [404],
  'GET /payg/settings/security': [200],
  'PUT /payg/settings/security': [200],
  'POST /payg/config/create': [201],
};

const PUBLIC = 'public: no organization (sign-in, health)';
const CONSOLE = 'super admin console: cross-organization by design; the role matrix proves only super_admin gets in';
const OWN_ACCOUNT =
  "the caller's own two-factor sign-in: nothing in the request names a user or an organization (test/two-factor.e2e-spec.ts; the role matrix calls each as every role)";

/** Routes that are not organization-scoped, with the reason. */
const NOT_SCOPED: Record<string, string> = {
  'POST /payg/authenticate': PUBLIC,
  'POST /payg/refresh': PUBLIC,
  'POST /payg/authenticate/2fa': PUBLIC,
  'GET /payg/auth/2fa': OWN_ACCOUNT,
  'GET /payg/auth/sessions': OWN_ACCOUNT,
  'DELETE /payg/auth/sessions/{session_id}': OWN_ACCOUNT,
  'POST /payg/auth/sessions/sign-out-others': OWN_ACCOUNT,
  'POST /payg/auth/sessions/sign-out-everywhere': OWN_ACCOUNT,
  'POST /payg/auth/2fa/setup': OWN_ACCOUNT,
  'POST /payg/auth/2fa/enable': OWN_ACCOUNT,
  'POST /payg/auth/2fa/disable': OWN_ACCOUNT,
  'POST /payg/auth/2fa/recovery-codes': OWN_ACCOUNT,
  'POST /payg/logout': PUBLIC,
  'GET /payg/auth/password-reset': PUBLIC,
  'POST /payg/auth/password-reset': 'a forgotten password: no organization; the account is named by its username or email address (test/password-reset.e2e-spec.ts)',
  'POST /payg/auth/password-reset/confirm': "a forgotten password: the emailed link's secret token alone names the account (test/password-reset.e2e-spec.ts)",
  'GET /payg/health': PUBLIC,
  'GET /payg/portal/{token}': "the customer's own page: its link's secret token alone names the customer (test/portal.e2e-spec.ts)",
  'POST /payg/portal/{token}/payments':
    "Pay Now on the customer's own page: its link's secret token alone names the customer, and only their devices are paid for (test/portal-pay.e2e-spec.ts)",
  'GET /payg/portal/{token}/payments/{request_id}':
    "a payment asked for from the customer's own page: its link's secret token names the customer, and only their requests are shown (test/portal-pay.e2e-spec.ts)",
  'GET /payg/portal/{token}/statement': "the customer's own statement: its page's secret token alone names the customer (test/portal.e2e-spec.ts)",
  'PUT /payg/external/mtn-momo/{token}':
    "MTN's result for one request: authenticated by that request's secret address alone, whoever sends it (test/mtn-momo-ask.e2e-spec.ts)",
  'POST /payg/external/mtn-momo/{token}':
    "MTN's result for one request, posted: authenticated by that request's secret address alone (test/mtn-momo-ask.e2e-spec.ts)",
  'POST /payg/external/airtel-money/callback':
    "Airtel's word that a transaction ended: it names the request by Kidogo's secret transaction id alone, and Kidogo asks that organization's Airtel how it ended (test/airtel-money-ask.e2e-spec.ts)",
  'POST /payg/external/ussd/{key}':
    "a step of the customers' USSD menu: the organization's secret address alone names it, and the caller's phone the customer (test/ussd.e2e-spec.ts)",
  'POST /payg/external/mpesa-express/{token}':
    "Safaricom's result for one request: authenticated by that request's secret address alone, whoever sends it (test/mpesa-express.e2e-spec.ts)",
  'GET /payg/health/detailed': CONSOLE,
  'GET /payg/ready': PUBLIC,
  'GET /payg/live': PUBLIC,
  'GET /payg/admin/invoices': CONSOLE,
  'GET /payg/admin/invoices/stats': CONSOLE,
  'POST /payg/admin/invoices': CONSOLE,
  'GET /payg/admin/invoices/{id}': CONSOLE,
  'PUT /payg/admin/invoices/{id}/status': CONSOLE,
  'DELETE /payg/admin/invoices/{id}': CONSOLE,
  'POST /payg/admin/invoices/{id}/email': CONSOLE,
  'GET /payg/admin/settings/invoices': CONSOLE,
  'PUT /payg/admin/settings/invoices': CONSOLE,
  'GET /payg/admin/organizations': CONSOLE,
  'POST /payg/admin/organizations': CONSOLE,
  'GET /payg/admin/organizations/stats': CONSOLE,
  'GET /payg/admin/organizations/{id}': CONSOLE,
  'PUT /payg/admin/organizations/{id}': CONSOLE,
  'DELETE /payg/admin/organizations/{id}': CONSOLE,
  'GET /payg/admin/organizations/{id}/activity': CONSOLE,
  'GET /payg/admin/organizations/{id}/status': CONSOLE,
  'PUT /payg/admin/organizations/{id}/status': CONSOLE,
  'POST /payg/admin/organizations/{id}/notify': CONSOLE,
  'GET /payg/admin/users': CONSOLE,
  'POST /payg/admin/users': CONSOLE,
  'PUT /payg/admin/users/{id}': CONSOLE,
  'DELETE /payg/admin/users/{id}': CONSOLE,
  'POST /payg/admin/create-super-admin': CONSOLE,
  'GET /payg/admin/metrics/token-logs': CONSOLE,
  'GET /payg/admin/payment-providers': CONSOLE,
  'GET /payg/admin/payment-providers/{id}': CONSOLE,
  'POST /payg/admin/payment-providers': CONSOLE,
  'PUT /payg/admin/payment-providers/{id}': CONSOLE,
  'DELETE /payg/admin/payment-providers/{id}': CONSOLE,
  'GET /payg/admin/oem-credentials': CONSOLE,
  'GET /payg/admin/oem-credentials/{id}': CONSOLE,
  'POST /payg/admin/oem-credentials': CONSOLE,
  'PUT /payg/admin/oem-credentials/{id}': CONSOLE,
  'DELETE /payg/admin/oem-credentials/{id}': CONSOLE,
  'GET /payg/admin/plans': CONSOLE,
  'GET /payg/admin/plans/{code}': CONSOLE,
  'POST /payg/admin/plans': CONSOLE,
  'PUT /payg/admin/plans/{code}': CONSOLE,
  'DELETE /payg/admin/plans/{code}': CONSOLE,
  'GET /payg/admin/org-plans': CONSOLE,
  'POST /payg/admin/org-plans': CONSOLE,
  'DELETE /payg/admin/org-plans/{organization_id}': CONSOLE,
  'GET /payg/admin/features': CONSOLE,
  'POST /payg/admin/features': CONSOLE,
  'DELETE /payg/admin/features/{id}': CONSOLE,
};

describe('isolation matrix: organization B on organization A, every route', () => {
  let t: TestApp;
  let p: Platform;
  let a: World;
  let b: World;
  let fp: Fingerprints;
  let smtp: FakeSmtp;

  beforeAll(async () => {
    // A's owner emails an invoice as the control call: a mail server that takes it.
    smtp = await new FakeSmtp().start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    p = await seedPlatform(t);
    a = await seedWorld(t, p, { label: 'a' });
    b = await seedWorld(t, p, { label: 'b' });
    fp = await Fingerprints.open(t.databaseUrl);
  }, 120_000);
  afterAll(async () => {
    await fp?.close();
    await t?.close();
    await smtp?.close();
  });

  it('has a row for every route the application serves (and none for a route it does not)', () => {
    const served = registeredRoutes(t.app).map(routeKey);
    const missing = served.filter((k) => !(k in SCOPED) && !(k in NOT_SCOPED)).map((k) => `${k}: add it to the isolation matrix`);
    const both = served.filter((k) => k in SCOPED && k in NOT_SCOPED).map((k) => `${k}: both scoped and not scoped`);
    const stale = [...Object.keys(SCOPED), ...Object.keys(NOT_SCOPED)].filter((k) => !served.includes(k)).map((k) => `${k}: no such route`);
    const noCall = Object.keys(SCOPED).filter((k) => !ROUTE_CALLS[k]).map((k) => `${k}: no call in route-calls.ts`);
    expect([...missing, ...both, ...stale, ...noCall]).toEqual([]);
  });

  it('the worlds really hold the data the matrix looks for (a test that cannot fail is a defect)', async () => {
    // A's own owner sees A's strings where B must not.
    const own = await send(t, 'GET', { path: '/payg/registered-customers', query: { search_term: a.customer.name } }, { bearer: a.owner.token });
    expect(own.status).toBe(200);
    expect(own.text).toContain(a.customer.id_number);
    const exported = await send(t, 'GET', { path: '/payg/export-customers-csv' }, { bearer: a.owner.token });
    expect(exported.text).toContain(a.customer.phone);
    // The export's activity log entry lands just after the reply: wait for it, or the next test sees A's rows change.
    expect(await settledAuditEntry(t, { organization_id: a.org, action: 'customers.exported' })).not.toBeNull();
    const before = await fp.ofOrganization(a.org);
    expect(Object.keys(before).length).toBeGreaterThan(15);
    expect(Object.values(before).filter((f) => !f.startsWith('0:')).length).toBeGreaterThan(12);
  });

  it("never answers A's data to B and never changes A's rows", async () => {
    const problems: string[] = [];
    const refused: { key: string; method: string; call: Call; label: string }[] = [];
    // Reads first: B's own writes (a payment notice naming A's serial, say) are B's data afterwards.
    const routes = registeredRoutes(t.app).sort((x, y) => Number(x.method !== 'GET') - Number(y.method !== 'GET'));
    for (const route of routes) {
      const key = routeKey(route);
      const allowed = SCOPED[key];
      if (!allowed) continue;
      for (const call of await buildCalls(key, { t, p, w: a })) {
        const before = await fp.ofOrganization(a.org);
        const creds = call.apiKey ? { apiKey: await currentApiKey(t, b.org) } : { bearer: b.owner.token };
        const { status, text } = await send(t, route.method, call, creds);
        const after = await fp.ofOrganization(a.org);
        const sent = JSON.stringify(call);
        const label = `${key} ${JSON.stringify({ path: call.path, query: call.query, body: call.body })}`;
        if (!allowed.includes(status)) problems.push(`${label}: status ${status} (expected ${allowed.join(' or ')}): ${text.slice(0, 200)}`);
        const leaked = a.secrets.filter((s) => text.includes(s) && !sent.includes(s));
        if (leaked.length) problems.push(`${label}: reply carries A's ${leaked.join(', ')}`);
        const changed = changedTables(before, after);
        if (changed.length) problems.push(`${label}: changed A's rows in ${changed.join(', ')}`);
        if (status >= 300) refused.push({ key, method: route.method, call, label });
      }
    }
    // Control: every call refused to B works for A itself, so the refusal is not a wrong path or a missing row.
    for (const { method, call, label } of refused) {
      const control = await send(t, method, call, call.apiKey ? { apiKey: await currentApiKey(t, a.org) } : { bearer: a.owner.token });
      if (control.status >= 300) problems.push(`${label}: A's own owner gets ${control.status}: ${control.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(refused.length).toBeGreaterThan(30);
  }, 300_000);

  it("lets B use A's names for B's own rows without touching A's or revealing that A has them", async () => {
    const before = await fp.ofOrganization(a.org);
    const as = b.owner.auth;
    // No existence oracle: the same ID number, serial, OEM name and setting key are free in B.
    const customer = await t.http.post('/payg/register-customer').set(as).send({ customer_name: 'Somebody', id_number: a.customer.id_number, phone_contact: a.customer.phone });
    expect(customer.status).toBe(201);
    const item = await t.http.post('/payg/items/add').set(as).send({ serial_number: a.freeDevice.serial, product_name: 'Kit' });
    expect(item.status).toBe(201);
    expect((await t.http.post('/payg/config/product-oem/upsert').set(as).send({ product_oem: a.oem, value_divider: 2 })).status).toBe(200);
    expect((await t.http.post('/payg/config/create').set(as).send({ key: a.configEntry.key, value: 'b' })).status).toBe(201);
    // B's device with A's serial, given to B's customer, takes B's payment; A's device gets nothing.
    expect((await t.http.post('/payg/items/assign').set(as).send({ customer_id: customer.body.customer_id, item_serial_number: a.freeDevice.serial })).status).toBe(200);
    const pay = await t.http.post('/payg/payments').set(as).send({ serial_number: a.freeDevice.serial, amount: 10, payment_method: 'cash' });
    expect(pay.status).toBe(201);
    expect(changedTables(before, await fp.ofOrganization(a.org))).toEqual([]);
    for (const res of [customer, item, pay]) {
      const leaked = a.secrets.filter((s) => res.text.includes(s) && s !== a.customer.id_number && s !== a.customer.phone && s !== a.freeDevice.serial);
      expect(leaked).toEqual([]);
    }
  });
});
