import { normalizePhone } from '@kidogo/mobile-money';
import { randomBytes, randomInt } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import bcrypt from 'bcryptjs';
import type { AccessTokenClaims, Role } from '@kidogo/contracts';
import type { TestApp } from './test-app.js';
import { DeviceSecrets } from '../../src/devices/device-secrets.js';

export const DEFAULT_PASSWORD = 'password123';
// Hashing is slow on purpose; tests share one hash.
const DEFAULT_HASH = bcrypt.hashSync(DEFAULT_PASSWORD, 4);

const uniq = () => randomBytes(4).toString('hex');

export interface SeededUser {
  user_id: number;
  username: string;
  role: Role;
  organization_id: string;
  token: string;
  auth: { Authorization: string };
}

export async function seedOrg(
  t: TestApp,
  data: { id?: string; status?: 'active' | 'suspended' | 'disabled'; disabled_reason?: string | null } = {},
) {
  return t.db.platform.organization.create({
    data: {
      id: data.id ?? `org-${uniq()}`,
      status: data.status ?? 'active',
      disabled_reason: data.disabled_reason ?? null,
      status_changed_at: data.status && data.status !== 'active' ? new Date() : null,
    },
  });
}

/** A user with a signed access token, like one from POST /payg/authenticate. */
export async function seedUser(
  t: TestApp,
  data: { organization_id: string; role?: Role; username?: string; password?: string },
): Promise<SeededUser> {
  const role = data.role ?? 'owner';
  const user = await t.db.platform.user.create({
    data: {
      username: data.username ?? `${role}-${uniq()}`,
      password_hash: data.password ? bcrypt.hashSync(data.password, 4) : DEFAULT_HASH,
      role,
      organization_id: data.organization_id,
      email: `${uniq()}@example.test`,
    },
    include: { organization: true },
  });
  const token = signToken(t, {
    sub: String(user.id),
    user_id: user.id,
    username: user.username,
    org_id: user.organization_id,
    role: user.role,
    app: user.organization.app,
  });
  return {
    user_id: user.id,
    username: user.username,
    role,
    organization_id: user.organization_id,
    token,
    auth: { Authorization: `Bearer ${token}` },
  };
}

/**
 * An access token of `user` issued `secondsAgo` ago (its iat), for the
 * session `sid` when given: one a thief copied before a reset or a sign-out
 * everywhere, which must then be refused.
 */
export function signEarlierToken(t: TestApp, user: SeededUser, opts: { secondsAgo?: number; sid?: string } = {}): string {
  const claims = {
    sub: String(user.user_id),
    user_id: user.user_id,
    username: user.username,
    org_id: user.organization_id,
    role: user.role,
    app: 'kidogo' as const,
    ...(opts.sid ? { sid: opts.sid } : {}),
    iat: Math.floor(Date.now() / 1000) - (opts.secondsAgo ?? 60),
  };
  return signToken(t, claims as AccessTokenClaims);
}

export function signToken(t: TestApp, claims: AccessTokenClaims, opts: { secret?: string; expiresIn?: number } = {}): string {
  return new JwtService().sign(claims, {
    secret: opts.secret ?? t.config.jwtSecret,
    algorithm: 'HS256',
    expiresIn: opts.expiresIn ?? 3600,
  });
}

/** An organization with an owner: the usual starting point of a test. */
export async function seedTenant(t: TestApp, opts: { role?: Role; status?: 'active' | 'suspended' | 'disabled' } = {}) {
  const org = await seedOrg(t, { status: opts.status });
  const user = await seedUser(t, { organization_id: org.id, role: opts.role ?? 'owner' });
  return { org, user };
}

let counter = 0;
const next = () => `${Date.now().toString(36)}${(counter++).toString(36)}${uniq()}`;

export async function seedCustomer(
  t: TestApp,
  orgId: string,
  data: Partial<{ customer_name: string; id_number: string; phone_contact: string; status: string; county: string; email: string | null; occupation: string }> = {},
) {
  const n = next();
  const phone = data.phone_contact ?? `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  return t.db.db.customer.create({
    data: {
      organization_id: orgId,
      customer_name: data.customer_name ?? `Customer ${n}`,
      id_number: data.id_number ?? `ID${n}`,
      phone_contact: phone,
      phone_normalized: normalizePhone(phone),
      status: data.status ?? 'active',
      county: data.county ?? 'Nairobi',
      email: data.email ?? null,
      occupation: data.occupation ?? null,
    },
  });
}

/**
 * A 10-character M-Pesa-style transaction code. Real codes mix letters and
 * digits, and the parser takes a code only when it has both (so that words
 * such as "Transaction confirmed" are never taken for one): a random hex
 * code of letters only (1 in ~20,000) made tests fail now and then.
 */
export const mpesaCode = (prefix: string) => `${prefix}${randomInt(10)}${randomBytes(4).toString('hex').toUpperCase()}`;

/** A device with real (sealed) OpenPAYGO factory data; the plain secret is returned for decoding tokens in tests. */
export async function seedItem(
  t: TestApp,
  orgId: string,
  data: Partial<{
    serial_number: string;
    product_name: string;
    product_oem: string | null;
    price: string;
    status: 'available' | 'assigned' | 'maintenance' | 'retired';
    customer_id: number | null;
    token_count: number;
    secret_key: string;
    starting_code: number;
  }> = {},
) {
  const secrets = t.app.get(DeviceSecrets);
  const secret = secrets.create({ secret_key: data.secret_key, starting_code: data.starting_code });
  const serial = data.serial_number ?? `SN-${next().toUpperCase()}`;
  const assigned = data.customer_id != null;
  const item = await t.db.db.item.create({
    data: {
      organization_id: orgId,
      serial_number: serial,
      serial_normalized: serial.toUpperCase().replace(/[\s-]/g, ''),
      product_name: data.product_name ?? 'Solar Home System 50W',
      manufacturer: 'SunCo',
      product_oem: data.product_oem ?? null,
      price: data.price ?? '20000.00',
      status: data.status ?? (assigned ? 'assigned' : 'available'),
      is_assigned: assigned,
      customer_id: data.customer_id ?? null,
      assigned_at: assigned ? new Date() : null,
      token_count: data.token_count ?? 0,
      ...secrets.seal(secret),
    },
  });
  return { ...item, secret };
}

export async function seedTemplate(
  t: TestApp,
  orgId: string,
  data: Partial<{
    template_name: string;
    daily_price: string;
    deposit_made: string;
    activation_price: string;
    grace_period_days: number;
    free_code_price: string | null;
    currency: string;
  }> = {},
) {
  return t.db.db.paymentTemplate.create({
    data: {
      organization_id: orgId,
      template_name: data.template_name ?? `Plan ${next()}`,
      daily_price: data.daily_price ?? '50.00',
      deposit_made: data.deposit_made ?? '0',
      activation_price: data.activation_price ?? '0',
      grace_period_days: data.grace_period_days ?? 0,
      free_code_price: data.free_code_price ?? null,
      currency: data.currency ?? 'KES',
    },
  });
}

/** Customer on a template with a device assigned: ready to pay. */
export async function seedCustomerWithDevice(
  t: TestApp,
  orgId: string,
  opts: { template?: Parameters<typeof seedTemplate>[2]; item?: Parameters<typeof seedItem>[2]; customer?: Parameters<typeof seedCustomer>[2] } = {},
) {
  const customer = await seedCustomer(t, orgId, opts.customer);
  const template = await seedTemplate(t, orgId, opts.template);
  await t.db.db.templateAssignment.create({
    data: { organization_id: orgId, customer_id: customer.id, template_id: template.id, is_active: true },
  });
  const item = await seedItem(t, orgId, { ...opts.item, customer_id: customer.id });
  await t.db.db.itemAssignment.create({ data: { organization_id: orgId, item_id: item.id, customer_id: customer.id } });
  return { customer, template, item };
}

/** The organization's receiver API key, read the way an owner does (GET /payg/settings/api-key). */
export async function seedApiKey(t: TestApp, owner: SeededUser): Promise<{ 'X-API-Key': string }> {
  const res = await t.http.get('/payg/settings/api-key').set(owner.auth).expect(200);
  return { 'X-API-Key': res.body.api_key as string };
}

/** An M-Pesa paybill confirmation as the business line receives it. */
export function mpesaPaybillSms(p: { code: string; amount: string; account: string; phone?: string; name?: string; when?: string }) {
  const when = p.when ?? 'on 5/6/24 at 10:15 AM';
  return `${p.code} Confirmed. Ksh${p.amount} received from ${p.name ?? 'JOHN KAMAU'} ${p.phone ?? '254712345678'} ${when}. Account Number ${p.account}. New Utility balance is Ksh45,300.00.`;
}

/** A payment as the pipeline records it: completed, with days bought; a successful one adds to the device's total paid. */
export async function seedPayment(
  t: TestApp,
  orgId: string,
  data: Partial<{
    customer_id: number | null;
    item_id: number | null;
    amount: string;
    status: 'success' | 'completed' | 'pending' | 'failed';
    payment_method: string;
    transaction_code: string | null;
    payer_name: string | null;
    days_bought: number;
    paid_at: Date;
    created_at: Date;
    source: string;
    recorded_by: string | null;
    collected_by: string | null;
  }> = {},
) {
  const status = data.status ?? 'completed';
  const amount = data.amount ?? '500.00';
  const at = data.paid_at ?? new Date();
  const payment = await t.db.db.payment.create({
    data: {
      organization_id: orgId,
      customer_id: data.customer_id ?? null,
      item_id: data.item_id ?? null,
      amount,
      status,
      payment_method: data.payment_method ?? 'mobile_money',
      transaction_code: data.transaction_code === undefined ? `TX${next().toUpperCase()}` : data.transaction_code,
      payer_name: data.payer_name ?? null,
      source: data.source ?? 'sms',
      recorded_by: data.recorded_by ?? null,
      collected_by: data.collected_by ?? null,
      days_bought: data.days_bought ?? 10,
      paid_at: at,
      created_at: data.created_at ?? at,
    },
  });
  if (data.item_id != null && (status === 'completed' || status === 'success')) {
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: orgId, id: data.item_id } },
      data: { total_paid: { increment: amount } },
    });
  }
  return payment;
}

/** A generated token: the next OpenPAYGO count of the device, as the token service writes it. */
export async function seedTokenLog(
  t: TestApp,
  orgId: string,
  item: { id: number; serial_number: string },
  data: Partial<{
    customer_id: number | null;
    customer_name: string | null;
    payment_id: number | null;
    token_type: 'add_time' | 'set_time' | 'activation' | 'unlock' | 'counter_sync';
    days: number;
    amount_paid: string | null;
    status: string;
    is_valid: boolean;
    generated_by: string | null;
    created_at: Date;
  }> = {},
) {
  const updated = await t.db.db.item.update({
    where: { organization_id_id: { organization_id: orgId, id: item.id } },
    data: { token_count: { increment: 1 } },
  });
  return t.db.db.tokenLog.create({
    data: {
      organization_id: orgId,
      item_id: item.id,
      serial_number: item.serial_number,
      customer_id: data.customer_id ?? null,
      customer_name: data.customer_name ?? null,
      payment_id: data.payment_id ?? null,
      token_value: String(Math.floor(1e8 + Math.random() * 9e8)),
      token_type: data.token_type ?? 'add_time',
      token_count: updated.token_count,
      value: data.days ?? 10,
      days_generated: String(data.days ?? 10),
      amount_paid: data.amount_paid ?? null,
      status: data.status ?? 'success',
      is_valid: data.is_valid ?? true,
      generated_by: data.generated_by ?? null,
      created_at: data.created_at ?? new Date(),
    },
  });
}

/** A forwarded mobile-money message and the reply sent to the payer. */
export async function seedMessage(
  t: TestApp,
  orgId: string,
  data: Partial<{
    received_message: string;
    forwarded_message: string | null;
    recipient_number: string | null;
    amount: string | null;
    item_id: number | null;
    payment_id: number | null;
    status: 'received' | 'processed' | 'duplicate' | 'unmatched' | 'unparsed';
    received_at: Date;
  }> = {},
) {
  const at = data.received_at ?? new Date();
  return t.db.db.message.create({
    data: {
      organization_id: orgId,
      received_message: data.received_message ?? `QK${next().toUpperCase()} Confirmed. Ksh500.00 received from JOHN DOE 0712345678.`,
      forwarded_message: data.forwarded_message === undefined ? 'Payment received. Your token: 123 456 789' : data.forwarded_message,
      recipient_number: data.recipient_number === undefined ? '254712345678' : data.recipient_number,
      amount: data.amount === undefined ? '500.00' : data.amount,
      item_id: data.item_id ?? null,
      payment_id: data.payment_id ?? null,
      status: data.status ?? 'processed',
      received_at: at,
      created_at: at,
    },
  });
}

/** One user of each role in one organization, plus a super admin in its own platform organization. */
export async function seedRoles(t: TestApp) {
  const org = await seedOrg(t);
  const platform = await seedOrg(t);
  const [owner, admin, staff, superAdmin] = await Promise.all([
    seedUser(t, { organization_id: org.id, role: 'owner' }),
    seedUser(t, { organization_id: org.id, role: 'admin' }),
    seedUser(t, { organization_id: org.id, role: 'staff' }),
    seedUser(t, { organization_id: platform.id, role: 'super_admin' }),
  ]);
  return { org, platform, owner, admin, staff, superAdmin };
}
