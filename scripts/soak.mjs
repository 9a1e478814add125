// Soak test of the money pipeline (not part of `pnpm test`): posts M-Pesa
// payment notices to a running API at a steady rate for a long time and
// reports every error (zero expected), the rate it sustained, the latency
// minute by minute and the API's memory (RSS) at the start and the end.
//
//   node scripts/soak.mjs --minutes 10 --rate 150 --base-url http://127.0.0.1:3000 --username demo --password demo1234
//
// Options (or the environment variable in brackets):
//   --base-url     the running API [BASE_URL], default http://127.0.0.1:3000
//   --username     an owner or admin of the organization to use [SOAK_USERNAME], default demo
//   --password     [SOAK_PASSWORD], default demo1234
//   --minutes      how long [SOAK_MINUTES], default 10
//   --rate         payments per second to aim at [SOAK_RATE], default 150 (half the receiver benchmark's target)
//   --concurrency  most requests in flight at once [SOAK_CONCURRENCY], default 64; when the API is slower
//                  than the rate, the soak runs at what it sustains and says so
//   --devices      devices to spread the payments over [SOAK_DEVICES], default 200
//   --pid          the API's process id, for its memory; default: the process listening on the port of --base-url
//   --database-url the API's database, to check every acknowledged payment is stored exactly once
//                  [DATABASE_URL]; default the embedded database of `pnpm start` (EMBEDDED_PG_PORT or 54320)
//
// The devices, customers and plan are made through the API in the
// organization of --username (a plan of 10 KES a day, so every payment buys
// days and goes the whole way: parse, record, match, rules, token, reply SMS).
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const { values: args } = parseArgs({
  options: {
    'base-url': { type: 'string', default: process.env.BASE_URL ?? 'http://127.0.0.1:3000' },
    username: { type: 'string', default: process.env.SOAK_USERNAME ?? 'demo' },
    password: { type: 'string', default: process.env.SOAK_PASSWORD ?? 'demo1234' },
    minutes: { type: 'string', default: process.env.SOAK_MINUTES ?? '10' },
    rate: { type: 'string', default: process.env.SOAK_RATE ?? '150' },
    concurrency: { type: 'string', default: process.env.SOAK_CONCURRENCY ?? '64' },
    devices: { type: 'string', default: process.env.SOAK_DEVICES ?? '200' },
    pid: { type: 'string' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? `postgresql://postgres:postgres@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? 54320}/kidogo` },
  },
});
const BASE = args['base-url'].replace(/\/+$/, '');
const MINUTES = Number(args.minutes);
const RATE = Number(args.rate);
const CONCURRENCY = Number(args.concurrency);
const DEVICES = Number(args.devices);
if (!(MINUTES > 0 && RATE > 0 && CONCURRENCY > 0 && DEVICES > 0)) throw new Error('--minutes, --rate, --concurrency and --devices must be positive');

// ------------------------------------------------------------------ the API's memory

/** The pid of the process listening on a TCP port, from /proc (Linux). */
function pidListeningOn(port) {
  const inodes = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN.
      if (f[3] === '0A' && parseInt(f[1].split(':')[1], 16) === port) inodes.add(f[9]);
    }
  }
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return null;
}

function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

const apiPid = args.pid ? Number(args.pid) : pidListeningOn(Number(new URL(BASE).port || 80));
if (!apiPid) console.warn(`Could not find the process listening on ${BASE}: memory will not be reported (pass --pid).`);

// ------------------------------------------------------------------ setup through the API

async function call(method, path, { token, body, apiKey } = {}) {
  const res = await fetch(`${BASE}/payg${path}`, {
    method,
    headers: {
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(apiKey ? { 'X-API-Key': apiKey } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

const login = await call('POST', '/authenticate', { body: { username: args.username, password: args.password } });
const token = login.access_token;
const orgId = login.user.organization_id;
const { api_key: apiKey } = await call('GET', '/settings/api-key', { token });
const run = randomBytes(3).toString('hex').toUpperCase();
const plan = await call('POST', '/payments/templates/create', { token, body: { template_name: `Soak ${run}`, daily_price: 10 } });
console.log(`Seeding ${DEVICES} devices in organization ${orgId} through ${BASE} ...`);
const serials = [];
for (let i = 0; i < DEVICES; i += 10) {
  await Promise.all(
    Array.from({ length: Math.min(10, DEVICES - i) }, async (_, j) => {
      const n = i + j;
      const serial = `SOAK-${run}-${n}`;
      const customer = await call('POST', '/register-customer', {
        token,
        body: { customer_name: `Soak customer ${run}-${n}`, id_number: `SOAK${run}${n}`, phone_contact: `07${String(10_000_000 + n).slice(-8)}` },
      });
      await call('POST', '/items/add', { token, body: { serial_number: serial, product_name: 'Soak lamp' } });
      await call('POST', '/onboarding', { token, body: { customer_id: customer.customer_id, item_serial_number: serial, template_id: plan.template_id } });
      serials.push(serial);
    }),
  );
}

// ------------------------------------------------------------------ the soak

const sms = (code, serial, amount) =>
  `${code} Confirmed. Ksh${amount}.00 received from SOAK PAYER 254712345678 on 5/6/24 at 10:15 AM. Account Number ${serial}. New Utility balance is Ksh45,300.00.`;
const daraja = (code, serial, amount) => ({
  TransactionType: 'Pay Bill',
  TransID: code,
  TransTime: '20240605101500',
  TransAmount: `${amount}.00`,
  BusinessShortCode: '600638',
  BillRefNumber: serial,
  MSISDN: '254708374149',
  FirstName: 'SOAK',
});

let sent = 0;
let inFlight = 0;
let capped = 0;
const acknowledged = [];
const errors = new Map();
const minutes = [];
const memory = [];
const started = performance.now();
const endAt = started + MINUTES * 60_000;
const bucket = () => {
  const m = Math.floor((performance.now() - started) / 60_000);
  return (minutes[m] ??= { sent: 0, ok: 0, latencies: [] });
};
const noteError = (what) => errors.set(what, (errors.get(what) ?? 0) + 1);

async function pay(i) {
  // 12 characters, as the parsers accept (8 to 12): S + 3 of the run + 8 digits.
  const code = `S${run.slice(0, 3)}${String(i).padStart(8, '0')}`;
  const serial = serials[i % serials.length];
  const amount = 10 * (1 + (i % 5));
  const body = i % 10 === 9 ? daraja(code, serial, amount) : { from: 'MPESA', message: sms(code, serial, amount) };
  const b = bucket();
  b.sent++;
  const t0 = performance.now();
  try {
    const res = await fetch(`${BASE}/payg/external/receive-phoneteletalk`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
      body: JSON.stringify(body),
    });
    const reply = await res.json().catch(() => ({}));
    if (!res.ok) noteError(`HTTP ${res.status}: ${String(reply.message ?? '').slice(0, 100)}`);
    else if (reply.status !== 'processed') noteError(`status ${reply.status}: ${reply.error ?? reply.reason ?? ''}`);
    else {
      acknowledged.push(code);
      b.ok++;
    }
  } catch (e) {
    noteError(`connection: ${e.cause?.code ?? e.message}`);
  }
  b.latencies.push(performance.now() - t0);
}

const sampleMemory = () => {
  if (!apiPid) return;
  const mb = rssMb(apiPid);
  if (mb !== null) memory.push({ at: (performance.now() - started) / 1000, mb });
};
sampleMemory();
const memoryTimer = setInterval(sampleMemory, 15_000);
const progressTimer = setInterval(() => {
  const s = (performance.now() - started) / 1000;
  const last = memory.at(-1);
  console.log(`${(s / 60).toFixed(1)} min: ${sent} sent, ${acknowledged.length} processed, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors, ${inFlight} in flight${last ? `, API RSS ${last.mb.toFixed(0)} MB` : ''}`);
}, 60_000);

console.log(`Soaking ${BASE} at ${RATE} payments/s for ${MINUTES} min (at most ${CONCURRENCY} in flight)${apiPid ? `; API pid ${apiPid}` : ''} ...`);
const pending = new Set();
// Open loop: payments are due at a fixed pace whatever the replies do, capped by CONCURRENCY.
while (performance.now() < endAt) {
  const due = Math.floor(((performance.now() - started) / 1000) * RATE);
  while (sent < due && inFlight < CONCURRENCY) {
    const i = sent++;
    inFlight++;
    const p = pay(i).finally(() => {
      inFlight--;
      pending.delete(p);
    });
    pending.add(p);
  }
  if (sent < due) capped++;
  await new Promise((r) => setTimeout(r, 5));
}
await Promise.all(pending);
clearInterval(memoryTimer);
clearInterval(progressTimer);
sampleMemory();
const seconds = (performance.now() - started) / 1000;

// ------------------------------------------------------------------ stored exactly once?

let storage = 'not checked (no database reachable; pass --database-url)';
try {
  const pg = createRequire(resolve(root, 'apps/api/package.json'))('pg');
  const db = new pg.Client({ connectionString: args['database-url'] });
  await db.connect();
  const { rows } = await db.query(
    `SELECT count(*)::int AS payments, count(DISTINCT transaction_code)::int AS codes
     FROM payments WHERE organization_id = $1 AND transaction_code = ANY($2)`,
    [orgId, acknowledged],
  );
  await db.end();
  const { payments, codes } = rows[0];
  storage = `${codes} of ${acknowledged.length} acknowledged payments found, ${payments - codes} duplicated`;
  if (codes !== acknowledged.length || payments !== codes) noteError(`storage: ${storage}`);
} catch (e) {
  storage = `not checked (${e.message})`;
}

// ------------------------------------------------------------------ report

const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))].toFixed(0) : '-');
console.log('\nminute  sent  processed  p50 ms  p95 ms  p99 ms');
minutes.forEach((m, i) => {
  if (!m) return;
  const l = [...m.latencies].sort((a, b) => a - b);
  console.log(`${String(i + 1).padStart(6)} ${String(m.sent).padStart(5)} ${String(m.ok).padStart(10)} ${pct(l, 50).padStart(7)} ${pct(l, 95).padStart(7)} ${pct(l, 99).padStart(7)}`);
});
const totalErrors = [...errors.values()].reduce((a, b) => a + b, 0);
const first = memory[0];
const last = memory.at(-1);
const peak = memory.reduce((a, m) => Math.max(a, m.mb), 0);
console.log(`
Duration             ${(seconds / 60).toFixed(1)} min
Payments sent        ${sent} (${(sent / seconds).toFixed(1)}/s; target ${RATE}/s${capped ? `, held back by the ${CONCURRENCY}-request cap: the API sustained less than the target` : ''})
Processed            ${acknowledged.length}
Errors               ${totalErrors}${totalErrors ? `\n${[...errors].map(([k, n]) => `  ${n} × ${k}`).join('\n')}` : ''}
Stored once          ${storage}
API memory (RSS)     ${first ? `${first.mb.toFixed(0)} MB at the start, ${last.mb.toFixed(0)} MB at the end, ${peak.toFixed(0)} MB peak` : 'unknown'}`);
process.exit(totalErrors ? 1 : 0);
