import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_ADMIN, DEMO_OWNER } from '../../support/fixtures.js';

/**
 * Direct API calls for the browser tests of onboarding, products, activity,
 * messages, invoices and the console: they set up data the way another user
 * or the SMS gateway would, so each test drives only the screen it is about.
 */

/** Unique per run: the suite shares one database and tests must not trip over each other's rows. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1296).toString(36).toUpperCase()}`;

export async function apiToken(request: APIRequestContext, who = DEMO_OWNER): Promise<string> {
  const res = await request.post('/payg/authenticate', { form: { username: who.username, password: who.password } });
  expect(res.ok(), `sign-in of ${who.username}`).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function apiCall<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(`/payg${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const body = await res.text();
  expect(res.ok(), `${method} ${path} → ${res.status()} ${body.slice(0, 300)}`).toBe(true);
  return (body ? JSON.parse(body) : undefined) as T;
}

export interface Customer {
  customer_id: number;
  customer_name: string;
}

export async function createCustomer(request: APIRequestContext, token: string, name: string, phone = '0712345678'): Promise<Customer> {
  return apiCall<Customer>(request, token, 'POST', '/register-customer', {
    customer_name: name,
    id_number: unique('ID'),
    phone_contact: phone,
    county: 'Nairobi',
  });
}

export async function createItem(request: APIRequestContext, token: string, serial: string, name = 'Solar Home 50W', price = 12000) {
  return apiCall<{ item_id: number; serial_number: string }>(request, token, 'POST', '/items/add', {
    serial_number: serial,
    product_name: name,
    manufacturer: 'SunCo',
    product_oem: 'SunKing',
    price,
  });
}

export async function createTemplate(request: APIRequestContext, token: string, name: string) {
  return apiCall<{ template_id: number; template_name: string }>(request, token, 'POST', '/payments/templates/create', {
    template_name: name,
    daily_price: 50,
    activation_price: 500,
    grace_period_days: 2,
    currency: 'KES',
    free_code_price: 12000,
  });
}

export async function onboard(request: APIRequestContext, token: string, customerId: number, serial: string, templateId?: number) {
  return apiCall(request, token, 'POST', '/onboarding', { customer_id: customerId, item_serial_number: serial, template_id: templateId });
}

export interface ReceiveReply {
  status: string;
  payment_id?: number;
  token?: string;
  days?: number;
  message_id: number;
  reply_message?: string | null;
}

/** An M-Pesa paybill confirmation as an SMS forwarder posts it, with the device serial as the account. */
export async function postMpesa(
  request: APIRequestContext,
  apiKey: string,
  opts: { code: string; amount: string; account: string; payer?: string },
): Promise<ReceiveReply> {
  const text =
    `${opts.code} Confirmed. Ksh${opts.amount} received from ${opts.payer ?? 'JOHN KAMAU 254712345678'} on 5/6/24 at 10:15 AM. ` +
    `Account Number ${opts.account}. New Utility balance is Ksh45,300.00.`;
  const res = await request.post('/payg/external/receive-phoneteletalk', {
    headers: { 'X-API-Key': apiKey },
    data: { from: 'MPESA', message: text, timestamp: Date.now() },
  });
  const body = await res.text();
  expect(res.ok(), `receiver → ${res.status()} ${body.slice(0, 300)}`).toBe(true);
  return JSON.parse(body) as ReceiveReply;
}

/** The organization's receiver key, as the owner reads it in Settings. */
export async function receiverKey(request: APIRequestContext, ownerToken: string): Promise<string> {
  return (await apiCall<{ api_key: string }>(request, ownerToken, 'GET', '/settings/api-key')).api_key;
}

/** A transaction code M-Pesa would issue: 10 upper-case letters and digits. */
/** A 10-character M-Pesa-style code: letters and digits, as the parser requires (a code of letters only is not taken for one). */
export const mpesaCode = () =>
  `T${Math.floor(Math.random() * 10)}${Date.now().toString(36).toUpperCase().slice(-5)}${Math.floor(Math.random() * 46656).toString(36).toUpperCase().padStart(3, '0')}`;

/** Puts an organization back to active whatever a test did to it. */
export async function reactivate(request: APIRequestContext, organizationId = 'demo') {
  const admin = await apiToken(request, DEMO_ADMIN);
  await apiCall(request, admin, 'PUT', `/admin/organizations/${organizationId}/status`, { status: 'active', reason: null });
}
