import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZAuthReplySchema, ZReceiveReplySchema, ZTokenReplySchema } from '@kidogo/contracts';
import { REPO_ROOT } from '../src/config/config.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestApp, createTestDatabase, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, type TestApp } from './support/test-app.js';
import { DEFAULT_PASSWORD, mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedTenant, seedUser } from './support/factories.js';

/**
 * The stateless claim: two API processes (the built dist/main.js, as
 * deployed) on one database, with every background worker on, share the
 * work without disagreeing. Requests are split between them; the test
 * process only seeds data and reads the database.
 */

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

/** The SMS provider on loopback: counts each delivered message id, per API process (the path). */
class LoopbackProvider {
  server!: Server;
  deliveries: { path: string; message_id: number }[] = [];

  async start(): Promise<string> {
    this.server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.deliveries.push({ path: req.url ?? '', message_id: JSON.parse(body).message_id });
        // A little slow, like a real gateway, so that both workers take part.
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'), 5);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

interface ApiProcess {
  base: string;
  child: ChildProcess;
  output: string[];
}

async function startApi(databaseUrl: string, name: string, provider: string): Promise<ApiProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [resolve(REPO_ROOT, 'apps/api/dist/main.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '5',
      JWT_SECRET: TEST_JWT_SECRET,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PAYG_ADMIN_USERNAME: 'mp-admin',
      PAYG_ADMIN_PASSWORD: 'mp-admin-password',
      SEED_DEMO: 'false',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      // Every background worker on, polling fast: the outbox, the recovery sweep, the totals compaction.
      OUTBOX_ENABLED: 'true',
      OUTBOX_POLL_MS: '100',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: `${provider}/${name}`,
      SMS_WEBHOOK_SECRET: 'loopback-secret',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`API ${name} exited: ${output.join('')}`);
    if (await fetch(`${base}/payg/health`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error(`API ${name} did not start: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, output };
}

async function stopApi(p: ApiProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await exited;
}

const json = (res: Response) => res.json() as Promise<Record<string, unknown>>;

describe('two API processes on one database', () => {
  let t: TestApp;
  let one: ApiProcess;
  let two: ApiProcess;
  const provider = new LoopbackProvider();
  let apis: ApiProcess[];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    // In this process only to seed and read: its own workers stay off (testConfig).
    t = await createTestApp({ databaseUrl });
    const providerUrl = await provider.start();
    [one, two] = await Promise.all([startApi(databaseUrl, 'one', providerUrl), startApi(databaseUrl, 'two', providerUrl)]);
    apis = [one, two];
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopApi(one), stopApi(two)]);
    await t?.close();
    await provider.stop();
  });

  const on = (i: number) => apis[i % 2]!.base;

  it('record one payment delivered 20 times across both once: one payment, one token, one reply; the rest answer duplicate', async () => {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const { item } = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '50.00' } });
    const sms = mpesaPaybillSms({ code: 'MP7A2B3C4D', amount: '250.00', account: item.serial_number });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${on(i)}/payg/external/receive-phoneteletalk`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...key },
          body: JSON.stringify({ message: sms, from: 'MPESA' }),
        }).then(async (r) => ({ status: r.status, body: ZReceiveReplySchema.parse(await r.json()) })),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = replies.map((r) => r.body);
    expect(bodies.filter((b) => b.status === 'processed')).toHaveLength(1);
    expect(bodies.filter((b) => b.status === 'duplicate')).toHaveLength(19);
    const original = bodies.find((b) => b.status === 'processed')!;
    for (const b of bodies) expect({ payment_id: b.payment_id, token: b.token, days: b.days }).toEqual({ payment_id: original.payment_id, token: original.token, days: 5 });

    const where = { organization_id: org.id };
    expect(await t.db.db.payment.count({ where })).toBe(1);
    expect(await t.db.db.tokenLog.count({ where })).toBe(1);
    expect(await t.db.db.message.count({ where: { ...where, forwarded_message: { not: null } } })).toBe(1);
    expect(await t.db.db.message.count({ where: { ...where, status: 'duplicate' } })).toBe(19);
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect(device.total_paid.toFixed(2)).toBe('250.00');
    expect(device.token_count).toBe(original.tokens![0]!.token_count);
  });

  it('give 50 token requests for one device, split across both, 50 distinct consecutive counts', async () => {
    const { user, org } = await seedTenant(t);
    const { item } = await seedCustomerWithDevice(t, org.id);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${on(i)}/payg/generate-token-by-days`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...user.auth },
          body: JSON.stringify({ serial_number: item.serial_number, number_of_days: 1 }),
        }).then(async (r) => ({ status: r.status, body: ZTokenReplySchema.parse(await r.json()) })),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(replies.map((r) => r.body.token_count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => 2 * (i + 1)));
    expect(new Set(replies.map((r) => r.body.code_token)).size).toBe(50);
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id, item_id: item.id } })).toBe(50);
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect(device.token_count).toBe(100);
  });

  it('deliver every queued reply exactly once between their two outbox workers', async () => {
    const { org } = await seedTenant(t);
    const queued = await t.db.query<{ message_id: number }>(
      Prisma.sql`
        INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, status)
        SELECT ${org.id}, 'Kidogo: payment received. Token ' || g, '2547' || lpad(g::text, 8, '0'), 'queued', 'processed'
        FROM generate_series(1, 120) g
        RETURNING message_id`,
    );
    const ids = new Set(queued.map((m) => m.message_id));
    for (let i = 0; ; i++) {
      const left = await t.db.db.message.count({ where: { organization_id: org.id, delivery_status: { in: ['queued', 'sending'] } } });
      if (left === 0) break;
      if (i > 300) throw new Error(`${left} messages still queued: ${one.output.join('')}${two.output.join('')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const mine = provider.deliveries.filter((d) => ids.has(d.message_id));
    expect(mine).toHaveLength(120);
    expect(new Set(mine.map((d) => d.message_id)).size).toBe(120);
    expect(await t.db.db.message.count({ where: { organization_id: org.id, delivery_status: 'sent' } })).toBe(120);
    // Both processes took part: each sends through its own webhook path.
    expect(mine.some((d) => d.path === '/one')).toBe(true);
    expect(mine.some((d) => d.path === '/two')).toBe(true);
    // And nothing of any test was ever sent twice.
    const all = provider.deliveries.map((d) => d.message_id);
    expect(new Set(all).size).toBe(all.length);
  });

  it('share sessions and the sign-in lockout: a session from one works on the other, a revoked one is revoked on both', async () => {
    const { org } = await seedTenant(t);
    const user = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const login = ZAuthReplySchema.parse(
      await json(
        await fetch(`${one.base}/payg/authenticate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: user.username, password: DEFAULT_PASSWORD }),
        }),
      ),
    );
    const me = await fetch(`${two.base}/payg/me`, { headers: { authorization: `Bearer ${login.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe(user.username);
    const refresh = (base: string, token: string) =>
      fetch(`${base}/payg/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: token }) });
    const renewed = ZAuthReplySchema.parse(await json(await refresh(two.base, login.refresh_token)));
    expect((await refresh(one.base, login.refresh_token)).status).toBe(401); // rotated on the other process
    await fetch(`${one.base}/payg/logout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: renewed.refresh_token }) });
    expect((await refresh(two.base, renewed.refresh_token)).status).toBe(401);

    // Five failed sign-ins, alternating between the processes, lock the username on both.
    const victim = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const signIn = (base: string, password: string) =>
      fetch(`${base}/payg/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: victim.username, password }) });
    for (let i = 0; i < 5; i++) expect((await signIn(on(i), 'wrong-password')).status).toBe(401);
    expect((await signIn(one.base, DEFAULT_PASSWORD)).status).toBe(429);
    expect((await signIn(two.base, DEFAULT_PASSWORD)).status).toBe(429);
  });

  it('keep the totals exact while both compact them', async () => {
    const { user, org } = await seedTenant(t);
    for (let i = 0; i < 3; i++) await seedCustomerWithDevice(t, org.id);
    const key = await seedApiKey(t, user);
    const devices = await t.db.db.item.findMany({ where: { organization_id: org.id }, select: { serial_number: true } });
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${on(i)}/payg/external/receive-phoneteletalk`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...key },
          body: JSON.stringify({ message: mpesaPaybillSms({ code: `MPT${String(i).padStart(3, '0')}X9Z2`, amount: '100.00', account: devices[i % 3]!.serial_number }) }),
        }).then((r) => expect(r.status).toBe(200)),
      ),
    );
    // Let at least one compaction run (every 10 s, on whichever process gets the lock).
    await new Promise((r) => setTimeout(r, 11_000));
    const summary = await json(await fetch(`${two.base}/payg/metrics/summary`, { headers: user.auth }));
    expect(summary).toMatchObject({ transaction_count: 30, total_revenue: '3000.00' });
    const customers = await json(await fetch(`${one.base}/payg/registered-customers`, { headers: user.auth }));
    expect((customers.pagination as { total: number }).total).toBe(3);
    const logs = await json(await fetch(`${one.base}/payg/metrics/token-generation-logs`, { headers: user.auth }));
    expect((logs.data as { total: number }).total).toBe(await t.db.db.tokenLog.count({ where: { organization_id: org.id } }));
  }, 60_000);
});
