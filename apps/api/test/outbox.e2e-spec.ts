import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ZSmsProviderSchema } from '@kidogo/contracts';
import { OutboxService } from '../src/outbox/outbox.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

interface Captured {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Stands in for the SMS provider on loopback; answers from a script, then with the default. */
class FakeProvider {
  server!: Server;
  requests: Captured[] = [];
  script: Array<{ status: number; body: unknown }> = [];
  fallback: { status: number; body: unknown } = { status: 200, body: {} };

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.requests.push({ path: req.url ?? '', headers: req.headers, body });
        const answer = this.script.shift() ?? this.fallback;
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset() {
    this.requests = [];
    this.script = [];
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

const atSuccess = (id: string) => ({
  SMSMessageData: { Message: 'Sent to 1/1 Total Cost: KES 0.8000', Recipients: [{ statusCode: 101, number: '+254711000111', status: 'Success', cost: 'KES 0.8000', messageId: id }] },
});

describe('the outbox', () => {
  let t: TestApp;
  let outbox: OutboxService;
  const provider = new FakeProvider();
  let base: string;

  beforeAll(async () => {
    base = await provider.start();
    t = await createTestApp();
    outbox = t.app.get(OutboxService);
  });
  afterAll(async () => {
    await t.close();
    await provider.stop();
  });
  beforeEach(() => provider.reset());

  /** An organization with a device on a plan and one queued reply (a manual payment). */
  async function orgWithQueuedReply() {
    const tenant = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, tenant.org.id, { template: { daily_price: '50.00' } });
    const res = await t.http.post('/payg/payments').set(tenant.user.auth).send({ serial_number: s.item.serial_number, amount: 100, payment_method: 'cash' }).expect(201);
    return { ...tenant, ...s, messageId: res.body.message_id as number, reply: res.body.reply_message as string };
  }
  const message = (orgId: string, id: number) => t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const setProvider = (user: SeededUser, body: Record<string, unknown>) => t.http.put('/payg/settings/sms-provider').set(user.auth).send(body);

  it('leaves messages queued while no provider is configured', async () => {
    const q = await orgWithQueuedReply();
    const result = await outbox.drain();
    expect(result.sent).toBe(0);
    expect(await message(q.org.id, q.messageId)).toMatchObject({ delivery_status: 'queued', delivery_attempts: 0 });
    expect(provider.requests).toHaveLength(0);
  });

  it('delivers through the organization\'s signed webhook', async () => {
    const q = await orgWithQueuedReply();
    const secret = randomBytes(16).toString('hex');
    await setProvider(q.user, { provider: 'sms_webhook', config: { url: `${base}/sms`, secret } }).expect(200);
    provider.fallback = { status: 202, body: { id: 'wh-123' } };
    const result = await outbox.drain();
    expect(result).toMatchObject({ sent: 1 });
    expect(provider.requests).toHaveLength(1);
    const req = provider.requests[0]!;
    expect(req.path).toBe('/sms');
    expect(JSON.parse(req.body)).toEqual({ to: `+${q.customer.phone_normalized}`, message: q.reply, message_id: q.messageId, organization_id: q.org.id });
    expect(req.headers['x-kidogo-signature']).toBe(createHmac('sha256', secret).update(req.body).digest('hex'));
    const row = await message(q.org.id, q.messageId);
    expect(row).toMatchObject({ delivery_status: 'sent', delivery_attempts: 1, provider_message_id: 'wh-123', last_delivery_error: null });
    expect(row.sent_at).not.toBeNull();
    // Sent once: draining again sends nothing.
    await outbox.drain();
    expect(provider.requests).toHaveLength(1);
  });

  it('delivers through Africa\'s Talking, and retries with backoff after a provider failure', async () => {
    const q = await orgWithQueuedReply();
    await setProvider(q.user, { provider: 'africastalking', config: { username: 'sandbox', api_key: 'atsk_live_0123456789abcdef', sender_id: 'KIDOGO', base_url: base } }).expect(200);
    provider.script = [
      { status: 500, body: 'upstream error' },
      { status: 200, body: { SMSMessageData: { Message: 'Sent to 0/1', Recipients: [{ statusCode: 403, status: 'InvalidPhoneNumber', number: 'x' }] } } },
    ];
    provider.fallback = { status: 201, body: atSuccess('ATXid_42') };

    const started = Date.now();
    expect(await outbox.drain()).toMatchObject({ sent: 0, retrying: 1 });
    let row = await message(q.org.id, q.messageId);
    expect(row).toMatchObject({ delivery_status: 'queued', delivery_attempts: 1 });
    expect(row.last_delivery_error).toMatch(/HTTP 500/);
    const wait = (row.next_attempt_at!.getTime() - started) / 1000;
    expect(wait).toBeGreaterThan(29);
    expect(wait).toBeLessThan(40);
    // Not due yet: nothing is sent.
    await outbox.drain();
    expect(provider.requests).toHaveLength(1);

    const due = () => t.db.db.message.update({ where: { organization_id_id: { organization_id: q.org.id, id: q.messageId } }, data: { next_attempt_at: new Date(Date.now() - 1000) } });
    await due();
    expect(await outbox.drain()).toMatchObject({ retrying: 1 });
    row = await message(q.org.id, q.messageId);
    expect(row).toMatchObject({ delivery_status: 'queued', delivery_attempts: 2 });
    expect(row.last_delivery_error).toMatch(/InvalidPhoneNumber/);
    expect((row.next_attempt_at!.getTime() - Date.now()) / 1000).toBeGreaterThan(100);

    await due();
    expect(await outbox.drain()).toMatchObject({ sent: 1 });
    row = await message(q.org.id, q.messageId);
    expect(row).toMatchObject({ delivery_status: 'sent', delivery_attempts: 3, provider_message_id: 'ATXid_42' });

    const req = provider.requests[2]!;
    expect(req.path).toBe('/version1/messaging');
    expect(req.headers.apikey).toBe('atsk_live_0123456789abcdef');
    expect(req.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ username: 'sandbox', to: `+${q.customer.phone_normalized}`, message: q.reply, from: 'KIDOGO' });
  });

  it('gives up after the last retry and records the failure', async () => {
    const q = await orgWithQueuedReply();
    await setProvider(q.user, { provider: 'sms_webhook', config: { url: `${base}/down` } }).expect(200);
    provider.fallback = { status: 503, body: { error: 'maintenance' } };
    for (let attempt = 1; attempt <= 6; attempt++) {
      await t.db.db.message.update({ where: { organization_id_id: { organization_id: q.org.id, id: q.messageId } }, data: { next_attempt_at: null } });
      await outbox.drain();
    }
    const row = await message(q.org.id, q.messageId);
    expect(row).toMatchObject({ delivery_status: 'failed', delivery_attempts: 6 });
    expect(row.last_delivery_error).toMatch(/HTTP 503/);
    expect(provider.requests).toHaveLength(6);
    // Failed is final.
    await outbox.drain();
    expect(provider.requests).toHaveLength(6);
    provider.fallback = { status: 200, body: {} };
  });

  it('delivers each organization\'s messages through its own provider only', async () => {
    const a = await orgWithQueuedReply();
    const b = await orgWithQueuedReply();
    await setProvider(a.user, { provider: 'sms_webhook', config: { url: `${base}/a` } }).expect(200);
    provider.fallback = { status: 200, body: {} };
    await outbox.drain();
    expect(provider.requests.map((r) => r.path)).toEqual(['/a']);
    expect(JSON.parse(provider.requests[0]!.body).organization_id).toBe(a.org.id);
    expect(await message(b.org.id, b.messageId)).toMatchObject({ delivery_status: 'queued', delivery_attempts: 0 });
    // B's settings show nothing of A's.
    const seen = ZSmsProviderSchema.parse((await t.http.get('/payg/settings/sms-provider').set(b.user.auth).expect(200)).body);
    expect(seen).toMatchObject({ provider: 'none', is_active: false, config: {} });
  });

  it('shows the provider with secrets masked, keeps a secret sent back masked, and is for owners and admins', async () => {
    const { user, org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.get('/payg/settings/sms-provider').set(staff.auth).expect(403);
    await setProvider(staff, { provider: 'none' }).expect(403);
    const none = ZSmsProviderSchema.parse((await t.http.get('/payg/settings/sms-provider').set(user.auth).expect(200)).body);
    expect(none).toEqual({ provider: 'none', config: {}, is_active: false, fallback: 'none', reply_language: 'en', text_name: null, updated_at: null });

    const bad = await setProvider(user, { provider: 'africastalking', config: { api_key: 'x' } }).expect(400);
    expect(bad.body.detail).toMatch(/config.username: is required for africastalking/);
    expect((await setProvider(user, { provider: 'africastalking', config: { username: 'u' } }).expect(400)).body.detail).toMatch(/config.api_key: is required/);
    expect((await setProvider(user, { provider: 'sms_webhook', config: { url: 'ftp://x' } }).expect(400)).body.detail).toMatch(/config.url/);
    expect((await setProvider(user, { provider: 'pigeon' }).expect(400)).body.detail).toMatch(/^provider: must be one of none, africastalking, sms_webhook/);

    const key = 'atsk_0123456789abcdefghij';
    const saved = ZSmsProviderSchema.parse((await setProvider(user, { provider: 'africastalking', config: { username: 'kidogo', api_key: key } }).expect(200)).body);
    expect(saved).toMatchObject({ provider: 'africastalking', is_active: true, config: { username: 'kidogo', sender_id: null, base_url: null } });
    expect(saved.config.api_key).not.toBe(key);
    expect(saved.config.api_key).toMatch(/^atsk•+ghij$/);
    const row = await t.db.db.paymentProvider.findFirstOrThrow({ where: { organization_id: org.id, provider: 'africastalking' } });
    expect(row.config_enc).not.toContain(key);

    // Saving the form as read (masked key) keeps the real key.
    await setProvider(user, { provider: 'africastalking', config: { ...saved.config, sender_id: 'KIDOGO', base_url: base } }).expect(200);
    provider.fallback = { status: 201, body: atSuccess('m1') };
    const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00' } });
    await t.http.post('/payg/payments').set(user.auth).send({ serial_number: s.item.serial_number, amount: 50, payment_method: 'cash' }).expect(201);
    await outbox.drain();
    expect(provider.requests.at(-1)!.headers.apikey).toBe(key);

    // Switching to the webhook deactivates Africa's Talking; none turns both off.
    const wh = ZSmsProviderSchema.parse((await setProvider(user, { provider: 'sms_webhook', config: { url: `${base}/x`, secret: 'shared-secret-value' } }).expect(200)).body);
    expect(wh).toMatchObject({ provider: 'sms_webhook', is_active: true, config: { url: `${base}/x` } });
    expect(wh.config.secret).toBe('••••••••alue');
    expect(await t.db.db.paymentProvider.count({ where: { organization_id: org.id, is_active: true } })).toBe(1);
    const off = ZSmsProviderSchema.parse((await setProvider(user, { provider: 'none' }).expect(200)).body);
    expect(off.is_active).toBe(false);
    expect(await t.db.db.paymentProvider.count({ where: { organization_id: org.id, is_active: true } })).toBe(0);
  });

  it('writes the token replies in Kiswahili or French once an owner chooses it, for that organization only', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const c = await seedTenant(t);
    const bad = await setProvider(a.user, { provider: 'none', reply_language: 'de' }).expect(400);
    expect(bad.body.detail).toMatch(/^reply_language: must be one of en, sw, fr/);
    const saved = ZSmsProviderSchema.parse((await setProvider(a.user, { provider: 'none', reply_language: 'sw' }).expect(200)).body);
    expect(saved.reply_language).toBe('sw');
    // Saving the provider without a language keeps the one chosen.
    expect(ZSmsProviderSchema.parse((await setProvider(a.user, { provider: 'none' }).expect(200)).body).reply_language).toBe('sw');
    const pay = async (tenant: Awaited<ReturnType<typeof seedTenant>>) => {
      const s = await seedCustomerWithDevice(t, tenant.org.id, { template: { daily_price: '50.00', deposit_made: '0.00', activation_price: '0.00' } });
      const res = await t.http.post('/payg/payments').set(tenant.user.auth).send({ serial_number: s.item.serial_number, amount: 100, payment_method: 'cash' }).expect(201);
      return { reply: res.body.reply_message as string, serial: s.item.serial_number, message: await message(tenant.org.id, res.body.message_id as number) };
    };
    const inSwahili = await pay(a);
    expect(inSwahili.reply).toMatch(new RegExp(`^Kidogo: Habari \\S+, malipo ya KES 100\\.00 yamepokelewa kwa kifaa ${inSwahili.serial}\\. `));
    expect(inSwahili.message.forwarded_message).toBe(inSwahili.reply);
    expect((await pay(b)).reply).toMatch(/^Kidogo: Hi \S+, payment of KES 100\.00 received for device /);
    expect(ZSmsProviderSchema.parse((await setProvider(c.user, { provider: 'none', reply_language: 'fr' }).expect(200)).body).reply_language).toBe('fr');
    const inFrench = await pay(c);
    expect(inFrench.reply).toMatch(new RegExp(`^Kidogo: Bonjour \\S+, paiement de KES 100\\.00 recu pour l'appareil ${inFrench.serial}\\. Votre appareil est active\\. Code: `));
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: c.org.id, action: 'sms_provider.update' } });
    expect(audit.description).toContain('replies in French');
  });

  it("begins the texts to customers with the organization's own name once it sets one, for that organization only", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    for (const [name, detail] of [
      ['Jua Solar Kenya', 'text_name: must be at most 11 characters'],
      ['Jua <Solar>', "text_name: must be letters, digits, spaces and & - . ' only, starting with a letter or digit"],
      ['   ', 'text_name: must not be empty (null puts Kidogo back)'],
    ]) {
      expect((await setProvider(a.user, { provider: 'none', text_name: name }).expect(400)).body.detail).toBe(detail);
    }
    expect((await t.db.db.organization.findUniqueOrThrow({ where: { id: a.org.id } })).text_name).toBeNull();
    const saved = ZSmsProviderSchema.parse((await setProvider(a.user, { provider: 'none', text_name: ' Jua Solar ' }).expect(200)).body);
    expect(saved.text_name).toBe('Jua Solar');
    // Saving the provider without it keeps it.
    expect(ZSmsProviderSchema.parse((await setProvider(a.user, { provider: 'none' }).expect(200)).body).text_name).toBe('Jua Solar');

    // The payment's reply: answered and stored with the name.
    const s = await seedCustomerWithDevice(t, a.org.id, { template: { daily_price: '50.00', deposit_made: '0.00', activation_price: '0.00' } });
    const paid = await t.http.post('/payg/payments').set(a.user.auth).send({ serial_number: s.item.serial_number, amount: 100, payment_method: 'cash' }).expect(201);
    expect(paid.body.reply_message).toMatch(/^Jua Solar: Hi \S+, payment of KES 100\.00 received for device /);
    expect((await message(a.org.id, paid.body.message_id as number)).forwarded_message).toBe(paid.body.reply_message);
    // Any other text queued (a reminder, free days, the USSD menu's code): the database names it as it is written.
    const queue = async (orgId: string) =>
      (
        await t.db.db.message.create({
          data: { organization_id: orgId, forwarded_message: 'Kidogo: Hi Grace, the credit on device SHS-1 runs out tomorrow.', recipient_number: '254700000001' },
        })
      ).forwarded_message;
    expect(await queue(a.org.id)).toBe('Jua Solar: Hi Grace, the credit on device SHS-1 runs out tomorrow.');
    expect(await queue(b.org.id)).toBe('Kidogo: Hi Grace, the credit on device SHS-1 runs out tomorrow.');
    // A text staff wrote is theirs: not renamed.
    const own = await t.db.db.message.create({ data: { organization_id: a.org.id, forwarded_message: 'Kidogo is our software. Hi Grace!', recipient_number: '254700000001' } });
    expect(own.forwarded_message).toBe('Kidogo is our software. Hi Grace!');

    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: a.org.id, action: 'sms_provider.update' }, orderBy: { id: 'asc' } });
    expect(audit.description).toContain('texts begin with Jua Solar');
    // null: Kidogo again.
    expect(ZSmsProviderSchema.parse((await setProvider(a.user, { provider: 'none', text_name: null }).expect(200)).body).text_name).toBeNull();
    expect(await queue(a.org.id)).toBe('Kidogo: Hi Grace, the credit on device SHS-1 runs out tomorrow.');
  });
});

describe('the outbox with the installation-wide provider (SMS_PROVIDER)', () => {
  const provider = new FakeProvider();
  let t: TestApp;
  beforeAll(async () => {
    const base = await provider.start();
    t = await createTestApp({ env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: `${base}/global`, SMS_WEBHOOK_SECRET: 'global-secret' } });
  });
  afterAll(async () => {
    await t.close();
    await provider.stop();
  });

  it('sends for every organization without a provider of its own', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00' } });
    const res = await t.http.post('/payg/payments').set(user.auth).send({ serial_number: s.item.serial_number, amount: 50, payment_method: 'cash' }).expect(201);
    expect(await t.app.get(OutboxService).drain()).toMatchObject({ sent: 1 });
    const req = provider.requests[0]!;
    expect(req.path).toBe('/global');
    expect(req.headers['x-kidogo-signature']).toBe(createHmac('sha256', 'global-secret').update(req.body).digest('hex'));
    const row = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: res.body.message_id } } });
    expect(row.delivery_status).toBe('sent');
    const shown = ZSmsProviderSchema.parse((await t.http.get('/payg/settings/sms-provider').set(user.auth).expect(200)).body);
    expect(shown).toMatchObject({ provider: 'none', fallback: 'webhook' });
  });
});
