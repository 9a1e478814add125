import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { auditCategoryOf, ZOrganizationActivitySchema } from '@kidogo/contracts';
import { createTestApp, createTestDatabase, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, type TestApp } from './support/test-app.js';
import { registeredRoutes, routeKey } from './support/routes.js';
import { buildCalls, send } from './support/route-calls.js';
import { ApiProcess } from './support/api-process.js';
import { DEFAULT_PASSWORD, mpesaPaybillSms, seedUser } from './support/factories.js';
import { hex, seedPlatform, seedWorld, type Platform, type World } from './support/world.js';
import { toErrorReply } from '../src/common/errors.js';
import { settledAuditEntry } from './support/audit.js';

/**
 * The hardening list of issue 10, each item shown over HTTP: the audit trail
 * of deletions, user changes, status changes, token generations and
 * sign-ins; secrets never in the logs; security headers and no caching on
 * the API and on the web app; the CORS allow-list; short-lived access
 * tokens; internal errors that say nothing about the inside.
 */

/** Routes that must leave an audit entry naming who did it, and the action it is recorded as. */
const AUDITED: Record<string, RegExp> = {
  // every deletion
  'DELETE /payg/customers/{id}': /^customer\.deleted$/,
  'DELETE /payg/customers/{id}/sms-opt-out': /^customer\.sms_opted_in$/,
  'DELETE /payg/customers/{id}/portal-link': /^customer\.portal_link_revoked$/,
  'POST /payg/customers/{id}/erase': /^customer\.erased$/,
  'GET /payg/customers/{id}/personal-data': /^customer\.data_exported$/,
  'DELETE /payg/customers/{id}/documents/{document_id}': /^customer\.document_deleted$/,
  'DELETE /payg/items/{serial_number}': /^item\.deleted$/,
  'DELETE /payg/stock-locations/{location_id}': /^stock_location\.deleted$/,
  'DELETE /payg/payments/templates/{id}': /^template\.deleted$/,
  'DELETE /payg/invoices/{id}': /^invoice\.deleted$/,
  'DELETE /payg/users/{id}': /^user\.deleted$/,
  'DELETE /payg/config/{id}': /^config\.deleted$/,
  'DELETE /payg/admin/invoices/{id}': /^invoice\.deleted$/,
  'DELETE /payg/admin/organizations/{id}': /^organization\.deleted$/,
  'DELETE /payg/admin/users/{id}': /^user\.deleted$/,
  'DELETE /payg/admin/payment-providers/{id}': /deleted$/,
  'DELETE /payg/admin/oem-credentials/{id}': /^oem_credentials\.deleted$/,
  'DELETE /payg/admin/plans/{code}': /^plan\.deleted$/,
  'DELETE /payg/admin/org-plans/{organization_id}': /^plan\.unassigned$/,
  'DELETE /payg/admin/features/{id}': /^feature\.deleted$/,
  // user changes
  'POST /payg/users': /^user\.created$/,
  'PUT /payg/users/{id}': /^user\.updated$/,
  'POST /payg/admin/users': /^user\.created$/,
  'PUT /payg/admin/users/{id}': /^user\.updated$/,
  'POST /payg/admin/create-super-admin': /^user\.created$/,
  'POST /payg/auth/change-password': /^user\.password_changed$/,
  'POST /payg/users/{id}/2fa/reset': /^user\.2fa_reset$/,
  'POST /payg/users/{id}/sign-out': /^user\.signed_out$/,
  'DELETE /payg/auth/sessions/{session_id}': /^user\.signed_out$/,
  'POST /payg/auth/sessions/sign-out-others': /^user\.signed_out$/,
  'POST /payg/auth/sessions/sign-out-everywhere': /^user\.signed_out$/,
  'POST /payg/auth/2fa/enable': /^user\.2fa_enabled$/,
  'POST /payg/auth/2fa/disable': /^user\.2fa_disabled$/,
  'POST /payg/auth/2fa/recovery-codes': /^user\.2fa_recovery_codes$/,
  // status changes
  'PUT /payg/admin/organizations/{id}/status': /^organization\.status_changed$/,
  'PUT /payg/customers/{id}': /^customer\.status_changed$/,
  'PUT /payg/invoices/{id}/status': /^invoice\.status_changed$/,
  'PUT /payg/admin/invoices/{id}/status': /^invoice\.status_changed$/,
  // token generations and the keys that let money in
  'POST /payg/generate-token-by-days': /^token\.generate$/,
  'POST /payg/generate-token': /^token\.generate$/,
  'POST /payg/update-token-count': /^token\.count_update$/,
  'POST /payg/settings/api-key/rotate': /^api_key\.rotate$/,
  'PUT /payg/settings/commissions': /^commissions\.update$/,
  'PUT /payg/settings/ussd': /^ussd\.(enabled|disabled)$/,
  'POST /payg/settings/ussd/rotate': /^ussd\.address_replaced$/,
  'PUT /payg/settings/follow-on-sales': /^follow_on\.update$/,
  'PUT /payg/settings/warranties': /^warranties\.update$/,
  'PUT /payg/settings/agreement': /^agreement\.settings_updated$/,
  // a device taken back: a lock token and a write-off
  'POST /payg/items/repossess': /^item\.repossessed$/,
  'POST /payg/items/discount': /^item\.discounted$/,
  // a plan's terms are the contracts of the devices paid on it
  'POST /payg/payments/templates/create': /^template\.created$/,
  'PUT /payg/payments/templates/{id}': /^template\.updated$/,
  'POST /payg/items/discounts/{discount_id}/void': /^item\.discount_voided$/,
  // a device swapped: the account moved, two codes
  'POST /payg/items/swap': /^item\.swapped$/,
  'POST /payg/items/transfer': /^item\.account_transferred$/,
  // credentials for integrations
  'POST /payg/auth/api-tokens': /^api_token\.created$/,
  'DELETE /payg/auth/api-tokens/{id}': /^api_token\.revoked$/,
  // where the organization's events go, and the secret that signs them
  'DELETE /payg/webhooks/{id}': /^webhook\.deleted$/,
  'POST /payg/webhooks/{id}/rotate-secret': /^webhook\.secret_rotated$/,
  // after-sales work on a device
  'POST /payg/tickets': /^ticket\.opened$/,
  'PATCH /payg/tickets/{ticket_id}': /^ticket\.status_changed$/,
  'POST /payg/tickets/{ticket_id}/notes': /^ticket\.noted$/,
  'POST /payg/sms-campaigns/{campaign_id}/cancel': /^sms_campaign\.cancelled$/,
  // cash handed over, and a handover taken back
  'POST /payg/cash/handovers': /^cash\.handover_recorded$/,
  'POST /payg/cash/handovers/{handover_id}/void': /^cash\.handover_voided$/,
  // an agent's commission paid, and a payout taken back
  'POST /payg/commissions/payouts': /^commission\.paid$/,
  'POST /payg/commissions/payouts/all': /^commission\.paid$/,
  'POST /payg/commissions/payouts/{payout_id}/void': /^commission\.payout_voided$/,
  // money taken off a device
  'POST /payg/payments/{id}/reverse': /^payment\.reverse$/,
  // sign-in
  'POST /payg/authenticate': /^auth\.login$/,
};

/** Which served routes must be in AUDITED: every deletion, anything about users, statuses and tokens, sign-in and passwords. */
const mustAudit = (key: string) =>
  key.startsWith('DELETE ') || /\/users\b|create-super-admin|change-password|\/status$|generate-token|update-token-count|api-key\/rotate|\/authenticate$/.test(key);

describe('security hardening', () => {
  let t: TestApp;
  let p: Platform;
  let w: World;
  let web: string;

  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'kidogo-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><html><body><div id="root"></div><script src="/assets/app.js"></script></body></html>');
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log("kidogo")');
    t = await createTestApp({ env: { WEB_DIST: web, CORS_ORIGINS: 'https://backoffice.example.org' } });
    p = await seedPlatform(t);
    w = await seedWorld(t, p, { label: 'sec' });
  }, 120_000);
  afterAll(() => t?.close());

  describe('audit log', () => {
    it('names every deletion, user change, status change and token route (a new one fails here)', () => {
      const served = registeredRoutes(t.app).map(routeKey);
      const missing = served.filter((k) => mustAudit(k) && !(k in AUDITED) && !k.startsWith('GET ')).map((k) => `${k}: add it to AUDITED`);
      const stale = Object.keys(AUDITED).filter((k) => !served.includes(k)).map((k) => `${k}: no such route`);
      expect([...missing, ...stale]).toEqual([]);
    });

    it('records who did it, and the super admin sees it in the organization activity', async () => {
      const problems: string[] = [];
      for (const route of registeredRoutes(t.app)) {
        const key = routeKey(route);
        const action = AUDITED[key];
        if (!action) continue;
        const caller = route.path.startsWith('/payg/admin') ? p.root : w.owner;
        const [call, ...rest] = await buildCalls(key, { t, p, w });
        const since = new Date();
        const { status, text } = await send(t, route.method, call!, { bearer: caller.token });
        if (status >= 300) {
          problems.push(`${key}: ${status} ${text.slice(0, 160)}`);
          continue;
        }
        // Some entries are written just after the reply (they never fail the request they describe).
        const who = key === 'POST /payg/authenticate' ? (call!.form as { username: string }).username : caller.username;
        let entry = null;
        for (let i = 0; i < 40 && !entry; i++) {
          const rows = await t.db.platform.auditLog.findMany({ where: { created_at: { gte: since }, actor_username: who }, orderBy: { id: 'desc' } });
          entry = rows.find((r) => action.test(r.action)) ?? null;
          if (!entry) await new Promise((r) => setTimeout(r, 25));
        }
        if (!entry) problems.push(`${key}: no audit entry matching ${action} by ${who}`);
        // The route's further calls put things back (change-password's second call restores the password the next calls use).
        for (const r of rest) await send(t, route.method, r, { bearer: caller.token });
      }
      expect(problems).toEqual([]);

      // Every kind of entry the organization's Activity Log shows can be found under one of its kinds (filters).
      const kinds = await t.db.platform.auditLog.findMany({ where: { organization_id: w.org }, distinct: ['action'], select: { action: true } });
      expect(kinds.length).toBeGreaterThan(20);
      expect(kinds.map((k) => k.action).filter((a) => auditCategoryOf(a) === null)).toEqual([]);

      const activity = ZOrganizationActivitySchema.parse(
        (await t.http.get(`/payg/admin/organizations/${w.org}/activity`).query({ limit: 200 }).set(p.root.auth).expect(200)).body,
      );
      const actions = new Set(activity.data.map((a) => a.action));
      for (const a of ['customer.deleted', 'item.deleted', 'user.created', 'user.deleted', 'token.generate', 'customer.status_changed']) expect(actions).toContain(a);
      // Organization users do not read the audit log.
      await t.http.get(`/payg/admin/organizations/${w.org}/activity`).set(w.owner.auth).expect(403);
    }, 120_000);

    it('records failed sign-ins too, with the address, and the same reply for an unknown user and a wrong password', async () => {
      const unknown = await t.http.post('/payg/authenticate').set('X-Forwarded-For', '10.1.2.3').send({ username: `nobody-${hex()}`, password: 'whatever-1' });
      const wrong = await t.http.post('/payg/authenticate').set('X-Forwarded-For', '10.1.2.3').send({ username: w.staff.username, password: 'whatever-1' });
      expect([unknown.status, wrong.status]).toEqual([401, 401]);
      expect(unknown.body).toEqual(wrong.body);
      // Written just after the reply, so that a failing audit write never changes the answer.
      const failed = await settledAuditEntry(t, { action: 'auth.login_failed', organization_id: w.org });
      expect(failed).toMatchObject({ ip: '10.1.2.3', entity_id: String(w.staff.user_id) });
    });
  });

  describe('HTTP', () => {
    const web = ['/', '/dashboard', '/customers/42', '/assets/app.js'];
    const api = ['/payg/live', '/payg/registered-customers'];

    it("sends a page's security headers on the web app (deep links and assets included) and on the API's documentation", async () => {
      for (const path of [...web, '/payg/docs']) {
        const res = await t.http.get(path).set(w.owner.auth).redirects(1);
        expect([path, res.status]).toEqual([path, 200]);
        const h = res.headers;
        expect(h['content-security-policy']).toMatch(/default-src 'self'/);
        expect(h['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
        expect(h['content-security-policy']).toMatch(/frame-ancestors 'self'/);
        expect(h['x-content-type-options']).toBe('nosniff');
        expect(h['x-frame-options']).toBe('SAMEORIGIN');
        expect(h['referrer-policy']).toBe('no-referrer');
        expect(h['strict-transport-security']).toMatch(/max-age=\d+/);
        expect(h['x-powered-by']).toBeUndefined();
      }
    });

    it("sends an API's security headers on every API reply, errors included: nothing in one may run, be framed or be kept", async () => {
      const replies = [
        ...(await Promise.all(api.map((path) => t.http.get(path).set(w.owner.auth).expect(200)))),
        await t.http.get('/payg/registered-customers').expect(401),
        await t.http.get('/payg/no-such-route').set(w.owner.auth).expect(404),
        await t.http.get('/payg/docs-json').expect(200),
      ];
      for (const res of replies) {
        expect(res.headers).toMatchObject({
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
          'x-frame-options': 'DENY',
          'x-content-type-options': 'nosniff',
          'strict-transport-security': 'max-age=31536000; includeSubDomains',
          'cross-origin-resource-policy': 'same-origin',
        });
        expect(res.headers['x-powered-by']).toBeUndefined();
        // A page's own headers are not needed where no page is.
        expect(res.headers['referrer-policy']).toBeUndefined();
      }
    });

    it('serves only the web app\'s own files, and the API\'s JSON 404 for an unknown API path', async () => {
      const page = await t.http.get('/customers/42').expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['x-robots-tag']).toBeUndefined();
      // A customer's own page: listed by no search engine, and sending no referrer.
      const own = await t.http.get('/my/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd').expect(200);
      expect(own.text).toContain('<div id="root">');
      expect(own.headers).toMatchObject({ 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' });
      expect(page.text).toContain('<div id="root">');
      expect((await t.http.get('/assets/app.js').expect(200)).text).toBe('console.log("kidogo")');
      // An old build's chunk that is gone: a 404, never the page in its place.
      expect((await t.http.get('/assets/app-0ld.js').expect(404)).text).not.toContain('<div id="root">');
      // Outside WEB_DIST nothing is read: a path that climbs out gets the page or a 404, never the file.
      for (const path of ['/assets/../../../../etc/passwd', '/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd']) {
        const res = await t.http.get(path);
        expect([path, res.status === 404 || res.text.includes('<div id="root">')]).toEqual([path, true]);
        expect(res.text).not.toMatch(/root:x:0/);
      }
      for (const method of ['get', 'post'] as const) {
        const res = await t.http[method]('/payg/no-such-route').set(w.owner.auth).expect(404);
        const m = `Cannot ${method.toUpperCase()} /payg/no-such-route`;
        expect(res.body).toEqual({ detail: m, message: m });
      }
    });

    it('never lets a browser or a proxy cache an API reply', async () => {
      for (const path of api) expect((await t.http.get(path).set(w.owner.auth)).headers['cache-control']).toBe('no-store');
      expect((await t.http.get('/payg/registered-customers')).headers['cache-control']).toBe('no-store');
      // The web app's files may be cached.
      expect((await t.http.get('/assets/app.js')).headers['cache-control']).toMatch(/max-age=\d+/);
    });

    it('answers cross-origin requests only for the origins in CORS_ORIGINS', async () => {
      const ok = await t.http.options('/payg/registered-customers').set('Origin', 'https://backoffice.example.org').set('Access-Control-Request-Method', 'GET');
      expect(ok.headers['access-control-allow-origin']).toBe('https://backoffice.example.org');
      const evil = await t.http.options('/payg/registered-customers').set('Origin', 'https://evil.example.com').set('Access-Control-Request-Method', 'GET');
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
      const get = await t.http.get('/payg/registered-customers').set(w.owner.auth).set('Origin', 'https://evil.example.com');
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('says nothing about the inside when something breaks: no stack, no SQL, no table names', async () => {
      const db = new pg.Client({ connectionString: t.databaseUrl });
      await db.connect();
      await db.query('ALTER TABLE payment_templates RENAME TO payment_templates_gone');
      try {
        const res = await t.http.get('/payg/payments/templates').set(w.owner.auth);
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ detail: 'Internal server error', message: 'Internal server error' });
      } finally {
        await db.query('ALTER TABLE payment_templates_gone RENAME TO payment_templates');
        await db.end();
      }
      const internal = toErrorReply(new Error('connect ECONNREFUSED 10.0.0.5:5432 at /srv/app/dist/x.js:1:2'));
      expect(internal).toMatchObject({ status: 500, body: { detail: 'Internal server error', message: 'Internal server error' } });
    });
  });

  describe('secrets at rest', () => {
    it('stores device keys, provider configs, OEM credentials and the API key sealed, and shows them masked or not at all', async () => {
      const secret = { device: hex(16), sms: `sms-${hex(8)}`, oem: `oem-${hex(8)}`, provider: `prov-${hex(8)}` };
      const as = w.owner.auth;
      const serial = `SEC-${hex()}`;
      const item = await t.http.post('/payg/items/add').set(as).send({ serial_number: serial, product_name: 'Lamp', secret_key: secret.device, starting_code: 987654321 });
      expect(item.status).toBe(201);
      await t.http.put('/payg/settings/sms-provider').set(as).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/x', secret: secret.sms } }).expect(200);
      await t.http.post('/payg/config/credentials/upsert').set(as).send({ organization_id: w.org, oem_name: 'Sec', credentials: { password: secret.oem } }).expect(200);
      const org = `sec-${hex()}`;
      await t.http.post('/payg/admin/organizations').set(p.root.auth).send({ organization_id: org }).expect(201);
      await t.http.post('/payg/admin/payment-providers').set(p.root.auth).send({ provider: 'africastalking', organization_id: org, config: { username: 'u', api_key: secret.provider } }).expect(201);
      const key = (await t.http.get('/payg/settings/api-key').set(as).expect(200)).body.api_key as string;

      // Every reply that shows them: masked or absent.
      const replies = [
        item.text,
        (await t.http.post('/payg/items/fetch').set(as).send({ serial_number: serial })).text,
        (await t.http.get('/payg/settings/sms-provider').set(as)).text,
        (await t.http.get(`/payg/config/credentials/${w.org}`).set(as)).text,
        (await t.http.get('/payg/admin/payment-providers').query({ organization_id: org }).set(p.root.auth)).text,
        (await t.http.get('/payg/admin/oem-credentials').query({ organization_id: w.org }).set(p.root.auth)).text,
      ];
      for (const s of Object.values(secret)) for (const r of replies) expect(r).not.toContain(s);
      expect(replies[2]).toContain(`••••••••${secret.sms.slice(-4)}`);

      // In the database: no column holds one of them in the clear.
      const db = new pg.Client({ connectionString: t.databaseUrl });
      await db.connect();
      try {
        const tables = (await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)).rows;
        for (const { table_name } of tables) {
          const dump = (await db.query<{ row: string }>(`SELECT x::text AS row FROM "${table_name}" x`)).rows.map((r) => r.row).join('\n');
          for (const s of [...Object.values(secret), key]) expect([table_name, dump.includes(s)]).toEqual([table_name, false]);
        }
      } finally {
        await db.end();
      }
    });
  });

  describe('sessions', () => {
    it('issues access tokens that live 15 minutes, and refresh tokens that are rotated and revoked on sign-out', async () => {
      // A user of its own: the audit test above turns two-factor sign-in on for the world's users.
      const staff = await seedUser(t, { organization_id: w.org, role: 'staff' });
      const login = await t.http.post('/payg/authenticate').send({ username: staff.username, password: DEFAULT_PASSWORD }).expect(200);
      expect(login.body.expires_in).toBe(900);
      const claims = JSON.parse(Buffer.from(login.body.access_token.split('.')[1], 'base64url').toString()) as { iat: number; exp: number };
      expect(claims.exp - claims.iat).toBe(900);
      const next = await t.http.post('/payg/refresh').send({ refresh_token: login.body.refresh_token }).expect(200);
      await t.http.post('/payg/refresh').send({ refresh_token: login.body.refresh_token }).expect(401);
      await t.http.post('/payg/logout').send({ refresh_token: next.body.refresh_token }).expect(200);
      await t.http.post('/payg/refresh').send({ refresh_token: next.body.refresh_token }).expect(401);
    });

    it('ends every session of a user whose password is changed', async () => {
      const user = await seedUser(t, { organization_id: w.org, role: 'staff', username: `pw-${hex()}` });
      const login = await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(200);
      await t.http.put(`/payg/users/${user.user_id}`).set(w.owner.auth).send({ password: 'a-brand-new-password' }).expect(200);
      await t.http.post('/payg/refresh').send({ refresh_token: login.body.refresh_token }).expect(401);
    });
  });
});

describe('secrets never reach the logs', () => {
  it('a run of the real API at the most verbose log level prints none of the secrets it handled', async () => {
    const secrets = {
      adminPassword: `Adm1n-${hex(8)}`,
      webhookSecret: `hook-${hex(8)}`,
      atKey: `atkey-${hex(8)}`,
      ownerPassword: `Own3r-${hex(8)}`,
      wrongPassword: `Wr0ng-${hex(8)}`,
      deviceKey: hex(16),
      providerKey: `prov-${hex(8)}`,
      oemPassword: `oem-${hex(8)}`,
      smsSecret: `sms-${hex(8)}`,
    };
    const databaseUrl = await createTestDatabase();
    const api = new ApiProcess(databaseUrl, {
      LOG_LEVEL: 'verbose',
      PAYG_ADMIN_USERNAME: 'root',
      PAYG_ADMIN_PASSWORD: secrets.adminPassword,
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: 'http://127.0.0.1:9/unreachable',
      SMS_WEBHOOK_SECRET: secrets.webhookSecret,
      AT_API_KEY: secrets.atKey,
      OUTBOX_ENABLED: 'true',
      OUTBOX_POLL_MS: '100',
    });
    const seen: string[] = [];
    try {
      await api.start();
      const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`${api.baseUrl}/payg${path}`, {
          method,
          headers: { 'Content-Type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
      };
      const root = await call('POST', '/authenticate', { username: 'root', password: secrets.adminPassword });
      expect(root.status).toBe(200);
      const rootAuth = { Authorization: `Bearer ${root.body.access_token as string}` };
      seen.push(root.body.access_token as string, root.body.refresh_token as string);
      expect((await call('POST', '/authenticate', { username: 'root', password: secrets.wrongPassword })).status).toBe(401);
      const org = `logs-${hex()}`;
      expect((await call('POST', '/admin/organizations', { organization_id: org }, rootAuth)).status).toBe(201);
      expect((await call('POST', '/admin/users', { username: `owner-${org}`, email: 'o@mail.test', password: secrets.ownerPassword, organization_id: org, role: 'owner' }, rootAuth)).status).toBe(201);
      const owner = await call('POST', '/authenticate', { username: `owner-${org}`, password: secrets.ownerPassword });
      const auth = { Authorization: `Bearer ${owner.body.access_token as string}` };
      seen.push(owner.body.access_token as string, owner.body.refresh_token as string);
      // A second sign-in, refreshed and signed out (signing out ends its access tokens, so not the one used below).
      const second = await call('POST', '/authenticate', { username: `owner-${org}`, password: secrets.ownerPassword });
      seen.push(second.body.access_token as string, second.body.refresh_token as string);
      const refreshed = await call('POST', '/refresh', { refresh_token: second.body.refresh_token });
      seen.push(refreshed.body.access_token as string, refreshed.body.refresh_token as string);
      expect((await call('POST', '/logout', { refresh_token: refreshed.body.refresh_token })).status).toBe(200);
      const key = (await call('GET', '/settings/api-key', undefined, auth)).body.api_key as string;
      const rotated = (await call('POST', '/settings/api-key/rotate', undefined, auth)).body.api_key as string;
      seen.push(key, rotated);
      expect((await call('POST', '/items/add', { serial_number: 'LOG-1', product_name: 'Lamp', secret_key: secrets.deviceKey, starting_code: 123456789 }, auth)).status).toBe(201);
      expect((await call('PUT', '/settings/sms-provider', { provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/org', secret: secrets.smsSecret } }, auth)).status).toBe(200);
      expect((await call('POST', '/config/credentials/upsert', { organization_id: org, oem_name: 'SunCo', credentials: { password: secrets.oemPassword } }, auth)).status).toBe(200);
      expect((await call('POST', '/admin/payment-providers', { provider: 'africastalking', organization_id: org, config: { username: 'u', api_key: secrets.providerKey } }, rootAuth)).status).toBe(201);
      // Money in with the old key (refused) and the new one; the reply SMS fails to go out (the webhook is unreachable).
      expect((await call('POST', '/external/receive-phoneteletalk', { message: 'x' }, { 'X-API-Key': key })).status).toBe(401);
      const template = await call('POST', '/payments/templates/create', { template_name: 'Daily', daily_price: 10 }, auth);
      const customer = await call('POST', '/register-customer', { customer_name: 'Log Test', id_number: 'LOG-ID', phone_contact: '0712000111' }, auth);
      await call('POST', '/onboarding', { customer_id: customer.body.customer_id, item_serial_number: 'LOG-1', template_id: template.body.template_id }, auth);
      const paid = await call('POST', '/external/receive-phoneteletalk', { from: 'MPESA', message: mpesaPaybillSms({ code: `L${hex(4).toUpperCase()}X`, amount: '100.00', account: 'LOG-1' }) }, { 'X-API-Key': rotated });
      expect(paid.body.status).toBe('processed');
      seen.push(String(paid.body.token));
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      await api.kill();
    }
    const log = api.output.join('');
    // The capture works: the start, the super admin's creation and the routes are in it.
    expect(log).toMatch(/Kidogo is up/);
    expect(log).toMatch(/Created the super admin "root"/);
    expect(log).toMatch(/Mapped \{\/payg\/authenticate, POST\}/);
    const leaked = [...Object.values(secrets), TEST_JWT_SECRET, TEST_ENCRYPTION_KEY, ...seen].filter((s) => s && log.includes(s));
    expect(leaked).toEqual([]);
  }, 120_000);
});
