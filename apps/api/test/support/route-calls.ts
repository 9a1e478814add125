import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { SecretBox, sha256 } from '../../src/common/crypto.js';
import type { TestApp } from './test-app.js';
import { mpesaPaybillSms, seedCustomer, seedItem, seedUser, DEFAULT_PASSWORD } from './factories.js';
import { binaryParser, pdfText } from './pdf.js';
import { fresh, hex, phone, receipt, TOTP_SECRET, type Platform, type World } from './world.js';
import { totpCode } from '../../src/auth/totp.js';
import { DARAJA_KEYS, FakeDaraja } from './fake-daraja.js';
import { FakeMomo, MOMO_KEYS } from './fake-momo.js';
import { AIRTEL_KEYS, FakeAirtel } from './fake-airtel.js';

/**
 * How to call every route of the API successfully as a user of the world
 * `w` (its own ids, serial numbers, search terms). The isolation matrix
 * hands these calls organization A's world and sends them with organization
 * B's credentials; the role matrix hands each caller its own world; the
 * bad-input suite takes the path and replaces the body and query. A route
 * missing here fails all three.
 */
export interface Call {
  /** The concrete path, parameters filled in. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Sent form-encoded instead of JSON. */
  form?: Record<string, string>;
  file?: { field: string; name: string; content: string | Buffer };
  /** Text fields sent beside `file` in the multipart body. */
  fields?: Record<string, string>;
  /** Authenticate with the organization's X-API-Key instead of a bearer token. */
  apiKey?: boolean;
  /** Headers of the request besides the credentials (X-Forwarded-For: a call that must come from its own address). */
  headers?: Record<string, string>;
  /** Run after the call: puts back what later calls depend on (the callers' own sessions, which signing out everywhere ends). */
  after?: () => Promise<unknown>;
}

export interface CallContext {
  t: TestApp;
  p: Platform;
  w: World;
}

type Built = Call | Call[];
export type CallBuilder = (c: CallContext) => Built | Promise<Built>;

/** '/payg/customers/{id}' + {id: 5} → '/payg/customers/5' */
export function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    if (!(k in params)) throw new Error(`${template}: no value for {${k}}`);
    return encodeURIComponent(String(params[k]));
  });
}

const csv = (lines: string[]) => `${lines.join('\n')}\n`;
const STATEMENT_HEADER =
  'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.';
const statementRow = (code: string, account: string) =>
  [code, '2024-06-05 10:15:32', '2024-06-05 10:15:30', 'Pay Bill Online', 'Completed', '100.00', '', '45300.00', 'true', 'Pay Bill Online', '254712345678 - JOHN KAMAU', '', account].join(',');

/** A new open service ticket on the world's device (for the routes that take a ticket id). */
async function seedTicket(t: TestApp, w: World): Promise<number> {
  const { rows } = await t.db.pool.query(
    `INSERT INTO service_tickets (organization_id, item_id, customer_id, category, description, opened_by)
     VALUES ($1, $2, $3, 'device_fault', $4, $5) RETURNING ticket_id`,
    [w.org, w.device.id, w.customer.id, `Lamp flickers ${w.tag}`, w.staff.user_id],
  );
  return rows[0].ticket_id as number;
}

/** A bulk SMS of the world's organization set to go tomorrow, with one text queued (for the routes that take a campaign id). */
async function seedCampaign(t: TestApp, w: World): Promise<number> {
  const { rows } = await t.db.pool.query(
    `WITH c AS (
       INSERT INTO sms_campaigns (organization_id, text, audience, audience_text, send_at, created_by, recipients, parts)
       VALUES ($1, $2, '{"customers":"all"}', 'All customers', now() + interval '1 day', $3, 1, 1) RETURNING campaign_id, send_at
     ), m AS (
       INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, status, sent_by, campaign_id, next_attempt_at)
       SELECT $1, $2, $4, 'queued', 'processed', $3, campaign_id, send_at FROM c RETURNING 1
     )
     SELECT campaign_id FROM c`,
    [w.org, `Our shop moves ${w.tag}`, w.owner.username, w.customer.phone],
  );
  return rows[0].campaign_id as number;
}

/** 500 in cash recorded by the world's staff user (who then holds it), straight into the ledger. */
async function seedCash(t: TestApp, w: World): Promise<void> {
  await t.db.pool.query(
    `INSERT INTO payments (organization_id, item_id, customer_id, amount, currency, payment_method, status, reference, source, recorded_by, collected_by, days_bought)
     SELECT $1::varchar, item_id, customer_id, 500, 'KES', 'cash', 'completed', $2, 'manual', $3, $3, 0 FROM items WHERE organization_id = $1::varchar AND serial_number = $4`,
    [w.org, `CASH-${hex()}`, w.staff.username, w.device.serial],
  );
}

/** A handover of 100 from the world's staff user, for the void route. */
async function seedHandover(t: TestApp, w: World): Promise<number> {
  await seedCash(t, w);
  const { rows } = await t.db.pool.query(
    `INSERT INTO cash_handovers (organization_id, collector, amount, currency, handed_at, received_by) VALUES ($1, $2, 100, 'KES', now(), $3) RETURNING handover_id`,
    [w.org, w.staff.username, w.owner.username],
  );
  return rows[0].handover_id as number;
}

let commissionMonths = 0;

/**
 * A commission to pay: the world's customer (given the agent AG-MATRIX when they have none) paid 500 in a month long
 * over, a new month each call (one payout per agent and month), with commissions set when there are none.
 */
async function seedCommission(t: TestApp, w: World): Promise<{ agent: string; month: string }> {
  const n = commissionMonths++;
  const month = `${2001 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
  await t.db.pool.query(
    `UPDATE organizations SET commission_per_device = 100, commission_percent = 10
     WHERE organization_id = $1 AND commission_per_device = 0 AND commission_percent = 0`,
    [w.org],
  );
  const { rows } = await t.db.pool.query(
    `UPDATE customers SET agent_id = coalesce(nullif(btrim(agent_id), ''), 'AG-MATRIX') WHERE organization_id = $1 AND customer_id = $2
     RETURNING btrim(agent_id) AS agent`,
    [w.org, w.customer.id],
  );
  await t.db.pool.query(
    `INSERT INTO payments (organization_id, item_id, customer_id, amount, currency, payment_method, status, reference, source, recorded_by, paid_at, days_bought)
     SELECT $1::varchar, item_id, $2::int, 500, 'KES', 'cash', 'completed', $3, 'manual', $4, $5::timestamptz, 0
     FROM items WHERE organization_id = $1::varchar AND serial_number = $6`,
    [w.org, w.customer.id, `COMM-${hex()}`, w.owner.username, `${month}-15T09:00:00Z`, w.device.serial],
  );
  return { agent: rows[0].agent as string, month };
}

/** A commission payout of the world's organization, for the void route. */
async function seedPayout(t: TestApp, w: World): Promise<number> {
  const { rows } = await t.db.pool.query(
    `INSERT INTO commission_payouts (organization_id, agent, month, devices_given, payments, revenue, per_device, percent, amount, paid_by)
     VALUES ($1, $2, '2000-01-01', 1, 1, 500, 100, 10, 150, $3) RETURNING payout_id`,
    [w.org, `AG-${hex()}`, w.owner.username],
  );
  return rows[0].payout_id as number;
}

/** A new stock location of the world's organization, holding nothing (for the routes that take a location id). */
async function seedLocation(t: TestApp, w: World): Promise<number> {
  const { rows } = await t.db.pool.query(
    `INSERT INTO stock_locations (organization_id, name, description) VALUES ($1, $2, $3) RETURNING location_id`,
    [w.org, `Shop ${w.tag} ${hex()}`, `Gate 4 ${w.tag}`],
  );
  return rows[0].location_id as number;
}

let shared: Promise<FakeDaraja> | null = null;

/** An organization's payment provider row, its config sealed as the settings pages seal it, switched on. */
async function saveProvider(t: TestApp, orgId: string, provider: string, config: object): Promise<void> {
  await t.db.pool.query(
    `INSERT INTO payment_providers (organization_id, provider, config_enc, is_active, updated_at) VALUES ($1, $2, $3, true, now())
     ON CONFLICT (organization_id, provider) DO UPDATE SET config_enc = excluded.config_enc, is_active = true`,
    [orgId, provider, t.app.get(SecretBox).seal(JSON.stringify(config))],
  );
}

/**
 * Sets up M-Pesa Express for an organization against one fake Safaricom
 * shared by the test file (its server does not keep the process alive), as
 * an owner would with base_url set by the super admin: for the route tables,
 * whose calls must succeed. Requests still waiting on its devices are
 * answered (failed), so each call may ask again.
 */
/** MTN MoMo set up for an organization against one fake MTN shared by the test file, as readyMpesaExpress does for M-Pesa. */
async function readyMtnMomo(t: TestApp, orgId: string): Promise<FakeMomo> {
  sharedMomo ??= new FakeMomo().start().then((m) => {
    m.server.unref();
    return m;
  });
  const momo = await sharedMomo;
  await saveProvider(t, orgId, 'mtn_momo', { target_environment: 'sandbox', ...MOMO_KEYS, base_url: momo.url });
  return momo;
}
let sharedMomo: Promise<FakeMomo> | undefined;

/** Airtel Money set up for an organization against one fake Airtel shared by the test file, as readyMpesaExpress does for M-Pesa. */
async function readyAirtelMoney(t: TestApp, orgId: string): Promise<FakeAirtel> {
  sharedAirtel ??= new FakeAirtel().start().then((a) => {
    a.server.unref();
    return a;
  });
  const airtel = await sharedAirtel;
  await saveProvider(t, orgId, 'airtel_money', { country: 'KE', environment: 'staging', ...AIRTEL_KEYS, base_url: airtel.url });
  return airtel;
}
let sharedAirtel: Promise<FakeAirtel> | undefined;

async function readyMpesaExpress(t: TestApp, orgId: string): Promise<FakeDaraja> {
  shared ??= new FakeDaraja().start().then((d) => {
    d.server.unref();
    return d;
  });
  const daraja = await shared;
  await saveProvider(t, orgId, 'mpesa_express', { environment: 'sandbox', short_code: '174379', transaction_type: 'CustomerPayBillOnline', ...DARAJA_KEYS, base_url: daraja.url });
  await t.db.pool.query(`UPDATE payment_requests SET status = 'failed', completed_at = now() WHERE organization_id = $1 AND status = 'pending'`, [orgId]);
  return daraja;
}

/** A request to pay sent for the world's device (for the routes that take a request id, and Safaricom's result for it). */
async function seedPaymentRequest(t: TestApp, w: World, provider: 'mpesa_express' | 'mtn_momo' | 'airtel_money' = 'mpesa_express'): Promise<{ id: number; token: string }> {
  const token = `cb${hex()}${hex()}${hex()}`.slice(0, 32).padEnd(32, '0');
  const { rows } = await t.db.pool.query(
    `INSERT INTO payment_requests (organization_id, item_id, customer_id, phone_number, amount, callback_token, checkout_request_id, requested_by, provider)
     VALUES ($1, $2, $3, $4, 20, $5, $6, $7, $8) RETURNING request_id`,
    [w.org, w.device.id, w.customer.id, `254${w.customer.phone.slice(1)}`, token, provider === 'mtn_momo' ? randomUUID() : provider === 'airtel_money' ? token : `ws_CO_${token}`, w.staff.user_id, provider],
  );
  return { id: rows[0].request_id as number, token };
}

/** A fresh customer of an organization, with a Kenyan phone, a device and a link to their page. */
async function pageWithDevice(t: TestApp, org: string, tag: string): Promise<{ token: string; customer: number; item: number; device: string }> {
  const customer = await seedCustomer(t, org, { customer_name: `Page Payer ${hex()}`, phone_contact: phone() });
  const item = await seedItem(t, org, { customer_id: customer.id });
  const token = `pay-${tag}-${hex()}-${hex()}`.replace(/[^A-Za-z0-9_-]/g, '_');
  await t.db.pool.query(
    `INSERT INTO customer_portal_links (organization_id, customer_id, token_hash, created_by, expires_at) VALUES ($1, $2, $3, 'seed', now() + interval '1 day')`,
    [org, customer.id, sha256(token)],
  );
  return { token, customer: customer.id, item: item.id, device: item.serial_number };
}

/** A new unread notification of the world's staff user (for the routes that mark them read). */
async function seedNotification(t: TestApp, w: World): Promise<number> {
  const ticket = await seedTicket(t, w);
  const { rows } = await t.db.pool.query(
    `INSERT INTO user_notifications (organization_id, user_id, kind, message, ticket_id, actor_username)
     VALUES ($1, $2, 'ticket_assigned', $3, $4, 'someone') RETURNING id`,
    [w.org, w.staff.user_id, `Ticket #${ticket} was assigned to you ${w.tag}`, ticket],
  );
  return rows[0].id as number;
}

async function login(t: TestApp, w: World) {
  const user = await seedUser(t, { organization_id: w.org, role: 'staff', username: `login-${hex()}` });
  const res = await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.text}`);
  return { username: user.username, refresh_token: res.body.refresh_token as string };
}

const newUserBody = () => ({ username: `new-${hex()}`, email: `${hex()}@mail.test`, password: 'correct-horse-1' });

export const ROUTE_CALLS: Record<string, CallBuilder> = {
  // ---------------------------------------------------------------- auth, health
  'POST /payg/authenticate': async ({ t, w }) => {
    const { username } = await login(t, w);
    return { path: '/payg/authenticate', form: { username, password: DEFAULT_PASSWORD } };
  },
  'POST /payg/refresh': async ({ t, w }) => ({ path: '/payg/refresh', body: { refresh_token: (await login(t, w)).refresh_token } }),
  'POST /payg/logout': async ({ t, w }) => ({ path: '/payg/logout', body: { refresh_token: (await login(t, w)).refresh_token } }),
  'GET /payg/me': () => ({ path: '/payg/me' }),
  'GET /payg/auth/password-reset': () => ({ path: '/payg/auth/password-reset' }),
  // Each from an address of its own: one address may ask only so many times.
  'POST /payg/auth/password-reset': async ({ t, w }) => ({
    path: '/payg/auth/password-reset',
    body: { login: (await login(t, w)).username },
    headers: { 'X-Forwarded-For': `10.${parseInt(hex().slice(0, 2), 16)}.${parseInt(hex().slice(0, 2), 16)}.${parseInt(hex().slice(0, 2), 16)}` },
  }),
  'POST /payg/auth/password-reset/confirm': async ({ t, w }) => {
    const user = await seedUser(t, { organization_id: w.org, role: 'staff', username: `reset-${hex()}` });
    const token = `link-${hex()}${hex()}`;
    await t.db.platform.passwordReset.create({
      data: { user_id: user.user_id, token_hash: sha256(token), expires_at: new Date(Date.now() + 600_000) },
    });
    return { path: '/payg/auth/password-reset/confirm', body: { token, new_password: `chosen-${hex()}` } };
  },
  // The caller's own password, changed and then changed back, so the caller signs in as before afterwards.
  'POST /payg/auth/change-password': () => {
    const interim = `interim-${hex()}`;
    return [
      { path: '/payg/auth/change-password', body: { current_password: DEFAULT_PASSWORD, new_password: interim } },
      { path: '/payg/auth/change-password', body: { current_password: interim, new_password: DEFAULT_PASSWORD } },
    ];
  },
  'GET /payg/health': () => ({ path: '/payg/health' }),
  'GET /payg/health/detailed': () => ({ path: '/payg/health/detailed' }),
  'GET /payg/ready': () => ({ path: '/payg/ready' }),
  'GET /payg/live': () => ({ path: '/payg/live' }),

  // ---------------------------------------------------------------- customers
  'GET /payg/find': ({ w }) => [
    { path: '/payg/find', query: { q: w.customer.name } },
    { path: '/payg/find', query: { q: w.customer.phone } },
    { path: '/payg/find', query: { q: w.customer.id_number } },
    { path: '/payg/find', query: { q: w.device.serial } },
    { path: '/payg/find', query: { q: w.payment.code } },
  ],
  'GET /payg/registered-customers': ({ w }) => [
    { path: '/payg/registered-customers', query: { search_term: w.customer.name } },
    { path: '/payg/registered-customers', query: { search_term: w.customer.id_number, search_field: 'id_number' } },
    { path: '/payg/registered-customers', query: { search_term: w.customer.phone, search_field: 'phone_contact' } },
    { path: '/payg/registered-customers', query: { search_term: w.customer.email, search_field: 'email' } },
    { path: '/payg/registered-customers', query: { search_term: w.tag, search_field: 'county' } },
  ],
  'POST /payg/register-customer': () => ({ path: '/payg/register-customer', body: { customer_name: `New ${hex()}`, id_number: `N${hex()}`, phone_contact: phone() } }),
  'POST /payg/add-customer': () => ({ path: '/payg/add-customer', body: { customer_name: `New ${hex()}`, id_number: `N${hex()}`, phone_contact: phone() } }),
  'POST /payg/fetch-customer': ({ w }) => [
    { path: '/payg/fetch-customer', body: { customer_id: w.customer.id } },
    { path: '/payg/fetch-customer', body: { id_number: w.customer.id_number } },
    { path: '/payg/fetch-customer', body: { phone_contact: w.customer.phone } },
  ],
  'GET /payg/customers/insights': () => ({ path: '/payg/customers/insights' }),
  'GET /payg/customers/{id}': ({ w }) => ({ path: `/payg/customers/${w.customer.id}` }),
  'PUT /payg/customers/{id}': async ({ t, w }) => ({ path: `/payg/customers/${(await fresh.customer(t, w)).id}`, body: { customer_name: `Renamed ${hex()}`, status: 'inactive' } }),
  'DELETE /payg/customers/{id}': async ({ t, w }) => ({ path: `/payg/customers/${(await fresh.customer(t, w)).id}` }),
  'GET /payg/customers/{id}/items': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/items` }),
  'GET /payg/customers/{id}/payments': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/payments` }),
  'GET /payg/customers/{id}/status': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/status` }),
  'GET /payg/customers/{id}/credit-check': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/credit-check` }),
  'GET /payg/payments/customer/{id}/history': ({ w }) => ({ path: `/payg/payments/customer/${w.customer.id}/history` }),
  'POST /payg/upload-csv': () => ({
    path: '/payg/upload-csv',
    file: { field: 'csv_file', name: 'customers.csv', content: csv(['customer_name,id_number,phone_contact', `Upload ${hex()},U${hex()},${phone()}`]) },
  }),
  'GET /payg/export-customers-csv': () => ({ path: '/payg/export-customers-csv' }),

  // ---------------------------------------------------------------- devices
  'GET /payg/items': ({ w }) => [
    { path: '/payg/items', query: { serial_number: w.device.serial } },
    { path: '/payg/items', query: { product_oem: w.oem } },
  ],
  'POST /payg/items/add': () => ({ path: '/payg/items/add', body: { serial_number: `NEW-${hex()}`, product_name: 'Solar kit', price: 1000 } }),
  'POST /payg/items/add/bulk': () => ({
    path: '/payg/items/add/bulk',
    file: { field: 'file', name: 'devices.csv', content: csv(['serial_number,product_name,price', `BULK-${hex()},Solar kit,1000`]) },
  }),
  'GET /payg/items/accounts/export': () => ({ path: '/payg/items/accounts/export' }),
  // A dry run: the same checks as the import, and nothing kept (the role matrix calls it as each of A's users).
  'POST /payg/items/accounts/import': ({ w }) => ({
    path: '/payg/items/accounts/import',
    query: { dry_run: 'true' },
    file: {
      field: 'file',
      name: 'accounts.csv',
      content: csv(['serial_number,id_number,start_date,paid', `${w.freeDevice.serial},${w.customer.id_number},2026-01-05,1200`]),
    },
  }),
  'POST /payg/items/fetch': ({ w }) => [
    { path: '/payg/items/fetch', body: { serial_number: w.device.serial } },
    { path: '/payg/items/fetch', body: { serial_number: w.freeDevice.serial.toLowerCase().replace('-', ' ') } },
  ],
  'POST /payg/items/search': ({ w }) => [
    { path: '/payg/items/search', body: { query: w.device.serial } },
    { path: '/payg/items/search', body: { query: w.freeDevice.product } },
    { path: '/payg/items/search', body: { query: '', limit: 100 } },
  ],
  'POST /payg/items/assign': async ({ t, w }) => {
    const [customer, item] = await Promise.all([fresh.customer(t, w), fresh.item(t, w)]);
    return { path: '/payg/items/assign', body: { customer_id: customer.id, item_serial_number: item.serial_number } };
  },
  'POST /payg/items/unassign': async ({ t, w }) => ({ path: '/payg/items/unassign', body: { item_serial_number: (await fresh.assignedItem(t, w)).serial_number } }),
  'POST /payg/items/repossess': async ({ t, w }) => ({
    path: '/payg/items/repossess',
    body: { item_serial_number: (await fresh.assignedItem(t, w)).serial_number, reason: 'No payment for 120 days' },
  }),
  'POST /payg/items/discount': async ({ t, w }) => {
    // A device with a price to pay off: a discount needs something left to pay.
    const customer = await fresh.customer(t, w);
    const item = await fresh.item(t, w, { customer_id: customer.id, price: '5000.00' });
    return { path: '/payg/items/discount', body: { item_serial_number: item.serial_number, amount: '100.00', reason: 'Paying off early' } };
  },
  'POST /payg/items/discounts/{discount_id}/void': async ({ t, w }) => {
    const customer = await fresh.customer(t, w);
    const item = await fresh.item(t, w, { customer_id: customer.id, price: '5000.00' });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: w.org, id: item.id } }, data: { discount: '100.00' } });
    const row = await t.db.db.deviceDiscount.create({
      data: { organization_id: w.org, item_id: item.id, customer_id: customer.id, amount: '100.00', reason: 'Given by mistake', remaining_before: '5000.00', remaining_after: '4900.00' },
    });
    return { path: fill('/payg/items/discounts/{discount_id}/void', { discount_id: row.id }), body: { reason: 'Wrong device' } };
  },
  'GET /payg/customers/{id}/discounts': ({ w }) => ({ path: fill('/payg/customers/{id}/discounts', { id: w.customer.id }) }),
  'GET /payg/customers/{id}/ussd-sessions': ({ w }) => ({ path: fill('/payg/customers/{id}/ussd-sessions', { id: w.customer.id }), query: { limit: 5 } }),
  'GET /payg/items/{serial_number}/discounts': ({ w }) => ({ path: fill('/payg/items/{serial_number}/discounts', { serial_number: w.device.serial }) }),
  'POST /payg/items/transfer': async ({ t, w }) => {
    const [item, customer] = await Promise.all([fresh.assignedItem(t, w), fresh.customer(t, w)]);
    return { path: '/payg/items/transfer', body: { item_serial_number: item.serial_number, customer_id: customer.id, reason: 'The customer moved away' } };
  },
  'POST /payg/items/swap': async ({ t, w }) => {
    const [item, spare] = await Promise.all([fresh.assignedItem(t, w), fresh.item(t, w)]);
    return { path: '/payg/items/swap', body: { item_serial_number: item.serial_number, new_serial_number: spare.serial_number, reason: 'Battery does not charge' } };
  },
  'GET /payg/device-swaps': async ({ t, w }) => {
    const [item, spare] = await Promise.all([fresh.assignedItem(t, w), fresh.item(t, w)]);
    await t.db.pool.query(
      `INSERT INTO device_swaps (organization_id, customer_id, old_item_id, new_item_id, swapped_by, reason, total_paid, old_status)
       VALUES ($1, $2, $3, $4, $5, $6, 0, 'maintenance')`,
      [w.org, item.customer_id, item.id, spare.id, w.staff.username, `Swapped ${w.tag}`],
    );
    return [
      { path: '/payg/device-swaps' },
      { path: '/payg/device-swaps', query: { serial_number: item.serial_number, page: 1, limit: 5 } },
      { path: '/payg/device-swaps', query: { customer_id: item.customer_id! } },
    ];
  },
  'PUT /payg/items/{serial_number}': async ({ t, w }) => ({
    path: fill('/payg/items/{serial_number}', { serial_number: (await fresh.item(t, w)).serial_number }),
    body: { product_name: `Edited ${hex()}`, price: 5 },
  }),
  'DELETE /payg/items/{serial_number}': async ({ t, w }) => ({ path: fill('/payg/items/{serial_number}', { serial_number: (await fresh.item(t, w)).serial_number }) }),
  'GET /payg/products/summary': () => ({ path: '/payg/products/summary' }),
  'GET /payg/products': ({ w }) => [
    { path: '/payg/products', query: { search: w.device.serial } },
    { path: '/payg/products', query: { search: w.freeDevice.product, status: 'unassigned' } },
    { path: '/payg/products', query: { search: w.oem } },
  ],
  'GET /payg/collections/summary': () => ({ path: '/payg/collections/summary' }),
  'GET /payg/collections/agents': () => ({ path: '/payg/collections/agents' }),
  'GET /payg/collections/promises/summary': () => ({ path: '/payg/collections/promises/summary' }),
  'GET /payg/collections/promises': () => [{ path: '/payg/collections/promises' }, { path: '/payg/collections/promises', query: { status: 'broken', page: 2, limit: 5 } }],
  'GET /payg/collections/export': () => [{ path: '/payg/collections/export' }, { path: '/payg/collections/export', query: { bucket: '8-30' } }],
  'POST /payg/collections/{item_id}/contacts': ({ w }) => ({
    path: fill('/payg/collections/{item_id}/contacts', { item_id: w.device.id }),
    body: { outcome: 'no_answer', note: `Called ${w.tag}` },
  }),
  'GET /payg/collections/{item_id}/contacts': ({ w }) => ({ path: fill('/payg/collections/{item_id}/contacts', { item_id: w.device.id }) }),
  'GET /payg/collections': () => [{ path: '/payg/collections' }, { path: '/payg/collections', query: { bucket: 'over-90', page: 2, limit: 5 } }],

  // ---------------------------------------------------------------- service tickets
  'GET /payg/tickets': ({ w }) => [
    { path: '/payg/tickets' },
    { path: '/payg/tickets', query: { status: 'all', serial_number: w.device.serial, page: 1, limit: 5 } },
    { path: '/payg/tickets', query: { status: 'open', mine: true } },
    { path: '/payg/tickets', query: { status: 'all', customer_id: w.customer.id } },
  ],
  'GET /payg/products/export': ({ w }) => [
    { path: '/payg/products/export' },
    { path: '/payg/products/export', query: { search: w.device.serial, status: 'assigned' } },
    { path: '/payg/products/export', query: { location_id: 'none' } },
  ],
  // ---------------------------------------------------------------- stock locations
  'GET /payg/stock-locations': () => ({ path: '/payg/stock-locations' }),
  'POST /payg/stock-locations': ({ w }) => ({ path: '/payg/stock-locations', body: { name: `Depot ${w.tag} ${hex()}`, description: `Yard ${w.tag}` } }),
  'GET /payg/stock-locations/{location_id}': async ({ t, w }) => ({
    path: fill('/payg/stock-locations/{location_id}', { location_id: await seedLocation(t, w) }),
  }),
  'PUT /payg/stock-locations/{location_id}': async ({ t, w }) => ({
    path: fill('/payg/stock-locations/{location_id}', { location_id: await seedLocation(t, w) }),
    body: { name: `Renamed ${w.tag} ${hex()}`, description: null },
  }),
  'DELETE /payg/stock-locations/{location_id}': async ({ t, w }) => ({
    path: fill('/payg/stock-locations/{location_id}', { location_id: await seedLocation(t, w) }),
  }),
  'POST /payg/stock-locations/move': async ({ t, w }) => ({
    path: '/payg/stock-locations/move',
    body: { serial_numbers: [(await fresh.item(t, w)).serial_number], location_id: await seedLocation(t, w), note: `Truck ${w.tag}` },
  }),
  'POST /payg/stock-locations/{location_id}/stock-take': async ({ t, w }) => ({
    path: fill('/payg/stock-locations/{location_id}/stock-take', { location_id: await seedLocation(t, w) }),
    body: { serial_numbers: [w.device.serial, (await fresh.item(t, w)).serial_number, `NONE-${hex()}`], note: `Count ${w.tag}` },
  }),
  'GET /payg/stock-movements': async ({ t, w }) => {
    const location = await seedLocation(t, w);
    const item = await fresh.item(t, w);
    await t.db.pool.query(`UPDATE items SET location_id = $3 WHERE organization_id = $1 AND item_id = $2`, [w.org, item.id, location]);
    await t.db.pool.query(
      `INSERT INTO stock_movements (organization_id, item_id, to_location_id, to_name, moved_by) VALUES ($1, $2, $3, $4, $5)`,
      [w.org, item.id, location, `Shop ${w.tag}`, w.staff.username],
    );
    return [
      { path: '/payg/stock-movements' },
      { path: '/payg/stock-movements', query: { serial_number: item.serial_number, page: 1, limit: 5 } },
      { path: '/payg/stock-movements', query: { location_id: location } },
    ];
  },
  // ---------------------------------------------------------------- M-Pesa Express
  'GET /payg/payment-requests': ({ w }) => [
    { path: '/payg/payment-requests' },
    { path: '/payg/payment-requests', query: { serial_number: w.device.serial, page: 1, limit: 5 } },
    { path: '/payg/payment-requests', query: { customer_id: w.customer.id } },
  ],
  'GET /payg/payment-requests/{request_id}': async ({ t, w }) => ({
    path: fill('/payg/payment-requests/{request_id}', { request_id: (await seedPaymentRequest(t, w)).id }),
  }),
  'POST /payg/payment-requests': async ({ t, w }) => {
    await readyMpesaExpress(t, w.org);
    return { path: '/payg/payment-requests', body: { serial_number: w.device.serial, amount: 20 } };
  },
  'POST /payg/payment-requests/{request_id}/check': async ({ t, w }) => {
    await readyMpesaExpress(t, w.org);
    const { id } = await seedPaymentRequest(t, w);
    // Unanswered past its 3 minutes, as a request worth checking is: the device can be asked again meanwhile.
    await t.db.pool.query(`UPDATE payment_requests SET created_at = created_at - interval '4 minutes' WHERE request_id = $1`, [id]);
    return { path: fill('/payg/payment-requests/{request_id}/check', { request_id: id }) };
  },
  'GET /payg/payment-requests/providers': () => ({ path: '/payg/payment-requests/providers' }),
  'PUT /payg/external/mtn-momo/{token}': async ({ t, w }) => {
    const { token } = await seedPaymentRequest(t, w, 'mtn_momo');
    return { path: fill('/payg/external/mtn-momo/{token}', { token }), body: { status: 'FAILED', reason: 'APPROVAL_REJECTED' } };
  },
  'POST /payg/external/mtn-momo/{token}': async ({ t, w }) => {
    const { token } = await seedPaymentRequest(t, w, 'mtn_momo');
    return { path: fill('/payg/external/mtn-momo/{token}', { token }), body: { status: 'FAILED', reason: 'EXPIRED' } };
  },
  // Airtel names the request by its transaction id (its callback token); Kidogo asks the fake Airtel, which has no such push.
  'POST /payg/external/airtel-money/callback': async ({ t, w }) => {
    await readyAirtelMoney(t, w.org);
    const { token } = await seedPaymentRequest(t, w, 'airtel_money');
    return { path: '/payg/external/airtel-money/callback', body: { transaction: { id: token, message: 'Refused', status_code: 'TF', airtel_money_id: null } } };
  },
  'POST /payg/external/mpesa-express/{token}': async ({ t, w }) => {
    const { token } = await seedPaymentRequest(t, w);
    return {
      path: fill('/payg/external/mpesa-express/{token}', { token }),
      body: { Body: { stkCallback: { MerchantRequestID: '1-1-1', CheckoutRequestID: `ws_CO_${token}`, ResultCode: 1032, ResultDesc: 'Request cancelled by user' } } },
    };
  },
  'GET /payg/tickets/assignees': () => ({ path: '/payg/tickets/assignees' }),
  'GET /payg/tickets/{ticket_id}': async ({ t, w }) => ({ path: fill('/payg/tickets/{ticket_id}', { ticket_id: await seedTicket(t, w) }) }),
  'GET /payg/tickets/{ticket_id}/history': async ({ t, w }) => ({ path: fill('/payg/tickets/{ticket_id}/history', { ticket_id: await seedTicket(t, w) }) }),
  'POST /payg/tickets': ({ w }) => ({
    path: '/payg/tickets',
    body: { serial_number: w.device.serial, category: 'device_fault', description: `Panel cracked ${w.tag}`, assigned_to: w.staff.user_id },
  }),
  'POST /payg/tickets/{ticket_id}/notes': async ({ t, w }) => ({
    path: fill('/payg/tickets/{ticket_id}/notes', { ticket_id: await seedTicket(t, w) }),
    body: { note: `Visited; the panel cable is cut ${w.tag}` },
  }),
  'PATCH /payg/tickets/{ticket_id}': async ({ t, w }) => ({
    path: fill('/payg/tickets/{ticket_id}', { ticket_id: await seedTicket(t, w) }),
    body: { status: 'resolved', resolution: `Replaced the panel ${w.tag}`, assigned_to: w.staff.user_id },
  }),

  // ---------------------------------------------------------------- templates, onboarding
  'GET /payg/payments/templates': ({ w }) => ({ path: '/payg/payments/templates', query: { search_term: w.template.name } }),
  'POST /payg/payments/templates/create': () => ({ path: '/payg/payments/templates/create', body: { template_name: `New ${hex()}`, daily_price: 20 } }),
  'GET /payg/payments/templates/summary': () => ({ path: '/payg/payments/templates/summary' }),
  'GET /payg/payments/templates/performance': () => ({ path: '/payg/payments/templates/performance' }),
  'GET /payg/payments/templates/assignments': ({ w }) => [
    { path: '/payg/payments/templates/assignments', query: { customer_id: w.customer.id } },
    { path: '/payg/payments/templates/assignments', query: { template_id: w.template.id } },
  ],
  'POST /payg/payments/templates/assign': async ({ t, w }) => {
    const device = await fresh.assignedItem(t, w);
    return [
      { path: '/payg/payments/templates/assign', body: { customer_id: (await fresh.customer(t, w)).id, template_id: w.template.id } },
      // A plan of the device's own.
      { path: '/payg/payments/templates/assign', body: { customer_id: device.customer_id, template_id: w.template.id, serial_number: device.serial_number } },
    ];
  },
  'POST /payg/payments/templates/assignments/{id}/end': async ({ t, w }) => {
    const device = await fresh.assignedItem(t, w);
    const own = await t.db.db.templateAssignment.create({
      data: { organization_id: w.org, customer_id: device.customer_id!, template_id: w.template.id, item_id: device.id, is_active: true },
    });
    return { path: fill('/payg/payments/templates/assignments/{id}/end', { id: own.id }) };
  },
  'GET /payg/payments/templates/{id}': ({ w }) => ({ path: `/payg/payments/templates/${w.template.id}` }),
  'PUT /payg/payments/templates/{id}': async ({ t, w }) => ({ path: `/payg/payments/templates/${(await fresh.template(t, w)).id}`, body: { daily_price: 60 } }),
  'DELETE /payg/payments/templates/{id}': async ({ t, w }) => ({ path: `/payg/payments/templates/${(await fresh.template(t, w)).id}` }),
  'GET /payg/payments/templates/{id}/performance': ({ w }) => ({ path: `/payg/payments/templates/${w.template.id}/performance` }),
  'GET /payg/payments/templates/{id}/usage': ({ w }) => ({ path: `/payg/payments/templates/${w.template.id}/usage` }),
  'POST /payg/onboarding': async ({ t, w }) => {
    const [customer, item] = await Promise.all([fresh.customer(t, w), fresh.item(t, w)]);
    return { path: '/payg/onboarding', body: { customer_id: customer.id, item_serial_number: item.serial_number, template_id: w.template.id } };
  },

  // ---------------------------------------------------------------- tokens
  'POST /payg/generate-token-by-days': ({ w }) => ({ path: '/payg/generate-token-by-days', body: { serial_number: w.device.serial, number_of_days: 2 } }),
  'POST /payg/generate-token': ({ w }) => ({ path: '/payg/generate-token', body: { serial_number: w.device.serial, type: 'add_time', value: 1 } }),
  'POST /payg/update-token-count': async ({ t, w }) => ({
    path: '/payg/update-token-count',
    body: { serial_number: (await fresh.item(t, w)).serial_number, new_token_count: 4 },
  }),
  'GET /payg/metrics/token-generation-logs': ({ w }) => [
    { path: '/payg/metrics/token-generation-logs', query: { search: w.device.serial } },
    { path: '/payg/metrics/token-generation-logs', query: { search: w.tokenValues[0]! } },
    { path: '/payg/metrics/token-generation-logs', query: { search: w.customer.name } },
  ],
  'POST /payg/config/product-oem/upsert': ({ w }) => ({ path: '/payg/config/product-oem/upsert', body: { product_oem: w.oem, value_divider: 1 } }),
  'GET /payg/config/oems/list': () => ({ path: '/payg/config/oems/list' }),

  // ---------------------------------------------------------------- settings
  'GET /payg/settings/api-key': () => ({ path: '/payg/settings/api-key' }),
  'POST /payg/settings/api-key/rotate': () => ({ path: '/payg/settings/api-key/rotate' }),
  'GET /payg/settings/sms-provider': () => ({ path: '/payg/settings/sms-provider' }),
  'GET /payg/settings/mpesa-express': () => ({ path: '/payg/settings/mpesa-express' }),
  'GET /payg/settings/mtn-momo': () => ({ path: '/payg/settings/mtn-momo' }),
  'GET /payg/settings/airtel-money': () => ({ path: '/payg/settings/airtel-money' }),
  'POST /payg/settings/airtel-money/test': async ({ t, w }) => {
    await readyAirtelMoney(t, w.org);
    return { path: '/payg/settings/airtel-money/test' };
  },
  'POST /payg/settings/mtn-momo/test': async ({ t, w }) => {
    await readyMtnMomo(t, w.org);
    return { path: '/payg/settings/mtn-momo/test' };
  },
  'POST /payg/settings/mpesa-express/test': async ({ t, w }) => {
    await readyMpesaExpress(t, w.org);
    return { path: '/payg/settings/mpesa-express/test' };
  },
  'GET /payg/settings/reminders': () => ({ path: '/payg/settings/reminders' }),
  'GET /payg/settings/ussd': () => ({ path: '/payg/settings/ussd' }),
  'PUT /payg/settings/ussd': () => ({ path: '/payg/settings/ussd', body: { enabled: true } }),
  'POST /payg/settings/ussd/rotate': () => ({ path: '/payg/settings/ussd/rotate' }),
  'POST /payg/settings/ussd/try': ({ w }) => ({ path: '/payg/settings/ussd/try', body: { phone_number: w.customer.phone, text: '1' } }),
  'GET /payg/settings/ussd/sessions': () => ({ path: '/payg/settings/ussd/sessions', query: { limit: 5 } }),
  // The organization's own USSD address (a new one each call), the menu on; the world's customer dials it and reads their balance.
  'POST /payg/external/ussd/{key}': async ({ t, w }) => {
    const key = `ussd_${hex(16)}`;
    await t.db.pool.query(`UPDATE organizations SET ussd_key_hash = $2, ussd_enabled_at = coalesce(ussd_enabled_at, now()) WHERE organization_id = $1`, [
      w.org,
      sha256(key),
    ]);
    return {
      path: fill('/payg/external/ussd/{key}', { key }),
      body: { sessionId: `matrix-${w.tag}-${Date.now()}-${Math.random()}`, phoneNumber: w.customer.phone, text: '1' },
    };
  },
  'GET /payg/settings/commissions': () => ({ path: '/payg/settings/commissions' }),
  'GET /payg/settings/follow-on-sales': () => ({ path: '/payg/settings/follow-on-sales' }),
  'GET /payg/settings/warranties': () => ({ path: '/payg/settings/warranties' }),
  'GET /payg/settings/phone-country': () => ({ path: '/payg/settings/phone-country' }),
  'GET /payg/settings/agreement': () => ({ path: '/payg/settings/agreement' }),
  'POST /payg/customers/{id}/sms': ({ w }) => ({
    path: `/payg/customers/${w.customer.id}/sms`,
    body: { text: 'Habari, we called about your device.', serial_number: w.device.serial },
  }),
  // Fresh customers: the world's customer must stay textable for the call above.
  'POST /payg/customers/{id}/sms-opt-out': async ({ t, w }) => ({ path: `/payg/customers/${(await fresh.customer(t, w)).id}/sms-opt-out` }),
  'DELETE /payg/customers/{id}/sms-opt-out': async ({ t, w }) => ({ path: `/payg/customers/${(await fresh.optedOutCustomer(t, w)).id}/sms-opt-out` }),
  'GET /payg/customers/{id}/portal-link': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/portal-link` }),
  'POST /payg/customers/{id}/portal-link': async ({ t, w }) => ({ path: `/payg/customers/${(await fresh.customer(t, w)).id}/portal-link` }),
  'DELETE /payg/customers/{id}/portal-link': async ({ t, w }) => {
    const customer = await fresh.customer(t, w);
    await t.db.pool.query(
      `INSERT INTO customer_portal_links (organization_id, customer_id, token_hash, created_by, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
      [w.org, customer.id, sha256(`link-${w.tag}-${hex()}`), w.staff.username],
    );
    return { path: `/payg/customers/${customer.id}/portal-link` };
  },
  // The page answers whoever asks, by its link alone: a customer of an active organization's (a suspended one's is the
  // same 404 as no link, test/portal.e2e-spec.ts), whichever world the caller is in.
  'GET /payg/portal/{token}': async ({ t, p, w }) => {
    const token = `page-${w.tag}-${hex()}-${hex()}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const customer = await seedCustomer(t, p.platformOrg, { customer_name: `Page Reader ${hex()}` });
    await t.db.pool.query(
      `INSERT INTO customer_portal_links (organization_id, customer_id, token_hash, created_by, expires_at) VALUES ($1, $2, $3, 'seed', now() + interval '1 day')`,
      [p.platformOrg, customer.id, sha256(token)],
    );
    return { path: `/payg/portal/${token}` };
  },
  // Pay Now: a fresh customer of an active organization's with a device and a link (a page may ask 5 times an hour),
  // whichever world the caller is in, as the page itself.
  'POST /payg/portal/{token}/payments': async ({ t, p, w }) => {
    await readyMpesaExpress(t, p.platformOrg);
    const { token, device } = await pageWithDevice(t, p.platformOrg, w.tag);
    return { path: `/payg/portal/${token}/payments`, body: { serial_number: device, provider: 'mpesa_express', amount: 50 } };
  },
  'GET /payg/portal/{token}/payments/{request_id}': async ({ t, p, w }) => {
    const { token, customer, item } = await pageWithDevice(t, p.platformOrg, w.tag);
    const { rows } = await t.db.pool.query(
      `INSERT INTO payment_requests (organization_id, item_id, customer_id, phone_number, amount, callback_token, requested_by)
       VALUES ($1, $2, $3, '254712345678', 50, $4, NULL) RETURNING request_id`,
      [p.platformOrg, item, customer, `cbpage${hex()}${hex()}${hex()}`.slice(0, 32).padEnd(32, '0')],
    );
    return { path: `/payg/portal/${token}/payments/${rows[0].request_id}` };
  },
  'GET /payg/portal/{token}/statement': async ({ t, p, w }) => {
    const token = `statement-${w.tag}-${hex()}-${hex()}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const customer = await seedCustomer(t, p.platformOrg, { customer_name: `Statement Reader ${hex()}` });
    await t.db.pool.query(
      `INSERT INTO customer_portal_links (organization_id, customer_id, token_hash, created_by, expires_at) VALUES ($1, $2, $3, 'seed', now() + interval '1 day')`,
      [p.platformOrg, customer.id, sha256(token)],
    );
    return { path: `/payg/portal/${token}/statement` };
  },
  // A customer's personal data: the world's customer for the copy; a fresh one (no device) to erase, since erasing is for good.
  'GET /payg/customers/{id}/personal-data': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/personal-data` }),
  // A customer's documents: the world's customer; a fresh document to read or delete.
  'GET /payg/customers/{id}/documents': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/documents` }),
  'POST /payg/customers/{id}/documents': ({ w }) => ({
    path: `/payg/customers/${w.customer.id}/documents`,
    // A new file each time: the same file twice for one customer is refused.
    file: { field: 'file', name: 'id-front.png', content: fresh.png() },
    fields: { kind: 'id_front', note: `Taken at the shop ${w.tag}` },
  }),
  'GET /payg/customers/{id}/documents/{document_id}/file': async ({ t, w }) => ({
    path: `/payg/customers/${w.customer.id}/documents/${await fresh.document(t, w)}/file`,
  }),
  'DELETE /payg/customers/{id}/documents/{document_id}': async ({ t, w }) => ({
    path: `/payg/customers/${w.customer.id}/documents/${await fresh.document(t, w)}`,
  }),
  'POST /payg/customers/{id}/erase': async ({ t, w }) => ({
    path: `/payg/customers/${(await fresh.customer(t, w)).id}/erase`,
    body: { reason: 'The customer asked in writing' },
  }),
  // Two-factor sign-in: the caller's own account, whoever it is; every user of the world is put in the state the call needs.
  'GET /payg/auth/2fa': () => ({ path: '/payg/auth/2fa' }),
  'POST /payg/auth/2fa/setup': async ({ t, w }) => {
    await fresh.twoFactorForAll(t, w, 'off');
    return { path: '/payg/auth/2fa/setup', body: { password: DEFAULT_PASSWORD } };
  },
  'POST /payg/auth/2fa/enable': async ({ t, w }) => {
    await fresh.twoFactorForAll(t, w, 'pending');
    return { path: '/payg/auth/2fa/enable', body: { code: totpCode(TOTP_SECRET) } };
  },
  'POST /payg/auth/2fa/disable': async ({ t, w }) => {
    await fresh.twoFactorForAll(t, w, 'on');
    return { path: '/payg/auth/2fa/disable', body: { password: DEFAULT_PASSWORD } };
  },
  'POST /payg/auth/2fa/recovery-codes': async ({ t, w }) => {
    await fresh.twoFactorForAll(t, w, 'on');
    return { path: '/payg/auth/2fa/recovery-codes', body: { password: DEFAULT_PASSWORD } };
  },
  'POST /payg/authenticate/2fa': async ({ t, w }) => {
    const user = await fresh.twoFactorUser(t, w);
    const res = await t.http.post('/payg/authenticate').send({ username: user.username, password: DEFAULT_PASSWORD });
    if (!res.body.challenge_token) throw new Error(`two-factor sign-in: ${res.status} ${res.text}`);
    return { path: '/payg/authenticate/2fa', body: { challenge_token: res.body.challenge_token as string, code: totpCode(TOTP_SECRET) } };
  },
  // Signed-in sessions: the caller's own, whoever it is.
  'GET /payg/auth/sessions': () => ({ path: '/payg/auth/sessions' }),
  'DELETE /payg/auth/sessions/{session_id}': async ({ t }) => ({ path: `/payg/auth/sessions/${await fresh.sessionForAll(t)}` }),
  'POST /payg/auth/sessions/sign-out-others': () => ({ path: '/payg/auth/sessions/sign-out-others' }),
  'POST /payg/auth/sessions/sign-out-everywhere': ({ t }) => ({
    path: '/payg/auth/sessions/sign-out-everywhere',
    // The matrices' callers hold one access token each for the whole run: let it work again.
    after: () => t.db.pool.query('UPDATE users SET sessions_revoked_at = NULL'),
  }),
  'POST /payg/users/{id}/sign-out': async ({ t, w }) => ({ path: `/payg/users/${(await fresh.user(t, w)).user_id}/sign-out` }),
  'GET /payg/settings/security': () => ({ path: '/payg/settings/security' }),
  'PUT /payg/settings/security': () => ({ path: '/payg/settings/security', body: { require_two_factor: false } }),
  'POST /payg/users/{id}/2fa/reset': async ({ t, w }) => ({ path: `/payg/users/${(await fresh.twoFactorUser(t, w)).user_id}/2fa/reset` }),
  'GET /payg/audit-log': ({ w }) => [
    { path: '/payg/audit-log' },
    { path: '/payg/audit-log', query: { actor: w.owner.username } },
    { path: '/payg/audit-log', query: { category: 'payments' } },
  ],
  'GET /payg/audit-log/export': ({ w }) => [
    { path: '/payg/audit-log/export' },
    { path: '/payg/audit-log/export', query: { actor: w.owner.username, category: 'tokens' } },
  ],
  'GET /payg/auth/api-tokens': () => ({ path: '/payg/auth/api-tokens' }),
  'POST /payg/auth/api-tokens': () => ({ path: '/payg/auth/api-tokens', body: { name: `Integration ${hex()}`, expires_in_days: 30 } }),
  'DELETE /payg/auth/api-tokens/{id}': async ({ t, w }) => ({ path: `/payg/auth/api-tokens/${(await fresh.apiToken(t, w)).id}` }),
  'POST /payg/collections/sms': () => ({ path: '/payg/collections/sms', body: { bucket: 'all', text: 'Habari {name}, please pay to {serial}', dry_run: true } }),
  'POST /payg/sms-campaigns': () => ({ path: '/payg/sms-campaigns', body: { audience: { customers: 'all' }, text: 'Habari {name}, our shop moves on Monday', dry_run: true } }),
  'GET /payg/sms-campaigns': () => ({ path: '/payg/sms-campaigns', query: { page: 1, limit: 5 } }),
  'GET /payg/sms-campaigns/{campaign_id}': async ({ t, w }) => ({ path: fill('/payg/sms-campaigns/{campaign_id}', { campaign_id: await seedCampaign(t, w) }) }),
  'GET /payg/sms-campaigns/{campaign_id}/texts': async ({ t, w }) => ({
    path: fill('/payg/sms-campaigns/{campaign_id}/texts', { campaign_id: await seedCampaign(t, w) }),
    query: { status: 'queued' },
  }),
  'POST /payg/sms-campaigns/{campaign_id}/cancel': async ({ t, w }) => ({ path: fill('/payg/sms-campaigns/{campaign_id}/cancel', { campaign_id: await seedCampaign(t, w) }) }),
  'GET /payg/cash': () => ({ path: '/payg/cash' }),
  'GET /payg/cash/collectors': () => ({ path: '/payg/cash/collectors' }),
  'GET /payg/cash/{username}/ledger': async ({ t, w }) => {
    await seedCash(t, w);
    return { path: fill('/payg/cash/{username}/ledger', { username: w.staff.username }), query: { page: 1, limit: 5 } };
  },
  'GET /payg/cash/handovers/export': async ({ t, w }) => {
    await seedHandover(t, w);
    return { path: '/payg/cash/handovers/export', query: { collector: w.staff.username } };
  },
  'POST /payg/cash/handovers': async ({ t, w }) => {
    await seedCash(t, w);
    return { path: '/payg/cash/handovers', body: { collector: w.staff.username, amount: 1, currency: 'KES', reference: `SLIP-${hex()}` } };
  },
  'POST /payg/cash/handovers/{handover_id}/void': async ({ t, w }) => ({
    path: fill('/payg/cash/handovers/{handover_id}/void', { handover_id: await seedHandover(t, w) }),
    body: { reason: 'Counted twice' },
  }),
  'GET /payg/commissions': () => ({ path: '/payg/commissions', query: { month: '2025-03' } }),
  'GET /payg/commissions/export': () => ({ path: '/payg/commissions/export', query: { month: '2025-03' } }),
  'GET /payg/commissions/payouts': () => ({ path: '/payg/commissions/payouts', query: { page: 1, limit: 5 } }),
  'POST /payg/commissions/payouts': async ({ t, w }) => ({
    path: '/payg/commissions/payouts',
    body: { ...(await seedCommission(t, w)), reference: `SK${hex()}`.slice(0, 10) },
  }),
  // A month of its own, where the world's customer's 500.00 is all that is owed: its commission at the organization's rate.
  'POST /payg/commissions/payouts/all': async ({ t, w }) => {
    const { month } = await seedCommission(t, w);
    const { rows } = await t.db.pool.query(`SELECT round(500 * commission_percent / 100, 2)::text AS total FROM organizations WHERE organization_id = $1`, [w.org]);
    return { path: '/payg/commissions/payouts/all', body: { month, total: rows[0].total as string, reference: `BATCH-${hex()}` } };
  },
  'POST /payg/commissions/payouts/{payout_id}/void': async ({ t, w }) => ({
    path: fill('/payg/commissions/payouts/{payout_id}/void', { payout_id: await seedPayout(t, w) }),
    body: { reason: 'Paid twice' },
  }),
  'GET /payg/webhooks': () => ({ path: '/payg/webhooks' }),
  'POST /payg/webhooks': () => ({ path: '/payg/webhooks', body: { url: `https://erp.example.com/${hex()}`, events: ['payment.applied', 'token.issued'] } }),
  'GET /payg/webhooks/{id}': async ({ t, w }) => ({ path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}` }),
  'PATCH /payg/webhooks/{id}': async ({ t, w }) => ({ path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}`, body: { is_active: false } }),
  'DELETE /payg/webhooks/{id}': async ({ t, w }) => ({ path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}` }),
  'POST /payg/webhooks/{id}/rotate-secret': async ({ t, w }) => ({ path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}/rotate-secret` }),
  'POST /payg/webhooks/{id}/test': async ({ t, w }) => ({ path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}/test` }),
  'GET /payg/webhooks/{id}/deliveries': async ({ t, w }) => [
    { path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}/deliveries` },
    { path: `/payg/webhooks/${(await fresh.webhook(t, w)).id}/deliveries`, query: { status: 'failed', event_type: 'token.issued' } },
  ],
  'POST /payg/webhooks/{id}/deliveries/{delivery_id}/redeliver': async ({ t, w }) => {
    const hook = await fresh.webhook(t, w);
    return { path: `/payg/webhooks/${hook.id}/deliveries/${hook.deliveryId}/redeliver` };
  },
  'PUT /payg/settings/reminders': () => ({ path: '/payg/settings/reminders', body: { enabled: true, days_before: 2, send_hour: 8 } }),
  'PUT /payg/settings/commissions': () => ({ path: '/payg/settings/commissions', body: { per_device: 250, percent: '2.5' } }),
  'PUT /payg/settings/follow-on-sales': () => ({ path: '/payg/settings/follow-on-sales', body: { rule: 'on_track', refuse_repossessed: true } }),
  'PUT /payg/settings/warranties': () => ({ path: '/payg/settings/warranties', body: { warranties: [{ product_name: 'Solar Home System', months: 24 }] } }),
  'PUT /payg/settings/phone-country': () => ({ path: '/payg/settings/phone-country', body: { phone_country_code: '256' } }),
  // A new paybill each time: a call that changes nothing is not audited.
  'PUT /payg/settings/agreement': () => ({
    path: '/payg/settings/agreement',
    body: { seller_details: 'Box 1234, Eldoret', paybill: String(500000 + Math.floor(Math.random() * 400000)), extra_terms: 'The warranty is two years.' },
  }),
  'PUT /payg/settings/airtel-money': () => ({
    path: '/payg/settings/airtel-money',
    body: { country: 'UG', environment: 'staging', ...AIRTEL_KEYS },
  }),
  'PUT /payg/settings/mtn-momo': () => ({
    path: '/payg/settings/mtn-momo',
    body: { target_environment: 'sandbox', ...MOMO_KEYS },
  }),
  'PUT /payg/settings/mpesa-express': () => ({
    path: '/payg/settings/mpesa-express',
    body: { environment: 'sandbox', short_code: '174379', transaction_type: 'CustomerPayBillOnline', ...DARAJA_KEYS },
  }),
  'PUT /payg/settings/sms-provider': ({ w }) => ({
    path: '/payg/settings/sms-provider',
    body: { provider: 'sms_webhook', config: { url: `http://127.0.0.1:9/${w.tag}`, secret: `s-${hex()}` } },
  }),

  // ---------------------------------------------------------------- payments, receiver, messages
  'GET /payg/payments': ({ w }) => [
    { path: '/payg/payments', query: { serial_number: w.device.serial } },
    { path: '/payg/payments', query: { customer_id: w.customer.id } },
    { path: '/payg/payments', query: { status: 'pending' } },
  ],
  'POST /payg/payments': ({ w }) => ({ path: '/payg/payments', body: { serial_number: w.device.serial, amount: 50, payment_method: 'cash', reference: `R${hex()}` } }),
  'POST /payg/payments/{id}/match': async ({ t, w }) => ({
    path: `/payg/payments/${(await fresh.pendingPayment(t, w)).id}/match`,
    body: { serial_number: w.device.serial },
  }),
  'POST /payg/payments/{id}/reject': async ({ t, w }) => ({
    path: `/payg/payments/${(await fresh.pendingPayment(t, w)).id}/reject`,
    body: { reason: 'Refunded to the sender' },
  }),
  'POST /payg/payments/{id}/reverse': async ({ t, w }) => ({
    path: `/payg/payments/${(await fresh.completedPayment(t, w)).id}/reverse`,
    body: { reason: 'Applied to the wrong device' },
  }),
  'POST /payg/reports/upload-csv': ({ w }) => ({
    path: '/payg/reports/upload-csv',
    file: { field: 'file', name: 'statement.csv', content: csv([STATEMENT_HEADER, statementRow(receipt(), w.device.serial)]) },
  }),
  'POST /payg/external/receive-phoneteletalk': ({ w }) => ({
    path: '/payg/external/receive-phoneteletalk',
    apiKey: true,
    body: { from: 'MPESA', message: mpesaPaybillSms({ code: receipt(), amount: '100.00', account: w.device.serial, phone: `254${w.customer.phone.slice(1)}` }) },
  }),
  'GET /payg/fetch_messages': ({ w }) => [
    { path: '/payg/fetch_messages', query: { search: w.payment.code } },
    { path: '/payg/fetch_messages', query: { search: `254${w.customer.phone.slice(1)}` } },
    { path: '/payg/fetch_messages', query: { search: w.tag } },
  ],
  'GET /payg/messages/stats': () => ({ path: '/payg/messages/stats' }),
  'GET /payg/messages/debug': () => ({ path: '/payg/messages/debug' }),
  'GET /payg/external/odyssey/customers': () => ({ path: '/payg/external/odyssey/customers', apiKey: true, query: { limit: 100 } }),

  // ---------------------------------------------------------------- metrics, reports, histories
  'GET /payg/metrics/summary': () => ({ path: '/payg/metrics/summary' }),
  'GET /payg/metrics/customers': () => ({ path: '/payg/metrics/customers' }),
  'GET /payg/metrics/payments': () => ({ path: '/payg/metrics/payments', query: { limit: 50 } }),
  'GET /payg/metrics/items': () => ({ path: '/payg/metrics/items' }),
  'GET /payg/metrics/revenue': () => ({ path: '/payg/metrics/revenue', query: { interval: 'month' } }),
  'GET /payg/metrics/usage': () => ({ path: '/payg/metrics/usage' }),
  'GET /payg/metrics/performance': () => ({ path: '/payg/metrics/performance' }),
  'POST /payg/reports/page': () => [
    { path: '/payg/reports/page', body: { report: 'customers' } },
    { path: '/payg/reports/page', body: { report: 'customers', format: 'csv' } },
    { path: '/payg/reports/page', body: { report: 'customers', format: 'pdf' } },
    { path: '/payg/reports/page', body: { report: 'tokens', format: 'csv' } },
    { path: '/payg/reports/page', body: { report: 'revenue', format: 'json' } },
  ],
  'GET /payg/devices/{serial}/activity': ({ w }) => ({ path: fill('/payg/devices/{serial}/activity', { serial: w.device.serial }) }),
  'GET /payg/devices/{serial}/agreement': ({ w }) => ({ path: fill('/payg/devices/{serial}/agreement', { serial: w.device.serial }) }),
  'GET /payg/customers/{id}/payment-details': ({ w }) => ({ path: `/payg/customers/${w.customer.id}/payment-details` }),
  'GET /payg/customers/{id}/statement': ({ w }) => [
    { path: `/payg/customers/${w.customer.id}/statement` },
    { path: `/payg/customers/${w.customer.id}/statement`, query: { from: '2020-01-01', to: '2099-12-31' } },
  ],

  // ---------------------------------------------------------------- invoices (an organization's own)
  'GET /payg/invoices': () => ({ path: '/payg/invoices' }),
  'GET /payg/invoices/stats': () => ({ path: '/payg/invoices/stats' }),
  'POST /payg/invoices': ({ w }) => ({
    path: '/payg/invoices',
    body: { organization_id: w.org, customer_name: 'Accounts', customer_email: 'accounts@mail.test', amount: 20 },
  }),
  'PUT /payg/invoices/{id}/status': async ({ t, p, w }) => ({ path: `/payg/invoices/${await fresh.invoice(t, p, w.org)}/status`, body: { status: 'sent' } }),
  'DELETE /payg/invoices/{id}': async ({ t, p, w }) => ({ path: `/payg/invoices/${await fresh.invoice(t, p, w.org)}` }),
  'POST /payg/invoices/{id}/email': ({ w }) => ({ path: `/payg/invoices/${w.invoice.id}/email`, body: { to: 'accounts@mail.test' } }),
  'GET /payg/invoice/{id}': ({ w }) => ({ path: `/payg/invoice/${w.invoice.id}` }),
  'GET /payg/download-invoice/{id}': ({ w }) => ({ path: `/payg/download-invoice/${w.invoice.id}` }),
  'POST /payg/submit-payment': ({ w }) => ({ path: '/payg/submit-payment', body: { payment_id: w.invoice.id, tx_hash: `TX${hex()}` } }),
  'GET /payg/update-invoice-settings': () => ({ path: '/payg/update-invoice-settings' }),
  'PUT /payg/update-invoice-settings': () => ({ path: '/payg/update-invoice-settings', body: { default_payment_terms: 30 } }),

  // ---------------------------------------------------------------- organization users, notifications, config
  'GET /payg/users': ({ w }) => [{ path: '/payg/users' }, { path: '/payg/users', query: { search: w.staff.username } }],
  'POST /payg/users': () => ({ path: '/payg/users', body: { ...newUserBody(), role: 'staff' } }),
  'PUT /payg/users/{id}': async ({ t, w }) => ({ path: `/payg/users/${(await fresh.user(t, w)).user_id}`, body: { email: `${hex()}@mail.test` } }),
  'DELETE /payg/users/{id}': async ({ t, w }) => ({ path: `/payg/users/${(await fresh.user(t, w)).user_id}` }),
  'GET /payg/notifications': () => ({ path: '/payg/notifications' }),
  'GET /payg/me/notifications': () => [{ path: '/payg/me/notifications' }, { path: '/payg/me/notifications', query: { unread: true, limit: 5 } }],
  // The world's staff user's notification by id, then all of the caller's.
  'POST /payg/me/notifications/read': async ({ t, w }) => [
    { path: '/payg/me/notifications/read', body: { ids: [await seedNotification(t, w)] } },
    { path: '/payg/me/notifications/read', body: {} },
  ],
  'GET /payg/me/notification-settings': () => ({ path: '/payg/me/notification-settings' }),
  'PUT /payg/me/notification-settings': () => [
    { path: '/payg/me/notification-settings', body: { muted: ['promise_due'] } },
    { path: '/payg/me/notification-settings', body: { muted: [] } },
  ],
  'GET /payg/config': () => ({ path: '/payg/config' }),
  'POST /payg/config/create': () => ({ path: '/payg/config/create', body: { key: `new.${hex()}`, value: 1 } }),
  'POST /payg/config/credentials/upsert': ({ w }) => ({
    path: '/payg/config/credentials/upsert',
    body: { organization_id: w.org, oem_name: w.oem, credentials: { password: `p-${hex()}` } },
  }),
  'GET /payg/config/credentials/{organizationId}': ({ w }) => ({ path: fill('/payg/config/credentials/{organizationId}', { organizationId: w.org }) }),
  'GET /payg/config/{id}': ({ w }) => ({ path: `/payg/config/${w.configEntry.id}` }),
  'PUT /payg/config/{id}': async ({ t, w }) => ({ path: `/payg/config/${(await fresh.configEntry(t, w)).id}`, body: { value: { n: 2 } } }),
  'DELETE /payg/config/{id}': async ({ t, w }) => ({ path: `/payg/config/${(await fresh.configEntry(t, w)).id}` }),

  // ---------------------------------------------------------------- super-admin console
  'GET /payg/admin/invoices': ({ w }) => ({ path: '/payg/admin/invoices', query: { organization_id: w.org } }),
  'GET /payg/admin/invoices/stats': () => ({ path: '/payg/admin/invoices/stats' }),
  'POST /payg/admin/invoices': ({ w }) => ({
    path: '/payg/admin/invoices',
    body: { organization_id: w.org, customer_name: 'Accounts', customer_email: 'accounts@mail.test', amount: 30 },
  }),
  'GET /payg/admin/invoices/{id}': ({ w }) => ({ path: `/payg/admin/invoices/${w.invoice.id}` }),
  'PUT /payg/admin/invoices/{id}/status': async ({ t, p, w }) => ({ path: `/payg/admin/invoices/${await fresh.invoice(t, p, w.org)}/status`, body: { status: 'paid' } }),
  'DELETE /payg/admin/invoices/{id}': async ({ t, p, w }) => ({ path: `/payg/admin/invoices/${await fresh.invoice(t, p, w.org)}` }),
  'POST /payg/admin/invoices/{id}/email': ({ w }) => ({ path: `/payg/admin/invoices/${w.invoice.id}/email`, body: { to: 'accounts@mail.test' } }),
  'GET /payg/admin/settings/invoices': () => ({ path: '/payg/admin/settings/invoices' }),
  'PUT /payg/admin/settings/invoices': () => ({ path: '/payg/admin/settings/invoices', body: { default_payment_terms: 30 } }),
  'GET /payg/admin/organizations': ({ w }) => ({ path: '/payg/admin/organizations', query: { search: w.org } }),
  'POST /payg/admin/organizations': () => ({ path: '/payg/admin/organizations', body: { organization_id: `new-${hex()}`, name: 'New' } }),
  'GET /payg/admin/organizations/stats': () => ({ path: '/payg/admin/organizations/stats' }),
  'GET /payg/admin/organizations/{id}': ({ w }) => ({ path: fill('/payg/admin/organizations/{id}', { id: w.org }) }),
  'PUT /payg/admin/organizations/{id}': async ({ t }) => ({ path: fill('/payg/admin/organizations/{id}', { id: await fresh.org(t) }), body: { name: 'Renamed' } }),
  'DELETE /payg/admin/organizations/{id}': async ({ t }) => ({ path: fill('/payg/admin/organizations/{id}', { id: await fresh.org(t) }) }),
  'GET /payg/admin/organizations/{id}/activity': ({ w }) => ({ path: fill('/payg/admin/organizations/{id}/activity', { id: w.org }) }),
  'GET /payg/admin/organizations/{id}/status': ({ w }) => ({ path: fill('/payg/admin/organizations/{id}/status', { id: w.org }) }),
  'PUT /payg/admin/organizations/{id}/status': async ({ t }) => ({
    path: fill('/payg/admin/organizations/{id}/status', { id: await fresh.org(t) }),
    body: { status: 'suspended', reason: 'Unpaid invoice' },
  }),
  'POST /payg/admin/organizations/{id}/notify': ({ w }) => ({ path: fill('/payg/admin/organizations/{id}/notify', { id: w.org }), body: { message: 'Maintenance tonight' } }),
  'GET /payg/admin/users': ({ w }) => ({ path: '/payg/admin/users', query: { organization_id: w.org } }),
  'POST /payg/admin/users': ({ w }) => ({ path: '/payg/admin/users', body: { ...newUserBody(), organization_id: w.org, role: 'staff' } }),
  'PUT /payg/admin/users/{id}': async ({ t, w }) => ({ path: `/payg/admin/users/${(await fresh.user(t, w)).user_id}`, body: { is_active: false } }),
  'DELETE /payg/admin/users/{id}': async ({ t, w }) => ({ path: `/payg/admin/users/${(await fresh.user(t, w)).user_id}` }),
  'POST /payg/admin/create-super-admin': ({ p }) => ({ path: '/payg/admin/create-super-admin', body: { ...newUserBody(), organization_id: p.platformOrg } }),
  'GET /payg/admin/metrics/token-logs': ({ w }) => ({ path: '/payg/admin/metrics/token-logs', query: { organization_id: w.org } }),
  'GET /payg/admin/payment-providers': ({ w }) => ({ path: '/payg/admin/payment-providers', query: { organization_id: w.org } }),
  'GET /payg/admin/payment-providers/{id}': async ({ t, p }) => ({ path: `/payg/admin/payment-providers/${await provider(t, p)}` }),
  'POST /payg/admin/payment-providers': async ({ t }) => ({
    path: '/payg/admin/payment-providers',
    body: { provider: 'africastalking', organization_id: await fresh.org(t), config: { username: 'u', api_key: `k-${hex()}` } },
  }),
  'PUT /payg/admin/payment-providers/{id}': async ({ t, p }) => ({ path: `/payg/admin/payment-providers/${await provider(t, p)}`, body: { is_active: false } }),
  'DELETE /payg/admin/payment-providers/{id}': async ({ t, p }) => ({ path: `/payg/admin/payment-providers/${await provider(t, p)}` }),
  'GET /payg/admin/oem-credentials': ({ w }) => ({ path: '/payg/admin/oem-credentials', query: { organization_id: w.org } }),
  'GET /payg/admin/oem-credentials/{id}': async ({ t, p }) => ({ path: `/payg/admin/oem-credentials/${await oemCredential(t, p)}` }),
  'POST /payg/admin/oem-credentials': async ({ t }) => ({
    path: '/payg/admin/oem-credentials',
    body: { oem_name: 'SunCo', organization_id: await fresh.org(t), credentials: { token: `t-${hex()}` } },
  }),
  'PUT /payg/admin/oem-credentials/{id}': async ({ t, p }) => ({ path: `/payg/admin/oem-credentials/${await oemCredential(t, p)}`, body: { credentials: { token: 'x' } } }),
  'DELETE /payg/admin/oem-credentials/{id}': async ({ t, p }) => ({ path: `/payg/admin/oem-credentials/${await oemCredential(t, p)}` }),
  'GET /payg/admin/plans': () => ({ path: '/payg/admin/plans' }),
  'GET /payg/admin/plans/{code}': ({ p }) => ({ path: fill('/payg/admin/plans/{code}', { code: p.plan }) }),
  'POST /payg/admin/plans': () => ({ path: '/payg/admin/plans', body: { plan_code: `p-${hex()}`, features: ['tokens'] } }),
  'PUT /payg/admin/plans/{code}': async ({ t, p }) => ({ path: fill('/payg/admin/plans/{code}', { code: await plan(t, p) }), body: { name: 'Renamed' } }),
  'DELETE /payg/admin/plans/{code}': async ({ t, p }) => ({ path: fill('/payg/admin/plans/{code}', { code: await plan(t, p) }) }),
  'GET /payg/admin/org-plans': ({ w }) => ({ path: '/payg/admin/org-plans', query: { organization_id: w.org } }),
  'POST /payg/admin/org-plans': async ({ t, p }) => ({ path: '/payg/admin/org-plans', body: { organization_id: await fresh.org(t), plan_code: p.plan } }),
  'DELETE /payg/admin/org-plans/{organization_id}': async ({ t, p }) => {
    const org = await fresh.org(t);
    await t.db.platform.orgPlan.create({ data: { organization_id: org, plan_code: p.plan } });
    return { path: fill('/payg/admin/org-plans/{organization_id}', { organization_id: org }) };
  },
  'GET /payg/admin/features': ({ w }) => ({ path: '/payg/admin/features', query: { organization_id: w.org } }),
  'POST /payg/admin/features': async ({ t }) => ({ path: '/payg/admin/features', body: { feature_key: `f-${hex()}`, enabled: true, organization_id: await fresh.org(t) } }),
  'DELETE /payg/admin/features/{id}': async ({ t }) => {
    const flag = await t.db.platform.featureFlag.create({ data: { feature_key: `f-${hex()}`, enabled: true, organization_id: null } });
    return { path: `/payg/admin/features/${flag.id}` };
  },
};

async function provider(t: TestApp, p: Platform): Promise<number> {
  const res = await t.http
    .post('/payg/admin/payment-providers')
    .set(p.root.auth)
    .send({ provider: 'africastalking', organization_id: await fresh.org(t), config: { username: 'u', api_key: `k-${hex()}` } });
  if (res.status !== 201) throw new Error(`provider: ${res.status} ${res.text}`);
  return res.body.id as number;
}

async function oemCredential(t: TestApp, p: Platform): Promise<number> {
  const res = await t.http
    .post('/payg/admin/oem-credentials')
    .set(p.root.auth)
    .send({ oem_name: 'SunCo', organization_id: await fresh.org(t), credentials: { token: `t-${hex()}` } });
  if (res.status !== 201) throw new Error(`oem credential: ${res.status} ${res.text}`);
  return res.body.id as number;
}

async function plan(t: TestApp, p: Platform): Promise<string> {
  const code = `p-${hex()}`;
  const res = await t.http.post('/payg/admin/plans').set(p.root.auth).send({ plan_code: code });
  if (res.status !== 201) throw new Error(`plan: ${res.status} ${res.text}`);
  return code;
}

export async function buildCalls(key: string, c: CallContext): Promise<Call[]> {
  const builder = ROUTE_CALLS[key];
  if (!builder) throw new Error(`${key} has no entry in ROUTE_CALLS (test/support/route-calls.ts)`);
  const built = await builder(c);
  return Array.isArray(built) ? built : [built];
}

/** The organization's current receiver key, read the way Settings shows it. */
export async function currentApiKey(t: TestApp, org: string): Promise<string> {
  const row = await t.db.platform.organization.findUniqueOrThrow({ where: { id: org }, select: { api_key_enc: true } });
  if (!row.api_key_enc) throw new Error(`${org} has no API key`);
  return t.app.get(SecretBox).open(row.api_key_enc);
}

export type Credentials = { bearer?: string; apiKey?: string };

/** Sends one call; every body comes back as text (JSON, CSV, HTML, and PDFs through pdftotext when installed). */
export async function send(t: TestApp, method: string, call: Call, creds: Credentials): Promise<{ status: number; text: string; res: Response }> {
  let req = t.http[method.toLowerCase() as 'get'](call.path).buffer(true).parse(binaryParser);
  if (call.query) req = req.query(call.query);
  if (creds.bearer) req = req.set('Authorization', `Bearer ${creds.bearer}`);
  if (creds.apiKey) req = req.set('X-API-Key', creds.apiKey);
  for (const [k, v] of Object.entries(call.headers ?? {})) req = req.set(k, v);
  let res: Response;
  if (call.file) {
    for (const [k, v] of Object.entries(call.fields ?? {})) req = req.field(k, v);
    res = await req.attach(call.file.field, Buffer.isBuffer(call.file.content) ? call.file.content : Buffer.from(call.file.content), call.file.name);
  } else if (call.form) {
    res = await req.type('form').send(call.form);
  } else if (call.body !== undefined) {
    res = await req.send(call.body as object);
  } else {
    res = await req;
  }
  await call.after?.();
  const bytes = res.body as Buffer;
  const type = String(res.headers['content-type'] ?? '');
  const text = type.startsWith('application/pdf') ? (pdfText(bytes) ?? bytes.toString('latin1')) : bytes.toString('utf8');
  return { status: res.status, text, res };
}
