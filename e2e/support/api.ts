import { expect, type Page } from '@playwright/test';
import { DEMO_OWNER, signIn } from './fixtures.js';

/** A name no other test run has used: the e2e database lives for the whole suite. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();

/** A plausible Kenyan phone number that differs per call. */
export const uniquePhone = () => `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** Calls the API as the signed-in user of `page` (its stored bearer token); fails the test on an error reply. */
export async function apiCall<T = unknown>(page: Page, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token, 'signed in before calling the API').toBeTruthy();
  const res = await page.request.fetch(`/payg${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(res.ok(), `${method} ${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

export interface SeededCustomer {
  customer_id: number;
  customer_name: string;
  id_number: string;
}

export const seedCustomer = (page: Page, name = unique('Customer')) =>
  apiCall<SeededCustomer>(page, 'POST', '/register-customer', {
    customer_name: name,
    id_number: unique('ID'),
    phone_contact: uniquePhone(),
    county: 'Nakuru',
  });

export const seedDevice = (page: Page, serial = unique('SN')) =>
  apiCall<{ serial_number: string }>(page, 'POST', '/items/add', { serial_number: serial, product_name: 'SunKing Home 60', price: 12000 });

/**
 * Signs in as the demo owner starting from `path`, and waits until the app
 * has brought the user back there: the session is stored and the screen is up.
 */
export async function openSignedIn(page: Page, path: string): Promise<void> {
  await signIn(page, DEMO_OWNER, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
}

/**
 * A customer with a device on a payment plan who has paid twice (cash, then
 * mobile money): the payment pipeline records the payments and issues tokens,
 * so the dashboard and reports have something real to show.
 */
export async function seedPayingCustomer(page: Page) {
  const customer = await seedCustomer(page, `Wanjiru ${unique('PAY')}`);
  const device = await seedDevice(page);
  await apiCall(page, 'POST', '/items/assign', { customer_id: customer.customer_id, item_serial_number: device.serial_number, organization_id: '' });
  const template = await apiCall<{ template_id: number }>(page, 'POST', '/payments/templates/create', {
    template_name: unique('Plan'),
    deposit_made: 500,
    daily_price: 50,
    currency: 'KES',
  });
  await apiCall(page, 'POST', '/payments/templates/assign', { customer_id: customer.customer_id, template_id: template.template_id });
  await apiCall(page, 'POST', '/payments', { serial_number: device.serial_number, amount: 1000, payment_method: 'cash', reference: unique('RCPT') });
  await apiCall(page, 'POST', '/payments', { serial_number: device.serial_number, amount: 350, payment_method: 'mobile_money', reference: unique('MP') });
  return { customer, device };
}
