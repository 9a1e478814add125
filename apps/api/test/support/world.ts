import { randomBytes, randomUUID } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto.js';
import type { TestApp } from './test-app.js';
import {
  mpesaPaybillSms,
  seedApiKey,
  seedCustomer,
  seedItem,
  seedOrg,
  seedTemplate,
  seedUser,
  type SeededUser,
  mpesaCode,
} from './factories.js';

// One organization filled through the real API the way staff and the gateway
// fill it (customers, devices, a plan, payments with tokens and replies, an
// unmatched payment, settings, credentials, an invoice, a notification), with
// distinctive strings in every field that could leak. The isolation, role and
// bad-input matrices call every route against worlds like this one.

export const hex = (n = 4) => randomBytes(n).toString('hex');
/** The authenticator secret of the users the matrices give two-factor sign-in (codes: totpCode(TOTP_SECRET)). */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

/** A fresh Kenyan mobile number, 07XXXXXXXX. */
export const phone = () => `07${digits(8)}`;

/** A fresh M-Pesa receipt number (10 upper-case letters and digits, starting with a letter). */
export const receipt = () => mpesaCode('Q');

export interface World {
  org: string;
  tag: string;
  owner: SeededUser;
  admin: SeededUser;
  staff: SeededUser;
  customer: { id: number; name: string; id_number: string; phone: string; email: string };
  template: { id: number; name: string };
  device: { id: number; serial: string; product: string };
  freeDevice: { id: number; serial: string; product: string };
  oem: string;
  payment: { id: number; code: string };
  pending: { id: number; code: string };
  tokenValues: string[];
  configEntry: { id: number; key: string };
  invoice: { id: string };
  /** Strings that belong to this organization only: none may ever reach another organization. */
  secrets: string[];
}

export interface Platform {
  /** The super admin (in its own platform organization) that seeds what only a super admin can. */
  root: SeededUser;
  platformOrg: string;
  plan: string;
}

export async function seedPlatform(t: TestApp): Promise<Platform> {
  const org = await seedOrg(t, { id: `platform-${hex()}` });
  const root = await seedUser(t, { organization_id: org.id, role: 'super_admin', username: `root-${hex()}` });
  const plan = `plan-${hex()}`;
  await t.http.post('/payg/admin/plans').set(root.auth).send({ plan_code: plan, name: 'Basic' }).expect(201);
  return { root, platformOrg: org.id, plan };
}

/**
 * An organization with every kind of row, made through the API where the
 * API makes it (so the rows are what production writes).
 */
export async function seedWorld(
  t: TestApp,
  p: Platform,
  opts: { org?: string; status?: 'active' | 'suspended' | 'disabled'; label?: string } = {},
): Promise<World> {
  const tag = `${opts.label ?? 'w'}${hex(5)}`;
  const TAG = tag.toUpperCase();
  const org = opts.org ?? (await seedOrg(t, { id: `org-${tag}` })).id;
  const [owner, admin, staff] = await Promise.all(
    (['owner', 'admin', 'staff'] as const).map((role) => seedUser(t, { organization_id: org, role, username: `${role}-${tag}` })),
  );
  const as = owner.auth;
  const ok = async <T>(req: PromiseLike<{ status: number; body: T; text?: string }>, status = 200): Promise<T> => {
    const res = await req;
    if (res.status !== status) throw new Error(`seeding ${tag}: expected ${status}, got ${res.status} ${res.text}`);
    return res.body;
  };

  const customer = {
    name: `Wanjiru ${tag}`,
    id_number: `${TAG}ID`,
    phone: phone(),
    email: `${tag}@mail.test`,
  };
  const c = await ok<{ customer_id: number }>(
    t.http.post('/payg/register-customer').set(as).send({
      customer_name: customer.name,
      id_number: customer.id_number,
      phone_contact: customer.phone,
      email: customer.email,
      county: `County${tag}`,
      village: `Village${tag}`,
      occupation: `Farmer${tag}`,
    }),
    201,
  );
  const oem = `OEM${TAG}`;
  await ok(t.http.post('/payg/config/product-oem/upsert').set(as).send({ product_oem: oem, value_divider: 1 }));
  const template = { name: `Plan ${tag}` };
  const tpl = await ok<{ template_id: number }>(
    t.http.post('/payg/payments/templates/create').set(as).send({
      template_name: template.name,
      description: `Terms ${tag}`,
      daily_price: 50,
      deposit_made: 0,
      activation_price: 0,
      grace_period_days: 0,
      free_code_price: 100000,
    }),
    201,
  );
  const device = { serial: `${TAG}-SN1`, product: `Lamp ${tag}` };
  const freeDevice = { serial: `${TAG}-SN2`, product: `Radio ${tag}` };
  for (const d of [device, freeDevice]) {
    await ok(
      t.http.post('/payg/items/add').set(as).send({ serial_number: d.serial, product_name: d.product, manufacturer: `Maker${tag}`, product_oem: oem, price: 30000 }),
      201,
    );
  }
  await ok(t.http.post('/payg/onboarding').set(as).send({ customer_id: c.customer_id, item_serial_number: device.serial, template_id: tpl.template_id }));

  // Money in through the gateway: a matched payment (token + reply SMS) and an unmatched one.
  const key = await seedApiKey(t, owner);
  const paid = receipt();
  const r1 = await ok<{ status: string; payment_id: number }>(
    t.http.post('/payg/external/receive-phoneteletalk').set(key).send({
      from: 'MPESA',
      message: mpesaPaybillSms({ code: paid, amount: '500.00', account: device.serial, phone: `254${customer.phone.slice(1)}`, name: `PAYER ${TAG}` }),
    }),
  );
  if (r1.status !== 'processed') throw new Error(`seeding ${tag}: payment ${r1.status}`);
  const unmatched = receipt();
  const r2 = await ok<{ status: string; payment_id: number }>(
    t.http.post('/payg/external/receive-phoneteletalk').set(key).send({
      from: 'MPESA',
      message: mpesaPaybillSms({ code: unmatched, amount: '120.00', account: `NOPE${TAG}`, phone: `2547${digits(8)}`, name: `STRANGER ${TAG}` }),
    }),
  );
  if (r2.status !== 'unmatched') throw new Error(`seeding ${tag}: unmatched payment ${r2.status}`);
  await ok(t.http.post('/payg/generate-token-by-days').set(as).send({ serial_number: device.serial, number_of_days: 7 }));
  const tokens = await t.db.db.tokenLog.findMany({ where: { organization_id: org }, select: { token_value: true } });

  const entry = await ok<{ config_id: number; key: string }>(
    t.http.post('/payg/config/create').set(as).send({ key: `${tag}.setting`, value: { secret: `${tag}-value` }, description: `About ${tag}` }),
    201,
  );
  const credential = `${tag}-oem-password`;
  await ok(t.http.post('/payg/config/credentials/upsert').set(as).send({ organization_id: org, oem_name: oem, credentials: { password: credential } }));
  const smsSecret = `${tag}-sms-secret`;
  await ok(
    t.http.put('/payg/settings/sms-provider').set(as).send({ provider: 'sms_webhook', config: { url: `http://127.0.0.1:9/${tag}`, secret: smsSecret } }),
  );
  await ok(t.http.put('/payg/update-invoice-settings').set(as).send({ billing_name: `Billing ${tag}`, billing_details: `PO Box ${tag}` }));
  const invoice = await ok<{ invoice_id: string }>(
    t.http.post('/payg/admin/invoices').set(p.root.auth).send({
      organization_id: org,
      customer_name: `Accounts ${tag}`,
      customer_email: `billing-${tag}@mail.test`,
      amount: 250,
      description: `Subscription ${tag}`,
    }),
    201,
  );
  await ok(t.http.post(`/payg/admin/organizations/${org}/notify`).set(p.root.auth).send({ message: `Notice ${tag}` }), 201);
  // A customer imported from a file (an import job).
  await ok(
    t.http
      .post('/payg/upload-csv')
      .set(as)
      .attach('csv_file', Buffer.from(`customer_name,id_number,phone_contact\nImported ${tag},${TAG}IMP,${phone()}\n`), 'customers.csv'),
  );

  if (opts.status && opts.status !== 'active') {
    await t.db.platform.organization.update({
      where: { id: org },
      data: { status: opts.status, disabled_reason: `Reason ${tag}`, status_changed_at: new Date() },
    });
  }

  const world: World = {
    org,
    tag,
    owner,
    admin,
    staff,
    customer: { id: c.customer_id, ...customer },
    template: { id: tpl.template_id, name: template.name },
    device: { id: (await itemId(t, org, device.serial))!, ...device },
    freeDevice: { id: (await itemId(t, org, freeDevice.serial))!, ...freeDevice },
    oem,
    payment: { id: r1.payment_id, code: paid },
    pending: { id: r2.payment_id, code: unmatched },
    tokenValues: tokens.map((x) => x.token_value),
    configEntry: { id: entry.config_id, key: entry.key },
    invoice: { id: invoice.invoice_id },
    secrets: [],
  };
  // Whole field values, never the bare tag: a request that names one of them
  // (a search term, a serial) may see it echoed, but no other one.
  world.secrets = [
    org,
    `County${tag}`,
    `Village${tag}`,
    `Farmer${tag}`,
    `Terms ${tag}`,
    `Maker${tag}`,
    `PAYER ${TAG}`,
    `STRANGER ${TAG}`,
    `Imported ${tag}`,
    `${TAG}IMP`,
    entry.key,
    `${tag}-value`,
    `About ${tag}`,
    `Billing ${tag}`,
    `PO Box ${tag}`,
    `Accounts ${tag}`,
    `billing-${tag}@mail.test`,
    `Subscription ${tag}`,
    `Notice ${tag}`,
    customer.name,
    customer.id_number,
    customer.phone,
    `254${customer.phone.slice(1)}`,
    customer.email,
    device.serial,
    freeDevice.serial,
    device.product,
    freeDevice.product,
    template.name,
    oem,
    paid,
    unmatched,
    ...world.tokenValues,
    credential,
    smsSecret,
    key['X-API-Key'],
    owner.username,
    admin.username,
    staff.username,
  ];
  return world;
}

async function itemId(t: TestApp, org: string, serial: string) {
  return (await t.db.db.item.findFirst({ where: { organization_id: org, serial_number: serial }, select: { id: true } }))?.id;
}

// ------------------------------------------------------------------ fresh rows

/** Rows made for one call that changes or deletes them, so the world itself stays as seeded. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const fresh = {
  customer: (t: TestApp, w: World) => seedCustomer(t, w.org, { customer_name: `Fresh ${hex()}` }),
  /** Bytes that read as a PNG, different every time (a document's type is read from its first bytes). */
  png: () => Buffer.concat([PNG_SIGNATURE, randomBytes(64)]),
  /** A new document of the world's customer, by id. */
  async document(t: TestApp, w: World): Promise<number> {
    const content = fresh.png();
    const { rows } = await t.db.pool.query(
      `INSERT INTO customer_documents (organization_id, customer_id, kind, file_name, content_type, size_bytes, sha256, content, uploaded_by)
       VALUES ($1, $2, 'id_back', $3, 'image/png', $4, encode(sha256($5), 'hex'), $5, 'seed') RETURNING document_id`,
      [w.org, w.customer.id, `id-back-${w.tag}.png`, content.length, content],
    );
    return rows[0].document_id as number;
  },
  /** A customer who texted STOP, for a call that lets texts through again. */
  async optedOutCustomer(t: TestApp, w: World) {
    const customer = await fresh.customer(t, w);
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: w.org, id: customer.id } },
      data: { sms_opted_out_at: new Date(), sms_opt_out_source: 'sms' },
    });
    return customer;
  },
  item: (t: TestApp, w: World, data: Parameters<typeof seedItem>[2] = {}) => seedItem(t, w.org, { product_name: `Fresh ${hex()}`, ...data }),
  template: (t: TestApp, w: World) => seedTemplate(t, w.org, { template_name: `Fresh ${hex()}` }),
  async assignedItem(t: TestApp, w: World) {
    const customer = await fresh.customer(t, w);
    const item = await fresh.item(t, w, { customer_id: customer.id });
    await t.db.db.itemAssignment.create({ data: { organization_id: w.org, item_id: item.id, customer_id: customer.id } });
    return item;
  },
  user: (t: TestApp, w: World, role: 'owner' | 'admin' | 'staff' = 'staff') => seedUser(t, { organization_id: w.org, role, username: `fresh-${hex()}` }),
  configEntry: (t: TestApp, w: World) =>
    t.db.db.configEntry.create({ data: { organization_id: w.org, key: `fresh.${hex()}`, value: { n: 1 } } }),
  pendingPayment: (t: TestApp, w: World) =>
    t.db.db.payment.create({
      data: {
        organization_id: w.org,
        amount: '75.00',
        status: 'pending',
        payment_method: 'mobile_money',
        transaction_code: receipt(),
        source: 'sms',
        paid_at: new Date(),
      },
    }),
  /** A cash payment applied to a device of its own (a plan-less device: the money is held as credit), for a call that reverses it. */
  async completedPayment(t: TestApp, w: World): Promise<{ id: number }> {
    const item = await fresh.assignedItem(t, w);
    const res = await t.http.post('/payg/payments').set(w.owner.auth).send({ serial_number: item.serial_number, amount: 60, payment_method: 'cash' });
    if (res.status !== 201) throw new Error(`fresh payment: ${res.status} ${res.text}`);
    return { id: res.body.payment_id as number };
  },
  async invoice(t: TestApp, p: Platform, org: string): Promise<string> {
    const res = await t.http
      .post('/payg/admin/invoices')
      .set(p.root.auth)
      .send({ organization_id: org, customer_name: 'Fresh', customer_email: 'fresh@mail.test', amount: 10 });
    if (res.status !== 201) throw new Error(`fresh invoice: ${res.status} ${res.text}`);
    return res.body.invoice_id as string;
  },
  org: async (t: TestApp) => (await seedOrg(t, { id: `fresh-${hex()}` })).id,
  /** An API token of the world's staff user: the user may revoke it, and so may the organization's owners and admins. */
  /**
   * Two-factor sign-in with TOTP_SECRET for every user of the world's organization, set up (pending)
   * or on, or off for all: the calls on one's own account act for whichever user sends them.
   */
  async twoFactorForAll(t: TestApp, w: World, state: 'off' | 'pending' | 'on') {
    const sealed = t.app.get(SecretBox).seal(TOTP_SECRET);
    await t.db.platform.user.updateMany({
      where: { organization_id: w.org },
      data:
        state === 'off'
          ? { totp_secret_enc: null, totp_enabled_at: null, totp_last_step: null, totp_recovery_codes: [] }
          : { totp_secret_enc: sealed, totp_enabled_at: state === 'on' ? new Date() : null, totp_last_step: null, totp_recovery_codes: [] },
    });
  },
  /**
   * A live session with the same id for every user of the installation, so a
   * call ending "your session SESSION_ID" finds one whoever the caller is.
   */
  async sessionForAll(t: TestApp): Promise<string> {
    const sid = randomUUID();
    await t.db.pool.query(
      `INSERT INTO refresh_tokens (id, user_id, token_hash, expires_at, session_id, signed_in_at, user_agent, ip)
       SELECT gen_random_uuid(), user_id, replace(gen_random_uuid()::text, '-', ''), now() + interval '1 day', $1, now(), 'Matrix/1.0', '127.0.0.1'
       FROM users`,
      [sid],
    );
    return sid;
  },
  /** A staff user of the world with two-factor sign-in on (TOTP_SECRET). */
  async twoFactorUser(t: TestApp, w: World) {
    const user = await seedUser(t, { organization_id: w.org, role: 'staff', username: `2fa-${hex()}` });
    await t.db.platform.user.update({
      where: { id: user.user_id },
      data: { totp_secret_enc: t.app.get(SecretBox).seal(TOTP_SECRET), totp_enabled_at: new Date() },
    });
    return user;
  },
  apiToken: (t: TestApp, w: World) =>
    t.db.db.apiToken.create({
      data: { user_id: w.staff.user_id, organization_id: w.org, name: `Fresh ${hex()}`, token_hash: hex(32), hint: 'abcd' },
    }),
  /**
   * A webhook endpoint with one failed delivery, written directly: its address is one the test
   * installation refuses to call (private), so a test event or a redelivery fails at once, offline.
   */
  async webhook(t: TestApp, w: World): Promise<{ id: number; deliveryId: number }> {
    const endpoint = await t.db.db.webhookEndpoint.create({
      data: {
        organization_id: w.org,
        url: `http://127.0.0.1:9/${hex()}`,
        events: ['token.issued'],
        secret_enc: t.app.get(SecretBox).seal('whsec_test'),
        secret_hint: 'whsec_…test',
      },
    });
    const delivery = await t.db.db.webhookDelivery.create({
      data: { organization_id: w.org, endpoint_id: endpoint.id, event_id: randomUUID(), event_type: 'token.issued', payload: { id: 'e' }, status: 'failed', attempts: 7 },
    });
    return { id: endpoint.id, deliveryId: delivery.id };
  },
};
