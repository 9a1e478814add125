// Benchmark of the mobile-money receiver (not a test): posts distinct M-Pesa
// confirmations to a running API and checks that every one was stored once.
//
//   BASE_URL=http://localhost:3000 DATABASE_URL=postgresql://... node scripts/bench-receiver.mjs
//
// Environment:
//   BASE_URL        the running API (default http://localhost:3000)
//   DATABASE_URL    its database: the script seeds the devices there and counts the payments
//                   (default: the embedded database of `pnpm start`, on EMBEDDED_PG_PORT or 54320)
//   ENCRYPTION_KEY  the API's key, to seal the devices' token secrets (default: DATA_DIR/secrets.json, as in development)
//   API_KEY         an organization's receiver key; unset = a new organization "bench-…" with a new key
//   PAYMENTS        how many payments (default 10000), CONCURRENCY (default 32), DEVICES (default 200)
//
// Each payment pays one day (50 KES) on one of the devices, so each one goes
// the whole way: parse, record, match, rules, token, reply SMS.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const requireApi = createRequire(resolve(root, 'apps/api/package.json'));
const pg = requireApi('pg');
const { SecretBox } = await import(resolve(root, 'apps/api/dist/common/crypto.js'));
const { generateSecretKey, deriveStartingCode } = await import(resolve(root, 'packages/openpaygo/dist/index.js'));

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const DATABASE_URL = process.env.DATABASE_URL ?? `postgresql://postgres:postgres@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? 54320}/kidogo`;
const PAYMENTS = Number(process.env.PAYMENTS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const DEVICES = Number(process.env.DEVICES ?? 200);

function encryptionKey() {
  if (process.env.ENCRYPTION_KEY) return process.env.ENCRYPTION_KEY;
  const file = resolve(process.env.DATA_DIR ?? resolve(root, '.data'), 'secrets.json');
  if (!existsSync(file)) throw new Error(`Set ENCRYPTION_KEY (no ${file})`);
  return JSON.parse(readFileSync(file, 'utf8')).encryptionKey;
}

const sha256 = (s) => createHash('sha256').update(s).digest('hex');
const box = new SecretBox(Buffer.from(encryptionKey(), 'hex'));
const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();

// The organization: the one of API_KEY, or a new one.
let orgId;
let apiKey = process.env.API_KEY;
if (apiKey) {
  const r = await db.query('SELECT organization_id FROM organizations WHERE api_key_hash = $1', [sha256(apiKey)]);
  if (!r.rows[0]) throw new Error('API_KEY belongs to no organization in DATABASE_URL');
  orgId = r.rows[0].organization_id;
} else {
  orgId = `bench-${randomBytes(4).toString('hex')}`;
  apiKey = `kdg_${randomBytes(32).toString('base64url')}`;
  await db.query('INSERT INTO organizations (organization_id, name, api_key_hash, api_key_enc, updated_at) VALUES ($1, $2, $3, $4, now())', [
    orgId,
    'Receiver benchmark',
    sha256(apiKey),
    box.seal(apiKey),
  ]);
}

// N customers on a 50-a-day plan, each with one device.
const run = randomBytes(2).toString('hex').toUpperCase();
await db.query('BEGIN');
const tpl = await db.query(
  `INSERT INTO payment_templates (organization_id, template_name, daily_price, updated_at) VALUES ($1, $2, 50, now()) RETURNING template_id`,
  [orgId, `Bench ${run}`],
);
const serials = [];
for (let i = 0; i < DEVICES; i++) {
  const phone = `2547${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
  const c = await db.query(
    `INSERT INTO customers (organization_id, customer_name, id_number, phone_contact, phone_normalized, updated_at)
     VALUES ($1, $2, $3, $4, $4, now()) RETURNING customer_id`,
    [orgId, `Bench customer ${run}-${i}`, `B${run}${i}`, phone],
  );
  const customerId = c.rows[0].customer_id;
  await db.query(`INSERT INTO template_assignments (organization_id, customer_id, template_id) VALUES ($1, $2, $3)`, [orgId, customerId, tpl.rows[0].template_id]);
  const secretKey = generateSecretKey();
  const serial = `BENCH-${run}-${i}`;
  const item = await db.query(
    `INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, price, status, is_assigned, customer_id, assigned_at,
                        secret_key_enc, starting_code_enc, activated_at, updated_at)
     VALUES ($1, $2, $3, 'Bench lamp', 0, 'assigned', true, $4, now(), $5, $6, now(), now()) RETURNING item_id`,
    [orgId, serial, serial.replace(/-/g, ''), customerId, box.seal(secretKey), box.seal(String(deriveStartingCode(secretKey)))],
  );
  await db.query(`INSERT INTO item_assignments (organization_id, item_id, customer_id) VALUES ($1, $2, $3)`, [orgId, item.rows[0].item_id, customerId]);
  serials.push(serial);
}
await db.query('COMMIT');
console.log(`Organization ${orgId}: ${DEVICES} devices seeded. Posting ${PAYMENTS} payments to ${BASE_URL} with concurrency ${CONCURRENCY}...`);

const codes = Array.from({ length: PAYMENTS }, (_, i) => `B${run}${String(i).padStart(5, '0')}`);
if (new Set(codes).size !== PAYMENTS) throw new Error('transaction codes are not distinct');
const sms = (code, serial) =>
  `${code} Confirmed. Ksh50.00 received from BENCH PAYER 254712345678 on 5/6/24 at 10:15 AM. Account Number ${serial}. New Utility balance is Ksh45,300.00.`;

const latencies = Array.from({ length: PAYMENTS });
const statuses = {};
let next = 0;
let errors = 0;
async function worker() {
  for (;;) {
    const i = next++;
    if (i >= PAYMENTS) return;
    const started = performance.now();
    try {
      const res = await fetch(`${BASE_URL}/payg/external/receive-phoneteletalk`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
        body: JSON.stringify({ message: sms(codes[i], serials[i % serials.length]), from: 'MPESA' }),
      });
      const body = await res.json().catch(() => ({}));
      const key = res.ok ? body.status : `HTTP ${res.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    } catch (e) {
      errors++;
      statuses[`error ${e.cause?.code ?? e.message}`] = (statuses[`error ${e.cause?.code ?? e.message}`] ?? 0) + 1;
    }
    latencies[i] = performance.now() - started;
  }
}
const t0 = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const seconds = (performance.now() - t0) / 1000;

const sorted = latencies.filter((x) => x !== undefined).sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);

// Every payment stored exactly once.
const counted = await db.query(
  `SELECT count(*)::int AS payments, count(DISTINCT transaction_code)::int AS codes,
          count(*) FILTER (WHERE status = 'completed')::int AS completed
   FROM payments WHERE organization_id = $1 AND transaction_code = ANY($2)`,
  [orgId, codes],
);
const tokens = await db.query(`SELECT count(*)::int AS n FROM token_logs WHERE organization_id = $1 AND serial_number LIKE $2`, [orgId, `BENCH-${run}-%`]);
const messages = await db.query(`SELECT count(*)::int AS n FROM messages WHERE organization_id = $1 AND transaction_code = ANY($2)`, [orgId, codes]);
await db.end();

const { payments, codes: distinct, completed } = counted.rows[0];
const lost = PAYMENTS - distinct;
const duplicated = payments - distinct;
console.log(`
Payments posted      ${PAYMENTS} (concurrency ${CONCURRENCY}, ${DEVICES} devices)
Wall time            ${seconds.toFixed(1)} s
Throughput           ${(PAYMENTS / seconds).toFixed(1)} payments/s
Latency              p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${sorted.at(-1).toFixed(1)} ms
Replies              ${JSON.stringify(statuses)}
Stored               ${payments} payments, ${distinct} distinct codes, ${completed} completed, ${tokens.rows[0].n} tokens, ${messages.rows[0].n} messages
Lost                 ${lost}
Duplicated           ${duplicated}`);
process.exit(lost === 0 && duplicated === 0 && errors === 0 && completed === PAYMENTS ? 0 : 1);
