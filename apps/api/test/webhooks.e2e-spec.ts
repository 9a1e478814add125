import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import {
  WEBHOOK_EVENT_TYPES,
  ZReceiveReplySchema,
  ZWebhookDeliveryListReplySchema,
  ZWebhookDeliverySchema,
  ZWebhookEndpointSchema,
  ZWebhookEventBodySchema,
  ZWebhookListReplySchema,
  ZWebhookWithSecretSchema,
  type WebhookEventBody,
} from '@kidogo/contracts';
import { WebhookDeliveryService, WEBHOOK_PER_ENDPOINT, WEBHOOK_RETRY_DELAYS_S } from '../src/webhooks/webhook-delivery.service.js';
import { postEvent, type Resolve } from '../src/webhooks/webhook-sender.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, payCash } from './support/plans.js';
import { mpesaCode, mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// Event webhooks (README "Webhooks"): an organization's endpoints get a signed
// POST for each event they subscribe to, written in the transaction that made
// the event and sent by WebhookDeliveryService with retries.

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: WebhookEventBody;
  /** The path and query it was sent to. */
  path: string;
}

/** An integrator's server: records what it is sent and answers with `status`, after `delayMs`. */
class Receiver {
  readonly received: Received[] = [];
  status = 200;
  delayMs = 0;
  /** The most requests to one path (and query) it had open at once. */
  readonly mostAtOnce = new Map<string, number>();
  private open = new Map<string, number>();
  private server = http.createServer((req, res) => {
    const path = req.url ?? '';
    const open = (this.open.get(path) ?? 0) + 1;
    this.open.set(path, open);
    this.mostAtOnce.set(path, Math.max(open, this.mostAtOnce.get(path) ?? 0));
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      this.received.push({ headers: req.headers, raw, body: ZWebhookEventBodySchema.parse(JSON.parse(raw)), path });
      setTimeout(() => {
        this.open.set(path, this.open.get(path)! - 1);
        res.writeHead(this.status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ received: true, status: this.status }));
      }, this.delayMs);
    });
  });
  url = '';
  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/kidogo/events`;
    return this;
  }
  close = () => new Promise<void>((r) => this.server.close(() => r()));
  ofType = (type: string) => this.received.filter((r) => r.body.type === type);
}

/** The receiver's side of the signature: t within five minutes, v1 the HMAC of "t.body". */
function verify(secret: string, r: Received): boolean {
  const header = String(r.headers['kidogo-signature'] ?? '');
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
  return createHmac('sha256', secret).update(`${m[1]}.${r.raw}`).digest('hex') === m[2];
}

describe('event webhooks', () => {
  let t: TestApp;
  let worker: WebhookDeliveryService;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    worker = t.app.get(WebhookDeliveryService);
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.status = 200;
    receiver.delayMs = 0;
    receiver.mostAtOnce.clear();
  });

  const create = (user: SeededUser, body: object) => t.http.post('/payg/webhooks').set(user.auth).send(body);
  const subscribe = async (user: SeededUser, events: readonly string[] = WEBHOOK_EVENT_TYPES, url = receiver.url) =>
    ZWebhookWithSecretSchema.parse((await create(user, { url, events, description: 'ERP' }).expect(201)).body);
  const deliveries = async (user: SeededUser, id: number, query = '') =>
    ZWebhookDeliveryListReplySchema.parse((await t.http.get(`/payg/webhooks/${id}/deliveries${query}`).set(user.auth).expect(200)).body);
  /** Makes every waiting delivery due now (as if its retry time had come). */
  const makeDue = (orgId: string) =>
    t.db.pool.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE organization_id = $1 AND status = 'pending'`, [orgId]);

  it('sends each subscribed event once, signed, with what an integrator needs, from the transaction that made it', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const hook = await subscribe(user);
    expect(hook).toMatchObject({ url: receiver.url, description: 'ERP', events: [...WEBHOOK_EVENT_TYPES], is_active: true, pending: 0, last_attempt: null });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(hook.secret_hint).toBe(`whsec_…${hook.secret.slice(-4)}`);
    // Shown once: the list and the endpoint carry only its hint.
    const list = ZWebhookListReplySchema.parse((await t.http.get('/payg/webhooks').set(user.auth).expect(200)).body);
    expect(list.data).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
    expect(list.events.map((e) => e.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
    // Sealed at rest.
    const stored = await t.db.db.webhookEndpoint.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: hook.id } } });
    expect(stored.secret_enc).not.toContain(hook.secret);

    // A customer pays by M-Pesa: payment.applied, with the code the device takes.
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
    const code = mpesaCode('W');
    const sms = mpesaPaybillSms({ code, amount: '1500.00', account: s.item.serial_number, phone: '254722000111' });
    const paid = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
    // The gateway sends it again: a duplicate makes no second event.
    await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200);
    // Money for no device: payment.held. Staff reject it: payment.rejected.
    const stray = ZReceiveReplySchema.parse(
      (await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: mpesaPaybillSms({ code: mpesaCode('X'), amount: '70.00', account: 'NO-SUCH-1' }) }).expect(200)).body,
    );
    await t.http.post(`/payg/payments/${stray.payment_id}/reject`).set(user.auth).send({ reason: 'Meant for another business' }).expect(200);
    // A staff code: token.issued. A refused one (no such device) makes none.
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: s.item.serial_number, number_of_days: 2 }).expect(200);
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: 'NO-SUCH-2', number_of_days: 2 }).expect(404);

    expect(await worker.drain()).toEqual({ delivered: 4, retrying: 0, failed: 0 });
    expect(receiver.received.map((r) => r.body.type).sort()).toEqual(['payment.applied', 'payment.held', 'payment.rejected', 'token.issued']);
    for (const r of receiver.received) {
      expect(verify(hook.secret, r)).toBe(true);
      expect(verify('whsec_wrong', r)).toBe(false);
      expect(r.headers['kidogo-event']).toBe(r.body.type);
      expect(r.headers['kidogo-event-id']).toBe(r.body.id);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.body.organization_id).toBe(org.id);
      // Sent as written: the envelope's keys in their documented order.
      expect(Object.keys(JSON.parse(r.raw))).toEqual(['id', 'type', 'created_at', 'organization_id', 'data']);
    }
    const [applied] = receiver.ofType('payment.applied');
    expect(applied!.body.data).toMatchObject({
      payment_id: paid.payment_id,
      transaction_code: code,
      amount: '1500.00',
      currency: 'KES',
      method: 'mobile_money',
      source: 'sms',
      payer_phone: '254722000111',
      serial_number: s.item.serial_number,
      customer_id: s.customer.id,
      customer_name: s.customer.customer_name,
      days: 3,
      total_paid: '1500.00',
      tokens: [expect.objectContaining({ token: paid.token, token_type: 'activation' })],
    });
    const device = new Device({ secretKey: s.item.secret.secretKey, startingCode: s.item.secret.startingCode }, 1);
    const tokens = applied!.body.data.tokens as { token: string }[];
    expect(device.enterToken(tokens[0]!.token, new Date())).toMatchObject({ status: 'VALID' });
    expect(receiver.ofType('payment.held')[0]!.body.data).toMatchObject({
      payment_id: stray.payment_id,
      amount: '70.00',
      account_reference: 'NO-SUCH-1',
      hold_reason: 'No single device matches the account reference NO-SUCH-1',
    });
    expect(receiver.ofType('payment.rejected')[0]!.body.data).toMatchObject({ payment_id: stray.payment_id, reason: 'Meant for another business', rejected_by: user.username });
    const issued = receiver.ofType('token.issued')[0]!.body.data;
    expect(issued).toMatchObject({ serial_number: s.item.serial_number, token_type: 'add_time', days: 2, issued_by: user.username });
    expect(device.enterToken(issued.token as string, new Date())).toMatchObject({ status: 'VALID', days: 2 });

    // The delivery log: each delivered with the endpoint's answer.
    const log = await deliveries(user, hook.id);
    expect(log.data).toHaveLength(4);
    for (const d of log.data) {
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200, error: null, next_attempt_at: null });
      expect(d.response_body).toBe('{"received":true,"status":200}');
    }
    expect((await deliveries(user, hook.id, '?event_type=token.issued')).data.map((d) => d.event_type)).toEqual(['token.issued']);
    const page = await deliveries(user, hook.id, '?limit=3');
    expect(page.data).toHaveLength(3);
    const rest = await deliveries(user, hook.id, `?limit=3&cursor=${page.next_cursor}`);
    expect(rest).toMatchObject({ next_cursor: null });
    expect([...page.data, ...rest.data].map((d) => d.id)).toEqual(log.data.map((d) => d.id));
    // Nothing left to send.
    expect(await worker.drain()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    expect(ZWebhookEndpointSchema.parse((await t.http.get(`/payg/webhooks/${hook.id}`).set(user.auth).expect(200)).body)).toMatchObject({
      pending: 0,
      failed_7d: 0,
      last_attempt: { ok: true, response_status: 200, error: null },
    });
  });

  it('sends reversals and repossessions, and only the events an endpoint subscribed to', async () => {
    const { user, org } = await seedTenant(t);
    const money = await subscribe(user, ['payment.reversed', 'device.repossessed']);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    await payCash(t, user, s.item.serial_number, '2400.00');
    const second = await payCash(t, user, s.item.serial_number, '100.00');
    await t.http.post(`/payg/payments/${second.payment_id}/reverse`).set(user.auth).send({ reason: 'Cash entered on the wrong device' }).expect(200);
    const repossessed = await t.http.post('/payg/items/repossess').set(user.auth).send({ item_serial_number: s.item.serial_number, reason: 'Four months without paying' }).expect(200);

    expect(await worker.drain()).toMatchObject({ delivered: 2 });
    expect(receiver.received.map((r) => r.body.type)).toEqual(['payment.reversed', 'device.repossessed']);
    expect(receiver.ofType('payment.reversed')[0]!.body.data).toMatchObject({
      payment_id: second.payment_id,
      amount: '100.00',
      reason: 'Cash entered on the wrong device',
      reversed_by: user.username,
      serial_number: s.item.serial_number,
      customer_id: s.customer.id,
      days_removed: 2,
      device: { total_paid: '2400.00' },
    });
    expect(receiver.ofType('device.repossessed')[0]!.body.data).toMatchObject({
      serial_number: s.item.serial_number,
      customer_id: s.customer.id,
      reason: 'Four months without paying',
      total_paid: '2400.00',
      written_off: '17600.00',
      status: 'maintenance',
      lock_token: { token: repossessed.body.lock_token.token, token_count: repossessed.body.lock_token.token_count },
      repossessed_by: user.username,
    });
    // Subscribing to more sends the next ones too (the lock code was token.issued, not subscribed then).
    await t.http.patch(`/payg/webhooks/${money.id}`).set(user.auth).send({ events: ['token.issued', 'payment.reversed'] }).expect(200);
    receiver.received.length = 0;
    const other = await seedCustomerWithDevice(t, org.id);
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: other.item.serial_number, number_of_days: 1 }).expect(200);
    await worker.drain();
    expect(receiver.received.map((r) => r.body.type)).toEqual(['token.issued']);
  });

  it('tells a CRM of each customer registered or imported, and of devices given and taken back', async () => {
    const { user } = await seedTenant(t);
    const hook = await subscribe(user, ['customer.created', 'device.assigned', 'device.unassigned']);
    const registered = await t.http
      .post('/payg/register-customer')
      .set(user.auth)
      .send({ customer_name: 'Achieng Otieno', id_number: '29001001', phone_contact: '0712 000 901', county: 'Kisumu' })
      .expect(201);
    // An import: two new customers and one already registered (skipped: no event).
    const csv = ['Customer Name,ID Number,Phone Contact,County', 'Baraka Mwangi,29001002,0712000902,Nyeri', 'Achieng Otieno,29001001,0712000901,Kisumu', 'Chebet Kip,29001003,0712000903,Kericho'].join('\n');
    const imported = await t.http.post('/payg/upload-csv').set(user.auth).attach('csv_file', Buffer.from(csv, 'utf8'), 'customers.csv').expect(200);
    expect(imported.body).toMatchObject({ imported: 2, duplicates: 1 });
    await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: 'WH-ASSIGN-1', product_name: 'Lamp', price: 3000 }).expect(201);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: registered.body.customer_id, item_serial_number: 'WH-ASSIGN-1' }).expect(200);
    // The same assignment again changes nothing, and says nothing.
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: registered.body.customer_id, item_serial_number: 'WH-ASSIGN-1' }).expect(200);
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: 'WH-ASSIGN-1' }).expect(200);

    expect(await worker.drain()).toMatchObject({ delivered: 5, failed: 0 });
    for (const r of receiver.received) expect(verify(hook.secret, r)).toBe(true);
    const created = receiver.ofType('customer.created').map((r) => r.body.data);
    expect(created.map((c) => [c.customer_name, c.id_number, c.source])).toEqual([
      ['Achieng Otieno', '29001001', 'register'],
      ['Baraka Mwangi', '29001002', 'import'],
      ['Chebet Kip', '29001003', 'import'],
    ]);
    // The customer as GET /customers/{id} gives it.
    const fetched = (await t.http.get(`/payg/customers/${registered.body.customer_id}`).set(user.auth).expect(200)).body;
    expect(created[0]).toEqual({ ...fetched, source: 'register' });
    expect(receiver.ofType('device.assigned').map((r) => r.body.data)).toEqual([
      {
        serial_number: 'WH-ASSIGN-1',
        item_id: expect.any(Number),
        customer_id: registered.body.customer_id,
        customer_name: 'Achieng Otieno',
        new_account: true,
        assigned_at: expect.any(String),
        assigned_by: user.username,
        override_reason: null,
      },
    ]);
    expect(receiver.ofType('device.unassigned')[0]!.body.data).toMatchObject({
      serial_number: 'WH-ASSIGN-1',
      customer_id: registered.body.customer_id,
      status: 'available',
      unassigned_by: user.username,
    });
  });

  it('tells a CRM of each customer changed or deleted, of texts stopped by SMS or staff, and of each contact logged', async () => {
    const { org, user } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const hook = await subscribe(user, ['customer.updated', 'customer.deleted', 'contact.logged']);
    const customer = (
      await t.http.post('/payg/register-customer').set(user.auth).send({ customer_name: 'Zawadi Njeri', id_number: '29002001', phone_contact: '0712 000 911' }).expect(201)
    ).body as { customer_id: number };
    const url = `/payg/customers/${customer.customer_id}`;
    await t.http.put(url).set(user.auth).send({ county: 'Nakuru', occupation: 'Farmer' }).expect(200);
    // The same values again: nothing changed, nothing said.
    await t.http.put(url).set(user.auth).send({ county: 'Nakuru' }).expect(200);
    // The customer texts STOP; an owner lets texts through again when asked.
    expect(ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from: '0712000911', message: 'STOP' }).expect(200)).body)).toMatchObject({
      request: 'sms_opt_out',
      customers: 1,
    });
    await t.http.delete(`${url}/sms-opt-out`).set(user.auth).expect(200);
    // A call about a device out of credit, with a promise.
    const d = await seedCustomerWithDevice(t, org.id);
    const promised = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' });
    await t.http.post(`/payg/collections/${d.item.id}/contacts`).set(user.auth).send({ outcome: 'promised_to_pay', promised_on: promised, note: 'Pays on Friday' }).expect(201);
    await t.http.delete(url).set(user.auth).expect(200);

    expect(await worker.drain()).toMatchObject({ delivered: 5, failed: 0 });
    for (const r of receiver.received) expect(verify(hook.secret, r)).toBe(true);
    const updated = receiver.ofType('customer.updated').map((r) => r.body.data);
    expect(updated.map((c) => [c.changed, c.source, c.county, c.sms_opt_out_source])).toEqual([
      [['county', 'occupation'], 'staff', 'Nakuru', null],
      [['sms_opted_out_at', 'sms_opt_out_source'], 'sms', 'Nakuru', 'sms'],
      [['sms_opted_out_at', 'sms_opt_out_source'], 'staff', 'Nakuru', null],
    ]);
    expect(updated[1]).toMatchObject({ customer_id: customer.customer_id, customer_name: 'Zawadi Njeri', sms_opted_out_at: expect.any(String) });
    expect(receiver.ofType('contact.logged')[0]!.body.data).toMatchObject({
      item_id: d.item.id,
      serial_number: d.item.serial_number,
      customer_id: d.customer.id,
      outcome: 'promised_to_pay',
      promised_on: promised,
      note: 'Pays on Friday',
      contacted_by: user.username,
    });
    expect(receiver.ofType('customer.deleted')[0]!.body.data).toEqual({ customer_id: customer.customer_id, customer_name: 'Zawadi Njeri', id_number: '29002001' });
  });

  it('retries an endpoint that fails, then gives up; redelivery and the test event send at once', async () => {
    const { user, org } = await seedTenant(t);
    const hook = await subscribe(user, ['token.issued']);
    const s = await seedCustomerWithDevice(t, org.id);
    receiver.status = 500;
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: s.item.serial_number, number_of_days: 1 }).expect(200);
    expect(await worker.drain()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    let [d] = (await deliveries(user, hook.id)).data;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, error: 'answered HTTP 500', delivered_at: null });
    const wait = Date.parse(d!.next_attempt_at!) - Date.now();
    expect(wait).toBeGreaterThan((WEBHOOK_RETRY_DELAYS_S[0] - 5) * 1000);
    expect(wait).toBeLessThanOrEqual(WEBHOOK_RETRY_DELAYS_S[0] * 1000);
    // Not due yet: nothing is sent.
    expect(await worker.drain()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    // Due, and the endpoint is back: the same event (same id) is delivered.
    receiver.status = 204;
    await makeDue(org.id);
    expect(await worker.drain()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(1);
    expect(receiver.received).toHaveLength(2);
    [d] = (await deliveries(user, hook.id)).data;
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, response_status: 204, error: null });

    // An endpoint that never answers 2xx: failed after the last retry.
    receiver.status = 503;
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: s.item.serial_number, number_of_days: 1 }).expect(200);
    for (let i = 0; i <= WEBHOOK_RETRY_DELAYS_S.length; i++) {
      await makeDue(org.id);
      await worker.drain();
    }
    const failed = (await deliveries(user, hook.id, '?status=failed')).data;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ attempts: WEBHOOK_RETRY_DELAYS_S.length + 1, response_status: 503, error: 'answered HTTP 503', next_attempt_at: null });
    // The organization is told, once a day at most for the endpoint, under the bell.
    const told = async () => (await t.http.get('/payg/notifications').set(user.auth).expect(200)).body.data.map((n: { message: string; level: string }) => [n.level, n.message]);
    expect(await told()).toEqual([
      [
        'warning',
        `Webhook endpoint ${receiver.url} missed a token.issued event: ${WEBHOOK_RETRY_DELAYS_S.length + 1} attempts over a day failed (last: answered HTTP 503). ` +
          'Owners and admins: Settings → Webhooks → Deliveries, then Send Again once it is fixed.',
      ],
    ]);
    expect(ZWebhookEndpointSchema.parse((await t.http.get(`/payg/webhooks/${hook.id}`).set(user.auth).expect(200)).body)).toMatchObject({
      failed_7d: 1,
      pending: 0,
      last_attempt: { ok: false, response_status: 503, error: 'answered HTTP 503' },
    });
    // Fixed: staff send it again.
    receiver.status = 200;
    const again = ZWebhookDeliverySchema.parse((await t.http.post(`/payg/webhooks/${hook.id}/deliveries/${failed[0]!.id}/redeliver`).set(user.auth).expect(200)).body);
    expect(again).toMatchObject({ id: failed[0]!.id, status: 'delivered', attempts: WEBHOOK_RETRY_DELAYS_S.length + 2, response_status: 200 });
    await t.http.post(`/payg/webhooks/${hook.id}/deliveries/999999/redeliver`).set(user.auth).expect(404);

    // Another event missed the same day: the organization is not told twice.
    receiver.status = 503;
    await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: s.item.serial_number, number_of_days: 1 }).expect(200);
    for (let i = 0; i <= WEBHOOK_RETRY_DELAYS_S.length; i++) {
      await makeDue(org.id);
      await worker.drain();
    }
    expect((await deliveries(user, hook.id, '?status=failed')).data).toHaveLength(1);
    expect(await told()).toHaveLength(1);
    receiver.status = 200;

    // The test event: sent now, answered, listed; a failing endpoint's answer is shown, not retried.
    const test = ZWebhookDeliverySchema.parse((await t.http.post(`/payg/webhooks/${hook.id}/test`).set(user.auth).expect(200)).body);
    expect(test).toMatchObject({ event_type: 'webhook.test', status: 'delivered', attempts: 1, response_status: 200 });
    expect(receiver.received.at(-1)!.body).toMatchObject({ type: 'webhook.test', data: { endpoint_id: hook.id } });
    expect(verify(hook.secret, receiver.received.at(-1)!)).toBe(true);
    receiver.status = 401;
    const refused = ZWebhookDeliverySchema.parse((await t.http.post(`/payg/webhooks/${hook.id}/test`).set(user.auth).expect(200)).body);
    expect(refused).toMatchObject({ status: 'failed', response_status: 401, error: 'answered HTTP 401' });
    // An address nothing listens on.
    await t.http.patch(`/payg/webhooks/${hook.id}`).set(user.auth).send({ url: 'http://127.0.0.1:9/closed' }).expect(200);
    const unreachable = ZWebhookDeliverySchema.parse((await t.http.post(`/payg/webhooks/${hook.id}/test`).set(user.auth).expect(200)).body);
    expect(unreachable).toMatchObject({ status: 'failed', response_status: null, error: 'unreachable: ECONNREFUSED' });
  });

  it('pauses an endpoint (its queue waits), rotates its secret, deletes it with its log', async () => {
    const { user, org } = await seedTenant(t);
    const hook = await subscribe(user, ['token.issued']);
    const s = await seedCustomerWithDevice(t, org.id);
    const issue = () => t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: s.item.serial_number, number_of_days: 1 }).expect(200);
    await issue(); // queued before the pause
    const paused = ZWebhookEndpointSchema.parse((await t.http.patch(`/payg/webhooks/${hook.id}`).set(user.auth).send({ is_active: false }).expect(200)).body);
    expect(paused).toMatchObject({ is_active: false, pending: 1 });
    await issue(); // while paused: not queued
    expect(await worker.drain()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    expect(receiver.received).toHaveLength(0);

    const rotated = ZWebhookWithSecretSchema.parse((await t.http.post(`/payg/webhooks/${hook.id}/rotate-secret`).set(user.auth).expect(200)).body);
    expect(rotated.secret).not.toBe(hook.secret);
    await t.http.patch(`/payg/webhooks/${hook.id}`).set(user.auth).send({ is_active: true }).expect(200);
    expect(await worker.drain()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    // The waiting delivery goes out signed with the secret of the moment.
    expect(verify(rotated.secret, receiver.received[0]!)).toBe(true);
    expect(verify(hook.secret, receiver.received[0]!)).toBe(false);

    const audit = await t.db.db.auditLog.findMany({ where: { organization_id: org.id, action: { startsWith: 'webhook.' } }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.updated']);
    expect(audit[1]!.description).toBe(`Webhook endpoint ${hook.id} (${receiver.url}) paused by ${user.username} (is_active)`);

    expect((await t.http.delete(`/payg/webhooks/${hook.id}`).set(user.auth).expect(200)).body).toEqual({ message: 'Webhook endpoint deleted' });
    await t.http.get(`/payg/webhooks/${hook.id}`).set(user.auth).expect(404);
    expect(await t.db.db.webhookDelivery.count({ where: { organization_id: org.id } })).toBe(0);
    await issue();
    expect(await t.db.db.webhookDelivery.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it("sends a burst a few at a time, beside other organizations' events rather than before them", async () => {
    const busy = await seedTenant(t);
    const quiet = await seedTenant(t);
    await subscribe(busy.user, ['token.issued'], `${receiver.url}?org=busy`);
    await subscribe(quiet.user, ['token.issued'], `${receiver.url}?org=quiet`);
    const issue = async (tenant: typeof busy, times: number) => {
      const s = await seedCustomerWithDevice(t, tenant.org.id);
      for (let i = 0; i < times; i++) {
        await t.http.post('/payg/generate-token-by-days').set(tenant.user.auth).send({ serial_number: s.item.serial_number, number_of_days: 1 }).expect(200);
      }
    };
    await issue(busy, 3 * WEBHOOK_PER_ENDPOINT); // the burst, queued first
    await issue(quiet, 1);
    receiver.delayMs = 40;

    expect(await worker.drain()).toMatchObject({ delivered: 3 * WEBHOOK_PER_ENDPOINT + 1, failed: 0 });
    const order = receiver.received.map((r) => r.path.split('=')[1]);
    // The quiet organization's event went out with the burst's first few, not after all of them.
    expect(order.indexOf('quiet')).toBeLessThan(WEBHOOK_PER_ENDPOINT + 1);
    expect(order.filter((o) => o === 'busy')).toHaveLength(3 * WEBHOOK_PER_ENDPOINT);
    // The busy receiver never had more than WEBHOOK_PER_ENDPOINT requests open, and got them a few at a time in the
    // order they were made (the few of one batch arrive in any order).
    expect(receiver.mostAtOnce.get('/kidogo/events?org=busy')).toBe(WEBHOOK_PER_ENDPOINT);
    const made = await t.db.db.webhookDelivery.findMany({ where: { organization_id: busy.org.id }, orderBy: { id: 'asc' }, select: { event_id: true } });
    const inFews = (ids: string[]) =>
      Array.from({ length: ids.length / WEBHOOK_PER_ENDPOINT }, (_, i) => ids.slice(i * WEBHOOK_PER_ENDPOINT, (i + 1) * WEBHOOK_PER_ENDPOINT).sort());
    expect(inFews(receiver.received.filter((r) => r.path.endsWith('busy')).map((r) => r.body.id))).toEqual(inFews(made.map((d) => d.event_id)));
  });

  it('validates what it is given, naming the field, keeps to owners and admins, and to their organization', async () => {
    const { user, org } = await seedTenant(t);
    const bad = async (body: object, message: string) => expect((await create(user, body).expect(400)).body.message).toBe(message);
    await bad({ events: ['token.issued'] }, 'url: is required');
    await bad({ url: 'not a url', events: ['token.issued'] }, 'url: must be a full address, such as https://erp.example.com/kidogo/events');
    await bad({ url: 'ftp://erp.example.com/x', events: ['token.issued'] }, 'url: must start with https:// or http://');
    await bad({ url: 'https://me:pw@erp.example.com/x', events: ['token.issued'] }, 'url: must not carry a user name or password: the signature authenticates Kidogo');
    await bad({ url: 'https://erp.example.com/x', events: [] }, 'events: must name at least one event');
    await bad({ url: 'https://erp.example.com/x' }, `events: must be a list of events: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    await bad({ url: 'https://erp.example.com/x', events: ['payment.lost'] }, `events.0: must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    await bad({ url: 'https://erp.example.com/x', events: ['token.issued'], description: 'x'.repeat(201) }, 'description: must be at most 200 characters');
    expect((await t.http.patch('/payg/webhooks/1').set(user.auth).send({}).expect(400)).body.message).toBe('Nothing to change: send url, description, events or is_active');
    await t.http.get('/payg/webhooks/abc').set(user.auth).expect(400);
    await t.http.get('/payg/webhooks/1/deliveries?status=lost').set(user.auth).expect(400);
    expect(await t.db.db.webhookEndpoint.count({ where: { organization_id: org.id } })).toBe(0);

    // Events are kept in their documented order, once each.
    const hook = ZWebhookWithSecretSchema.parse(
      (await create(user, { url: 'https://erp.example.com/x', events: ['token.issued', 'payment.applied', 'token.issued'] }).expect(201)).body,
    );
    expect(hook.events).toEqual(['payment.applied', 'token.issued']);
    for (let i = 1; i < 10; i++) await create(user, { url: `https://erp.example.com/${i}`, events: ['token.issued'] }).expect(201);
    expect((await create(user, { url: 'https://erp.example.com/11', events: ['token.issued'] }).expect(409)).body.message).toBe(
      'An organization can have at most 10 webhook endpoints: delete one first',
    );

    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.get('/payg/webhooks').set(staff.auth).expect(403);
    await create(staff, { url: 'https://erp.example.com/s', events: ['token.issued'] }).expect(403);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    await t.http.get('/payg/webhooks').set(admin.auth).expect(200);

    const other = await seedTenant(t);
    expect(ZWebhookListReplySchema.parse((await t.http.get('/payg/webhooks').set(other.user.auth).expect(200)).body).data).toEqual([]);
    await t.http.get(`/payg/webhooks/${hook.id}`).set(other.user.auth).expect(404);
    await t.http.patch(`/payg/webhooks/${hook.id}`).set(other.user.auth).send({ is_active: false }).expect(404);
    await t.http.post(`/payg/webhooks/${hook.id}/test`).set(other.user.auth).expect(404);
    await t.http.get(`/payg/webhooks/${hook.id}/deliveries`).set(other.user.auth).expect(404);
    await t.http.delete(`/payg/webhooks/${hook.id}`).set(other.user.auth).expect(404);
    expect(await t.db.db.webhookEndpoint.findUnique({ where: { organization_id_id: { organization_id: org.id, id: hook.id } } })).toMatchObject({ is_active: true });
    // Another organization's events never reach this organization's endpoints.
    const s = await seedCustomerWithDevice(t, other.org.id);
    await t.http.post('/payg/generate-token-by-days').set(other.user.auth).send({ serial_number: s.item.serial_number, number_of_days: 1 }).expect(200);
    expect(await t.db.db.webhookDelivery.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('refuses private and local addresses unless the installation allows them', async () => {
    const strict = await createTestApp({ databaseUrl: t.databaseUrl, env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    try {
      const { user, org } = await seedTenant(t);
      for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x', 'http://192.168.1.5/x']) {
        const res = await strict.http.post('/payg/webhooks').set(user.auth).send({ url, events: ['token.issued'] }).expect(400);
        expect(res.body.message).toMatch(/^url: must not be a private or local address \(.+\): this installation sends webhooks to public addresses only \(WEBHOOK_ALLOW_PRIVATE\)$/);
      }
      // One added where it was allowed is not sent to where it is not: by address, and by a name that resolves to one.
      const byAddress = await subscribe(user, ['token.issued']);
      const test = ZWebhookDeliverySchema.parse((await strict.http.post(`/payg/webhooks/${byAddress.id}/test`).set(user.auth).expect(200)).body);
      expect(test).toMatchObject({ status: 'failed', response_status: null, error: '127.0.0.1 is a private or local address: set WEBHOOK_ALLOW_PRIVATE=true to send to it' });
      // A name is checked on the addresses it resolves to, the very ones the connection then uses.
      const port = new URL(receiver.url).port;
      const resolve: Resolve = (_host, _opts, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
      const body = JSON.stringify({ id: 'e', type: 'webhook.test', created_at: new Date().toISOString(), organization_id: org.id, data: {} });
      const refused = await postEvent(`http://erp.example.test:${port}/x`, body, {}, { allowPrivate: false, resolve });
      expect(refused).toMatchObject({ ok: false, status: null, error: 'erp.example.test resolves to 127.0.0.1, a private or local address: set WEBHOOK_ALLOW_PRIVATE=true to send to it' });
      expect(receiver.received).toHaveLength(0);
      expect(await postEvent(`http://erp.example.test:${port}/x`, body, {}, { allowPrivate: true, resolve })).toMatchObject({ ok: true, status: 200 });
      expect(receiver.received).toHaveLength(1);
      receiver.received.length = 0;
      expect(receiver.received).toHaveLength(0);
      expect(await t.db.db.webhookDelivery.count({ where: { organization_id: org.id, status: 'delivered' } })).toBe(0);
    } finally {
      await strict.close();
    }
  });
});
