import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestApp, createTestDatabase, type TestApp } from './support/test-app.js';
import { ApiProcess } from './support/api-process.js';
import { mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedTenant, type SeededUser } from './support/factories.js';
import { receipt } from './support/world.js';

/**
 * The real API process (apps/api/dist/main.js) is killed with SIGKILL in the
 * middle of a burst of payment notices and in the middle of a CSV import,
 * then started again. Every request it answered 2xx is in the database
 * exactly once; what it did not answer is sent again, as a gateway does, and
 * also lands exactly once; the import is resumed by uploading the file again,
 * without duplicates; and every reply SMS queued before or after the crash is
 * delivered through a loopback SMS webhook.
 */
const PAYMENTS = 240;
const CONCURRENCY = 16;
const IMPORT_ROWS = 60_000;

describe('crash safety: SIGKILL in the middle of the work, then a restart', () => {
  let databaseUrl: string;
  let t: TestApp;
  let db: pg.Client;
  let owner: SeededUser;
  let orgId: string;
  let key: string;
  let serials: string[];
  let api: ApiProcess;
  let sms: Server;
  const delivered: { message_id: number; to: string }[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // In-process app on the same database, for seeding and reading only (its workers are off).
    t = await createTestApp({ databaseUrl });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const tenant = await seedTenant(t);
    owner = tenant.user;
    orgId = tenant.org.id;
    key = (await seedApiKey(t, owner))['X-API-Key'];
    const devices = await Promise.all(
      Array.from({ length: 12 }, () => seedCustomerWithDevice(t, orgId, { template: { daily_price: '50.00', deposit_made: '0', activation_price: '0' } })),
    );
    serials = devices.map((d) => d.item.serial_number);

    // The loopback SMS provider: records every delivery.
    sms = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const m = JSON.parse(body) as { message_id: number; to: string };
        delivered.push({ message_id: m.message_id, to: m.to });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => sms.listen(0, '127.0.0.1', r));
    const smsPort = (sms.address() as { port: number }).port;
    api = new ApiProcess(databaseUrl, {
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: `http://127.0.0.1:${smsPort}/sms`,
      SMS_WEBHOOK_SECRET: 'loopback-secret',
      OUTBOX_ENABLED: 'true',
      OUTBOX_POLL_MS: '100',
    });
  }, 120_000);

  afterAll(async () => {
    await api?.kill();
    await new Promise((r) => sms?.close(r));
    await db?.end();
    await t?.close();
  });

  const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);

  it('keeps every acknowledged payment exactly once, records the rest when the gateway resends them, and delivers every reply', async () => {
    await api.start();
    const codes = Array.from({ length: PAYMENTS }, () => receipt());
    const post = (code: string, i: number) =>
      fetch(`${api.baseUrl}/payg/external/receive-phoneteletalk`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
        body: JSON.stringify({ from: 'MPESA', message: mpesaPaybillSms({ code, amount: '100.00', account: serials[i % serials.length]! }) }),
      }).then(
        async (res) => ({ code, ok: res.ok, status: res.ok ? ((await res.json()) as { status: string }).status : String(res.status) }),
        () => ({ code, ok: false, status: 'connection lost' }),
      );

    // A pool of concurrent senders; the process is killed once 40% have been answered.
    const results: { code: string; ok: boolean; status: string }[] = [];
    let next = 0;
    let killed: Promise<void> | null = null;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < codes.length) {
          const i = next++;
          results.push(await post(codes[i]!, i));
          if (!killed && results.length >= PAYMENTS * 0.4) killed = api.kill();
        }
      }),
    );
    await killed;
    const acknowledged = results.filter((r) => r.ok);
    const lost = results.filter((r) => !r.ok);
    expect(acknowledged.length).toBeGreaterThanOrEqual(PAYMENTS * 0.4);
    expect(lost.length).toBeGreaterThan(0);
    expect(acknowledged.every((r) => r.status === 'processed')).toBe(true);

    // Every 2xx is in the database exactly once.
    const once = async (list: string[]) =>
      (await db.query<{ transaction_code: string; n: string }>(
        'SELECT transaction_code, count(*) AS n FROM payments WHERE organization_id = $1 AND transaction_code = ANY($2) GROUP BY transaction_code',
        [orgId, list],
      )).rows;
    const ackRows = await once(acknowledged.map((r) => r.code));
    expect(ackRows).toHaveLength(acknowledged.length);
    expect(ackRows.every((r) => r.n === '1')).toBe(true);

    // What the process stored but had not processed when it died stays in status received.
    // Let the recovery sweep see it as stale (it waits a minute before touching a message), then restart.
    const stuck = await count(`SELECT count(*) AS n FROM messages WHERE organization_id = $1 AND status = 'received'`, [orgId]);
    await db.query(`UPDATE messages SET created_at = created_at - interval '2 minutes' WHERE organization_id = $1 AND status = 'received'`, [orgId]);
    // Replies claimed by the dead process stay leased for 5 minutes: let that lease run out too.
    await db.query(`UPDATE messages SET next_attempt_at = now() WHERE organization_id = $1 AND delivery_status = 'sending'`, [orgId]);
    await api.start();
    await waitFor(async () => (await count(`SELECT count(*) AS n FROM messages WHERE organization_id = $1 AND status = 'received'`, [orgId])) === 0, 30_000);

    // The gateway sends again what it got no answer for.
    const resent = await Promise.all(lost.map((r) => post(r.code, codes.indexOf(r.code))));
    expect(resent.every((r) => r.ok && (r.status === 'processed' || r.status === 'duplicate'))).toBe(true);

    const all = await once(codes);
    expect(all).toHaveLength(PAYMENTS);
    expect(all.every((r) => r.n === '1')).toBe(true);
    expect(await count('SELECT count(*) AS n FROM payments WHERE organization_id = $1', [orgId])).toBe(PAYMENTS);
    // One token per payment, and each device's total is the sum of its payments.
    expect(await count(`SELECT count(*) AS n FROM token_logs WHERE organization_id = $1 AND payment_id IS NOT NULL`, [orgId])).toBe(PAYMENTS);
    expect(
      await count(
        `SELECT count(*) AS n FROM items i
         WHERE i.organization_id = $1 AND i.total_paid <> (SELECT coalesce(sum(amount), 0) FROM payments p WHERE p.organization_id = i.organization_id AND p.item_id = i.item_id)`,
        [orgId],
      ),
    ).toBe(0);

    // Every reply SMS queued (before the crash, by the sweep, after the restart) reaches the provider.
    const replies = await db.query<{ message_id: number }>(
      `SELECT message_id FROM messages WHERE organization_id = $1 AND forwarded_message IS NOT NULL`,
      [orgId],
    );
    expect(replies.rows).toHaveLength(PAYMENTS);
    await waitFor(async () => (await count(`SELECT count(*) AS n FROM messages WHERE organization_id = $1 AND forwarded_message IS NOT NULL AND delivery_status <> 'sent'`, [orgId])) === 0, 60_000);
    const got = new Set(delivered.map((d) => d.message_id));
    expect(replies.rows.every((r) => got.has(r.message_id))).toBe(true);
    // At least once: only a reply in flight at the kill (one claimed batch at most) can have gone out twice.
    expect(delivered.length - got.size).toBeLessThanOrEqual(20);
    console.log(`crash safety: ${acknowledged.length} answered before the kill, ${lost.length} resent, ${stuck} recovered by the sweep, ${delivered.length - got.size} reply sent twice`);
  }, 240_000);

  it('leaves a CSV import killed half-way resumable: uploading the file again imports the rest, no duplicates', async () => {
    const lines = ['customer_name,id_number,phone_contact'];
    for (let i = 0; i < IMPORT_ROWS; i++) lines.push(`Crash Import ${i},CRASH-${i},07${String(10_000_000 + i).slice(-8)}`);
    const file = new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' });
    const upload = () => {
      const form = new FormData();
      form.append('csv_file', file, 'big.csv');
      return fetch(`${api.baseUrl}/payg/upload-csv`, { method: 'POST', headers: { Authorization: `Bearer ${owner.token}` }, body: form });
    };
    const imported = () => count(`SELECT count(*) AS n FROM customers WHERE organization_id = $1 AND id_number LIKE 'CRASH-%'`, [orgId]);

    const first = upload().then(
      (r) => r.status,
      () => 'connection lost',
    );
    // Kill as soon as the first batches are in, long before 60 batches are.
    await waitFor(async () => (await imported()) > 0, 60_000, 20);
    await api.kill();
    expect(await first).toBe('connection lost');
    // A batch statement PostgreSQL was already running when the process died still finishes (and commits):
    // count once nothing of the killed process's is running any more.
    await waitFor(
      async () =>
        (await count(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND query ILIKE '%customers%'`,
        )) === 0,
      30_000,
    );
    const before = await imported();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(IMPORT_ROWS);
    // Each batch is one statement: committed whole or not at all.
    expect(before % 1000).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM import_jobs WHERE organization_id = $1 AND status = 'running'`, [orgId])).toBe(1);

    // An hour later (as far as the sweep can tell), the restarted API marks the job interrupted.
    await db.query(`UPDATE import_jobs SET created_at = created_at - interval '2 hours' WHERE organization_id = $1 AND status = 'running'`, [orgId]);
    await api.start();
    await waitFor(async () => (await count(`SELECT count(*) AS n FROM import_jobs WHERE organization_id = $1 AND status = 'interrupted'`, [orgId])) === 1, 15_000);

    const again = await upload();
    expect(again.status).toBe(200);
    const report = (await again.json()) as { rows: number; imported: number; duplicates: number };
    expect(report).toMatchObject({ rows: IMPORT_ROWS, imported: IMPORT_ROWS - before, duplicates: before });
    expect(await imported()).toBe(IMPORT_ROWS);
    expect(await count(`SELECT count(DISTINCT id_number) AS n FROM customers WHERE organization_id = $1 AND id_number LIKE 'CRASH-%'`, [orgId])).toBe(IMPORT_ROWS);
  }, 240_000);
});

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
