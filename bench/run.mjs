// The benchmark suite (`pnpm bench`; not a test): seeds the benchmark
// database when needed, starts the built API against it as in production,
// drives it over HTTP and prints and saves (bench/results/<date>.json) every
// figure of issue 9 with the machine and its load average.
//
//   pnpm bench                          full scale: 1,000,000 customers
//   pnpm bench -- --scale 0.1           a tenth
//   pnpm bench -- --only lists,payments --duration 5
//
// Options: --scale S (1), --duration seconds per load test (10), --only a,b
// (lists, floor, reads, dashboard, payments, tokens, files, web), --cases TEXT (only the
// list and floor cases whose name contains TEXT: an A/B of one page), --profile DIR
// (CPU profile of the API, written when it stops), --heap MB (the API's
// --max-old-space-size, 256 as in the Dockerfile and pnpm start), --pool N
// (DATABASE_POOL_SIZE, 12), --workers N (API_WORKERS, 1),
// --port P (BENCH_API_PORT or 3300). BENCH_PG_PORT / BENCH_DATABASE_URL: see bench/lib.mjs.
// Needs the built workspace: pnpm -r --workspace-concurrency=1 run build.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { apiEnv, apiNodeArgs, MALLOC_ENV } from '../scripts/api-runtime.mjs';
import { benchDatabase, root } from './lib.mjs';
import { http as httpLoad, load, machine, sequential, sqlLoop, withCpu } from './measure.mjs';
import { runFiles } from './scenarios/files.mjs';
import { runFloor } from './scenarios/floor.mjs';
import { runPayments } from './scenarios/payments.mjs';
import { runTokens } from './scenarios/tokens.mjs';
import { listQueries } from './scenarios/lists.mjs';
import { verdicts } from './report.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const scale = Number(opt('scale', 1));
const duration = Number(opt('duration', 10));
const pool = Number(opt('pool', 12));
const workers = Number(opt('workers', 1));
const port = Number(opt('port', process.env.BENCH_API_PORT ?? 3300));
const profile = opt('profile', null);
const heap = Number(opt('heap', 256));
const only = new Set(String(opt('only', 'lists,floor,reads,dashboard,payments,tokens,files,web')).split(','));
const cases = opt('cases', null);
const N = Math.round(1_000_000 * scale);
const base = `http://127.0.0.1:${port}`;

for (const f of ['apps/api/dist/main.js', 'packages/openpaygo/dist/index.js']) {
  if (!existsSync(resolve(root, f))) {
    console.error(`${f} is missing: build first (pnpm -r --workspace-concurrency=1 run build)`);
    process.exit(1);
  }
}

const started = new Date();
const results = { started_at: started.toISOString(), machine: machine(), config: { scale, customers: N, duration_s: duration, ...(cases ? { cases } : {}), pool, workers, heap_mb: heap, node_args: apiNodeArgs(heap), malloc: Object.fromEntries(Object.keys(MALLOC_ENV).map((k) => [k, apiEnv()[k]])) }, scenarios: [] };
const log = (...a) => console.log(...a);
/**
 * A child process, awaited without blocking this one: the embedded PostgreSQL started here writes its log into a
 * pipe this process reads, and a spawnSync of the seed stopped that reading. Once the pipe was full, every
 * PostgreSQL process with a line to log (an autovacuum worker) waited on it, and the seed's ANALYZE on that worker:
 * a seed that never ended.
 */
const child = (command, args, opts = {}) =>
  new Promise((done, fail) => {
    const p = spawn(command, args, { stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', ...opts });
    let stdout = '';
    p.stdout?.on('data', (d) => (stdout += d));
    p.on('error', fail);
    p.on('close', (status) => done({ status, stdout }));
  });

// ---------------------------------------------------------------------------
// The database: seeded at this scale, or seeded again.
const database = await benchDatabase({ scale });
const admin = new pg.Client({ connectionString: database.url });
await admin.connect();
// Its customers, and its payments from the daily totals (the payments scenario adds a few thousand to them on every run).
const { present, payments } = await admin
  .query(`SELECT (SELECT count(*)::int FROM customers WHERE organization_id = 'big') AS present,
                 (SELECT coalesce(sum(n), 0)::int FROM payment_stats WHERE organization_id = 'big') AS payments`)
  .then((r) => r.rows[0])
  .catch(() => ({ present: 0, payments: 0 }));
await admin.end();
if (present !== N || payments < N * 5) {
  log(present ? `The benchmark database holds ${present} customers and ${payments} payments, not ${N} and ${N * 5}: seeding it again.` : 'Seeding the benchmark database...');
  const seed = await child(process.execPath, [resolve(root, 'bench/seed.mjs'), '--scale', String(scale), ...(present ? ['--fresh'] : [])], { env: process.env });
  if (seed.status !== 0) process.exit(seed.status ?? 1);
}
// The API's business day (TIME_ZONE, passed on to it below) before it starts: a database seeded before migration
// 0023 has its daily totals in UTC days, and the API would rebuild them at start, beyond the 60 s it is given.
{
  const { migrate } = await import(resolve(root, 'apps/api/dist/database/migrator.js'));
  const { installBusinessDay } = await import(resolve(root, 'apps/api/dist/database/business-day.js'));
  const { DEFAULT_TIME_ZONE } = await import(resolve(root, 'apps/api/dist/common/calendar.js'));
  await migrate(database.url, log);
  await installBusinessDay(database.url, process.env.TIME_ZONE || DEFAULT_TIME_ZONE, log);
}
const sql = new pg.Client({ connectionString: database.url });
await sql.connect();
// A database seeded before stock locations (migration 0069) gets seed.mjs's twenty places once, its devices spread
// over them in one UPDATE with the per-row totals trigger off and the large organization's totals rebuilt after.
if ((await sql.query(`SELECT count(*)::int AS n FROM stock_locations WHERE organization_id = 'big'`)).rows[0].n === 0) {
  const began = Date.now();
  await sql.query('BEGIN');
  await sql.query(`INSERT INTO stock_locations (organization_id, location_id, name)
    SELECT 'big', g, CASE WHEN g = 1 THEN 'Central Warehouse' ELSE 'Shop ' || lpad(g::text, 2, '0') END FROM generate_series(1, 20) g`);
  await sql.query(`SELECT setval(pg_get_serial_sequence('stock_locations', 'location_id'), (SELECT max(location_id) FROM stock_locations))`);
  await sql.query('ALTER TABLE items DISABLE TRIGGER item_stats_update');
  await sql.query(`UPDATE items SET location_id = 1 + item_id % 20 WHERE organization_id = 'big'`);
  await sql.query('ALTER TABLE items ENABLE TRIGGER item_stats_update');
  await sql.query(`DELETE FROM item_stats WHERE organization_id = 'big'`);
  await sql.query(`INSERT INTO item_stats (organization_id, is_assigned, status, product_name, location_id, n)
    SELECT organization_id, is_assigned, status, product_name, location_id, count(*)::int FROM items WHERE organization_id = 'big' GROUP BY 1, 2, 3, 4, 5`);
  await sql.query('COMMIT');
  await sql.query('VACUUM (ANALYZE) items, stock_locations, item_stats');
  log(`stock locations: 20 places for the large organization's devices in ${((Date.now() - began) / 1000).toFixed(0)} s`);
}
// The daily totals too: rebuilt ones need their visibility map for the dashboard's index-only reads.
await sql.query('VACUUM (ANALYZE) customers, items, payments, token_logs, messages, customer_stats, payment_stats, token_stats');
const pgVersion = (await sql.query('SHOW server_version')).rows[0].server_version;
const settings = Object.fromEntries(
  (await sql.query(`SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers','work_mem','max_connections','synchronous_commit','fsync','jit')`)).rows.map(
    (r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting],
  ),
);
results.database = { postgres: pgVersion, settings, embedded: !process.env.BENCH_DATABASE_URL };

// ---------------------------------------------------------------------------
// The API, as in production.
const api = spawn(process.execPath, [...apiNodeArgs(heap), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profile)}`] : []), resolve(root, 'apps/api/dist/main.js')], {
  env: apiEnv({
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: String(pool),
    API_WORKERS: String(workers),
    JWT_SECRET: database.jwtSecret,
    ENCRYPTION_KEY: database.encryptionKey,
    JWT_EXPIRES_IN: '86400',
    PAYG_ADMIN_USERNAME: 'benchadmin',
    PAYG_ADMIN_PASSWORD: 'benchadmin-password',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  }),
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stopApi = () => {
  if (api.exitCode === null) api.kill('SIGTERM');
};
process.on('exit', stopApi);
for (let i = 0; ; i++) {
  if (api.exitCode !== null) throw new Error(`the API exited with code ${api.exitCode}`);
  const up = await fetch(`${base}/payg/health`).then((r) => r.ok, () => false);
  if (up) break;
  if (i > 600) throw new Error('the API did not start within 60 s');
  await new Promise((r) => setTimeout(r, 100));
}
// The dashboard warmer's first run starts 15 s after the API (DashboardWarmer, WARM_FIRST_AFTER_MS). When the large
// organization's kept figures are over 45 minutes old (a run more than 45 minutes after the last one), it computes
// them again: 4.5 s of PostgreSQL CPU, which landed in the first load test and doubled its p95 (the products list,
// 26.6-42 ms, on 2026-11-25). In production it does that once every 45 minutes; the load tests measure the steady
// state, so they start after it. Its advisory lock (WARM_LOCK) is held while it runs.
{
  const began = Date.now();
  await new Promise((r) => setTimeout(r, 16_000));
  const busy = async () =>
    (await sql.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = 7202621")).rows[0].n > 0;
  while ((await busy()) && Date.now() - began < 120_000) await new Promise((r) => setTimeout(r, 250));
  console.log(`the dashboard warmer's first run was over ${((Date.now() - began) / 1000).toFixed(1)} s after the API started`);
}
const login = await fetch(`${base}/payg/authenticate`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'bench', password: 'benchpass' }),
}).then((r) => r.json());
if (!login.access_token) throw new Error(`sign-in failed: ${JSON.stringify(login)}`);
const auth = { authorization: `Bearer ${login.access_token}` };
// The embedded server's postmaster: its backends' CPU time is the database's share.
const pgPid = (() => {
  try {
    return Number(readFileSync(resolve(root, '.data/bench-pg/postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
})();
/**
 * Untimed seconds of the same load before each timed one: a warm API, as in production (the first requests of
 * a path compile it and prepare its statements on each pooled connection; the first scenario of a run measured
 * on a cold API had p95 up to 50% higher). The payments scenario warms up with payments of its own.
 */
const WARMUP_S = 1;
/** A load test with the CPU time the API process and PostgreSQL spent on it, after WARMUP_S of the same load. */
const http = async (opts) => {
  if (!opts.amount) await httpLoad({ ...opts, duration: WARMUP_S });
  return withCpu({ apiPid: api.pid, pgPid }, () => httpLoad(opts));
};
const ctx = { base, auth, sql, database, N, duration, results, log, apiPid: api.pid, pgPid, root, scale, http, cases };
log(`API on ${base} (pool ${pool}, ${workers} process(es)), ${N.toLocaleString('en-US')} customers, PostgreSQL ${pgVersion}; load ${load().join(' ')}`);

const record = (group, name, extra, figures) => {
  const row = { group, name, ...extra, ...figures };
  results.scenarios.push(row);
  const p = (v) => (v === null || v === undefined ? '-' : String(v));
  log(
    `${group.padEnd(9)} ${name.padEnd(46)} ${p(figures.rps).padStart(8)}/s  p50 ${p(figures.p50_ms).padStart(7)}  p95 ${p(figures.p95_ms).padStart(7)}  p99 ${p(figures.p99_ms).padStart(7)} ms` +
      (figures.statuses && Object.keys(figures.statuses).some((s) => s !== '200' && s !== '201') ? `  ${JSON.stringify(figures.statuses)}` : '') +
      (row.db ? `  db ${row.db.rps}/s p95 ${row.db.p95_ms} ms (${row.db.db_cpu_ms_per_request} ms cpu), API/db throughput ${row.throughput_ratio}` : '') +
      (figures.api_cpu_ms_per_request !== undefined ? `  cpu/req api ${figures.api_cpu_ms_per_request} db ${figures.db_cpu_ms_per_request ?? '-'} ms` : '') +
      (figures.first_request_ms !== undefined ? `  first request alone ${figures.first_request_ms} ms` : '') +
      `  load ${figures.load_after?.join(' ') ?? load().join(' ')}`,
  );
  return row;
};
ctx.record = record;

// ---------------------------------------------------------------------------
// (1) + (6): the customer list over HTTP and the same statements straight on PostgreSQL.
if (only.has('lists')) {
  const raw = new pg.Pool({ connectionString: database.url, max: 16, idleTimeoutMillis: 0 });
  for (const q of (await listQueries(ctx)).filter((c) => !cases || c.name.includes(cases))) {
    const figures = await http({ url: base, connections: 16, duration, headers: auth, path: q.path, check: q.check });
    let db = null;
    if (q.work) {
      await sqlLoop({ pool: raw, concurrency: 16, duration: WARMUP_S, work: q.work });
      db = await withCpu({ apiPid: null, pgPid }, () => sqlLoop({ pool: raw, concurrency: 16, duration, work: q.work }));
    }
    record('lists', q.name, { path: q.path, ...(db ? { db, throughput_ratio: Math.round((db.rps / figures.rps) * 100) / 100 } : {}) }, figures);
  }
  await raw.end();
}

// The floor under those ratios: the same statements behind a plain node:http server (see scenarios/floor.mjs).
if (only.has('floor')) await runFloor(ctx);

// (2): other reads at concurrency 16.
if (only.has('reads')) {
  const serials = await sql.query(`SELECT serial_number FROM items WHERE organization_id = 'big' AND is_assigned ORDER BY item_id LIMIT 2000`);
  const customers = await sql.query(`SELECT customer_id FROM customers WHERE organization_id = 'big' AND customer_id % 10 <> 0 ORDER BY customer_id LIMIT 2000`);
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const tokenValues = await sql.query(`SELECT token_value FROM token_logs WHERE organization_id = 'big' AND token_log_id % 997 = 0 LIMIT 2000`);
  const tokenLogs = (q) => `/payg/metrics/token-generation-logs?${new URLSearchParams({ limit: '10', ...q })}`;
  // The Activity Log's cursor half way down the large organization's entries (about 2,500,000 newer ones).
  const [deep] = (await sql.query(`SELECT created_at, id FROM audit_logs WHERE organization_id = 'big'
    ORDER BY created_at DESC, id DESC OFFSET (SELECT count(*) / 2 FROM audit_logs WHERE organization_id = 'big') LIMIT 1`)).rows;
  const auditLog = (q) => `/payg/audit-log?${new URLSearchParams(q)}`;
  let s = 0;
  let c = 0;
  let v = 0;
  const reads = [
    ['GET /products (all)', '/payg/products?page=1&limit=10'],
    ['GET /products?status=assigned', '/payg/products?page=1&limit=10&status=assigned'],
    ['GET /products?status=unassigned', '/payg/products?page=1&limit=10&status=unassigned'],
    // One stock location's devices (50,000 here), and its devices in stock (5,000): the Products page's place filter.
    ['GET /products?location_id (one place)', '/payg/products?page=1&limit=10&location_id=7'],
    ['GET /products?location_id&status=unassigned', '/payg/products?page=1&limit=10&location_id=7&status=unassigned'],
    ['GET /stock-locations', '/payg/stock-locations'],
    ['GET /metrics/summary (all time)', '/payg/metrics/summary'],
    ['GET /metrics/summary (a year)', `/payg/metrics/summary?from=${yearAgo}&to=${today}`],
    ['GET /metrics/revenue (a year, by day)', `/payg/metrics/revenue?from=${yearAgo}&to=${today}&interval=day`],
    ['GET /metrics/revenue (a year, by month)', `/payg/metrics/revenue?from=${yearAgo}&to=${today}&interval=month`],
    ['GET /devices/{serial}/activity', null, () => ({ path: `/payg/devices/${encodeURIComponent(serials.rows[s++ % serials.rows.length].serial_number)}/activity` })],
    ['GET /customers/{id}/payment-details', null, () => ({ path: `/payg/customers/${customers.rows[c++ % customers.rows.length].customer_id}/payment-details` })],
  ];
  // Not among the issue's reads: other pages' lists. The Tokens page over 5,000,000 tokens (its first page, a
  // deep one, and its search box: a name deep in its matches, a different token number each time, a status),
  // the template assignments (900,000), all of them and one template's active ones, and the Messages page
  // (a message per payment the benchmark has sent: over a million), and Collections with its promises to pay.
  const pages = [
    ['tokens: first page', tokenLogs({})],
    ['tokens: offset 2,500,000', tokenLogs({ offset: '2500000' })],
    ['tokens: search "Wanjiru", offset 1,000', tokenLogs({ search: 'Wanjiru', offset: '1000' })],
    ['tokens: search a token number', null, () => ({ path: tokenLogs({ search: tokenValues.rows[v++ % tokenValues.rows.length].token_value }) })],
    ['tokens: search "invalid"', tokenLogs({ search: 'invalid' })],
    ['assignments: first page', '/payg/payments/templates/assignments?limit=10'],
    ['assignments: one template, active', '/payg/payments/templates/assignments?limit=10&template_id=7&active=true'],
    ['messages: first page', '/payg/fetch_messages'],
    ['messages: page 5,000', '/payg/fetch_messages?page=5000'],
    ['messages: search "BENCH PAYER", page 3,000', '/payg/fetch_messages?search=BENCH+PAYER&page=3000'],
    ['messages: stats', '/payg/messages/stats'],
    // Collections: the devices out of credit (about 300,000 of 900,000 open accounts here), from open_accounts.
    ['collections: first page', '/payg/collections'],
    ['collections: page 5,000', '/payg/collections?page=5000'],
    ['collections: 8–30 days, first page', '/payg/collections?bucket=8-30'],
    ['collections: summary', '/payg/collections/summary'],
    // Promises to pay: 100,000 calls over 180 days, about 32,000 promises in the list's window (bench/seed.mjs).
    ['promises: summary', '/payg/collections/promises/summary'],
    ['promises: first page', '/payg/collections/promises'],
    ['promises: broken, first page', '/payg/collections/promises?status=broken'],
    ['promises: broken, page 200', '/payg/collections/promises?status=broken&page=200'],
    // Service tickets: 100,000 over two years, 15,000 open or in progress, all the bench user's (bench/seed.mjs).
    ['tickets: first page (active)', '/payg/tickets'],
    ['tickets: resolved, page 1,000', '/payg/tickets?status=resolved&page=1000'],
    ['tickets: all, page 2,000', '/payg/tickets?status=all&page=2000'],
    ['tickets: assigned to me', '/payg/tickets?mine=true'],
    ['tickets: one device', '/payg/tickets?status=all&serial_number=SHS-0008799'],
    // The Activity Log (owners and admins): an entry per token and 100,000 by staff (bench/seed.mjs).
    ['activity log: first page', auditLog({})],
    ...(deep ? [['activity log: half way down (cursor)', auditLog({ cursor: `${deep.created_at.toISOString()}_${deep.id}` })]] : []),
    ['activity log: payments', auditLog({ category: 'payments' })],
    ['activity log: one user', auditLog({ actor: 'otieno' })],
    ['activity log: one user, sign-ins, a month', auditLog({ actor: 'otieno', category: 'sign_ins', from: monthAgo, to: today })],
  ];
  for (const [group, list] of [['reads', reads], ['pages', pages]]) {
    for (const [name, path, next] of list) {
      // A page's first request alone, as a user makes it, timed: a search's first request counts its matches
      // (and a deep page their places), which sixteen identical first requests at once would all do.
      const first = group === 'pages' && path ? await sequential({ url: base + path, headers: auth, times: 1 }) : null;
      const figures = await http({ url: base, connections: 16, duration, headers: auth, path: path ?? undefined, next });
      if (first) figures.first_request_ms = first.first_ms;
      record(group, name, { path: path ?? (group === 'reads' ? name.split(' ')[1] : '/payg/metrics/token-generation-logs') }, figures);
    }
  }
}

// The dashboard's calls, one at a time, as a user opening it.
if (only.has('dashboard')) {
  const calls = ['/payg/metrics/customers', '/payg/metrics/payments', '/payg/metrics/summary', '/payg/metrics/usage', '/payg/metrics/items', '/payg/metrics/revenue', '/payg/metrics/performance', '/payg/health', '/payg/metrics/token-generation-logs?limit=3',
    // The Needs Attention card: held payments, tickets (the caller's and everyone's), promises to pay, cash in hand.
    '/payg/payments?status=pending&limit=1', '/payg/tickets?limit=1&status=active&mine=true', '/payg/collections/promises/summary', '/payg/cash'];
  results.dashboard = [];
  for (const path of calls) {
    const r = await sequential({ url: base + path, headers: auth, times: 5 });
    results.dashboard.push({ path, ...r });
    log(`dashboard ${path.padEnd(46)} first ${r.first_ms} ms, median ${r.p50_ms} ms, max ${r.max_ms} ms (HTTP ${r.status})  load ${r.load.join(' ')}`);
  }
  // Opening the dashboard starts the background refresh of kept figures older
  // than 5 minutes (seconds of PostgreSQL CPU on this portfolio). Wait for it,
  // so the next scenario measures itself rather than the refresh; how long it
  // ran is reported.
  const started = Date.now();
  const busy = async () => (await sql.query('SELECT count(*)::int AS n FROM metric_snapshots WHERE refreshing_at IS NOT NULL')).rows[0].n;
  while ((await busy()) > 0 && Date.now() - started < 180_000) await new Promise((r) => setTimeout(r, 250));
  results.dashboard_refresh_s = Math.round((Date.now() - started) / 100) / 10;
  log(`dashboard background refresh of the kept figures: ${results.dashboard_refresh_s} s after the calls`);
}

if (only.has('payments')) await runPayments(ctx);
if (only.has('tokens')) await runTokens(ctx);
if (only.has('files')) await runFiles(ctx);

if (only.has('web')) {
  const size = await child('pnpm', ['--filter', '@kidogo/web', 'size'], { cwd: root, capture: true });
  const lines = (size.stdout ?? '').split('\n').filter((l) => l.includes('initial JS'));
  results.web = lines.map((l) => {
    const m = /^(\S+)\s+initial JS\s+([\d.]+) kB raw, ([\d.]+) kB gzip/.exec(l.trim());
    return m ? { route: m[1], raw_kb: Number(m[2]), gzip_kb: Number(m[3]) } : { line: l.trim() };
  });
  for (const w of results.web) log(`web       ${w.route ?? w.line} initial JS ${w.gzip_kb ?? '?'} kB gzip`);
}

// ---------------------------------------------------------------------------
results.finished_at = new Date().toISOString();
results.load_average_end = load();
const dir = resolve(root, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = resolve(dir, `${started.toISOString().replace(/[:.]/g, '-').slice(0, 19)}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`\nSaved ${file} (as Markdown: pnpm bench:report ${file})`);
log('\nAgainst the targets:');
for (const [met, text] of verdicts(results)) log(`${met ? 'met    ' : 'MISSED '} ${text}`);
stopApi();
await sql.end();
await new Promise((r) => (api.exitCode !== null ? r() : api.once('exit', r)));
await database.stop();
