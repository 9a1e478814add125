// Sales agents at scale: Collections by agent (GET /payg/collections?agent=,
// /collections/summary?agent=, /collections/agents) and the Agent report,
// with what keeping each open account's agent costs a payment. Not a test.
// Seeds a database of its own (kidogo_bench_agents, made again on each run)
// on the benchmark's PostgreSQL: 1,000,000 customers of 200 agents (5% with
// none), 1,000,000 devices (900,000 given, about a third of them out of
// credit), their plans, and AGENTS_PAYMENTS payments (default 5,000,000) over
// a year, as `pnpm bench` seeds them; then runs the API's own services on it
// (median and p95 of each), and times 20,000 single-device credit updates
// (what each payment does to open_accounts) with the trigger of before and of
// now, taking turns. The devices were given over 700 days, so it also times the
// portfolio report (a cohort a month) on them, and the Documents report over
// 1.9 million documents of their customers.
//
//   pnpm bench:agents      (with the workspace built)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDatabase, root, withDb } from './lib.mjs';

const N = Number(process.env.AGENTS_CUSTOMERS ?? 1_000_000);
const PAYMENTS = Number(process.env.AGENTS_PAYMENTS ?? N * 5);
const RUNS = Number(process.env.AGENTS_RUNS ?? 30);
const NAME = 'kidogo_bench_agents';
const ORG = 'agents';
const dist = (f) => import(pathToFileURL(resolve(root, 'apps/api/dist', f)).href);

// AGENTS_REUSE=1 times the database of the last run again, unseeded (it takes about 10 minutes to seed).
const REUSE = process.env.AGENTS_REUSE === '1';
const database = await benchDatabase({ scale: 1 });
const admin = new pg.Client({ connectionString: withDb(database.serverUrl, 'postgres') });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [NAME])).rowCount > 0;
if (!REUSE || !exists) {
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${NAME}`);
}
await admin.end();
const url = withDb(database.serverUrl, NAME);
const { migrate } = await dist('database/migrator.js');
await migrate(url);

const sql = new pg.Client({ connectionString: url });
await sql.connect();
await sql.query('SET synchronous_commit = off');
if (!REUSE || !exists) await seed();
async function seed() {
const step = async (label, text) => {
  const t0 = process.hrtime.bigint();
  const { rowCount } = await sql.query(text);
  console.log(`seeded ${label}: ${(rowCount ?? 0).toLocaleString('en')} rows in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
};
// Every 20th customer without an agent (one with a device: every 10th device is not given).
const agentOf = (g) => `CASE WHEN ${g} % 20 = 1 THEN NULL ELSE 'AGT-' || lpad((1 + ${g} % 200)::text, 3, '0') END`;
await sql.query(`INSERT INTO organizations (organization_id, name, app, commission_per_device, commission_percent)
                 VALUES ('${ORG}', 'Agents benchmark', 'kidogo', 500, 5)`);
await sql.query(`INSERT INTO users (username, password_hash, role, organization_id) VALUES ('bench-agents', 'x', 'owner', '${ORG}')`);
await step('templates', `INSERT INTO payment_templates (template_id, organization_id, template_name, description, deposit_made,
    daily_price, activation_price, grace_period_days, currency, payment_method, frequency, free_code_price)
  SELECT g, '${ORG}', 'Plan ' || g, 'Solar plan ' || g, 1000, 30 + (g % 10) * 10, 500, g % 5, 'KES', 'mobile_money', 'daily', 20000 + g * 500
  FROM generate_series(1, 50) g`);
await step('customers', `INSERT INTO customers (customer_id, organization_id, customer_name, id_number, phone_contact, agent_id, created_at)
  SELECT g, '${ORG}', 'Customer ' || g, (30000000 + g)::text, '07' || lpad(((g::bigint * 48271) % 100000000)::text, 8, '0'),
         ${agentOf('g')}, now() - ((${N} - g) * interval '60 seconds')
  FROM generate_series(1, ${N}) g`);
await step('devices', `INSERT INTO items (item_id, organization_id, serial_number, serial_normalized, product_name, price, status,
    is_assigned, customer_id, assigned_at, secret_key_enc, starting_code_enc, total_paid, credit_until, created_at)
  SELECT g, '${ORG}', 'AGS-' || lpad(g::text, 7, '0'), 'AGS' || lpad(g::text, 7, '0'), 'Solar Home System 50W', 20000,
    CASE WHEN g % 10 = 0 THEN 'available'::"ItemStatus" ELSE 'assigned'::"ItemStatus" END,
    g % 10 <> 0, CASE WHEN g % 10 <> 0 THEN g END, CASE WHEN g % 10 <> 0 THEN now() - make_interval(days => 10 + g % 700) END,
    -- 35% out of credit, from a day to 245 days (the four bands), the rest with up to 65 days left.
    'x', 'x', 5000 + (g % 100) * 100, now() + ((g % 100) - 35) * interval '1 day' * CASE WHEN g % 100 < 35 THEN 1 + g % 7 ELSE 1 END,
    now() - interval '2 years' + g * interval '1 second'
  FROM generate_series(1, ${N}) g`);
await step('template assignments', `INSERT INTO template_assignments (organization_id, customer_id, template_id, is_active, assigned_at)
  SELECT '${ORG}', g, 1 + g % 50, true, now() - interval '200 days' FROM generate_series(1, ${N}) g WHERE g % 10 <> 0`);
await step('item assignments', `INSERT INTO item_assignments (organization_id, item_id, customer_id, assigned_at)
  SELECT '${ORG}', g, g, now() - make_interval(days => 10 + g % 700) FROM generate_series(1, ${N}) g WHERE g % 10 <> 0`);
const assigned = (j) => `((${j}) / 9 * 10 + (${j}) % 9 + 1)::int`;
await step('payments', `INSERT INTO payments (organization_id, customer_id, item_id, amount, currency, payment_method, status,
    transaction_code, source, days_bought, credit_after, paid_at, created_at, applied_at)
  SELECT '${ORG}', c, c, (ARRAY[50,100,150,200,300,500,1000])[1 + g % 7], 'KES', 'mobile_money',
    CASE WHEN g % 97 = 0 THEN 'failed'::"PaymentStatus" ELSE 'completed'::"PaymentStatus" END,
    'AG' || lpad(g::text, 9, '0'), 'sms', 1 + g % 10, 0, ts, ts, ts
  FROM (SELECT g, ${assigned(`(g::bigint * 7919) % ${N - Math.floor(N / 10)}`)} AS c, now() - (g % 525600) * interval '1 minute' AS ts
        FROM generate_series(1, ${PAYMENTS}) g) s`);
await sql.query('VACUUM ANALYZE');
}
// Their documents (README "Customer documents"), on a database seeded before there were any too: of the customers
// with a device, 70% have the ID card's front, 60% its back, 50% the signed agreement and 30% a photo (1.9 million
// rows). The files are a few bytes here: a real one sits out of line (TOAST), the row itself is the same size.
if ((await sql.query(`SELECT 1 FROM customer_documents WHERE organization_id = '${ORG}' LIMIT 1`)).rowCount === 0) {
  const t0 = process.hrtime.bigint();
  const { rowCount } = await sql.query(`INSERT INTO customer_documents (organization_id, customer_id, kind, file_name, content_type, size_bytes, sha256, content, uploaded_by, created_at)
    SELECT '${ORG}', g, k.kind::"DocumentKind", k.kind || '.jpg', 'image/jpeg', 16, encode(sha256((g || k.kind)::bytea), 'hex'),
           decode(md5(g || k.kind), 'hex'), 'bench-agents', now() - make_interval(days => 10 + g % 700)
    FROM generate_series(1, ${N}) g
    CROSS JOIN (VALUES ('id_front', 70), ('id_back', 60), ('agreement', 50), ('photo', 30)) k(kind, share)
    WHERE g % 10 <> 0 AND (g * 7 + length(k.kind)) % 100 < k.share`);
  await sql.query('ANALYZE customer_documents');
  console.log(`seeded documents: ${rowCount.toLocaleString('en')} rows in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
}
const { rows: [shape] } = await sql.query(`
  SELECT count(*)::int AS open, count(*) FILTER (WHERE since <= now())::int AS out, count(DISTINCT agent)::int AS agents,
         count(*) FILTER (WHERE agent = 'AGT-007' AND since <= now())::int AS one
  FROM open_accounts WHERE organization_id = '${ORG}'`);
console.log(`open accounts ${shape.open.toLocaleString('en')}, out of credit ${shape.out.toLocaleString('en')}, ${shape.agents} agents; AGT-007 has ${shape.one.toLocaleString('en')} out of credit\n`);

const { loadConfig } = await dist('config/config.js');
const { AppModule } = await dist('app.module.js');
const { CollectionsService } = await dist('collections/collections.service.js');
const { ReportsService } = await dist('reports/reports.service.js');
const { NestFactory } = await import(pathToFileURL(resolve(root, 'apps/api/node_modules/@nestjs/core/index.js')).href);
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: url,
  JWT_SECRET: database.jwtSecret,
  ENCRYPTION_KEY: database.encryptionKey,
  SEED_DEMO: 'false',
  PAYG_ADMIN_PASSWORD: 'benchadmin-password',
  OUTBOX_ENABLED: 'false',
});
const app = await NestFactory.createApplicationContext(AppModule.register(config), { logger: ['error', 'warn'] });
const results = {};
async function time(label, work, runs = RUNS) {
  const ms = [];
  let size = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    size = await work();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const pct = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))];
  console.log(`${label.padEnd(62)} median ${pct(50).toFixed(2).padStart(8)} ms  p95 ${pct(95).toFixed(2).padStart(8)} ms  (${size})`);
  results[label] = { median_ms: Number(pct(50).toFixed(2)), p95_ms: Number(pct(95).toFixed(2)), size };
}
try {
  const collections = app.get(CollectionsService);
  const reports = app.get(ReportsService);
  const list = (q) => async () => (await collections.list(ORG, { page: 1, limit: 20, bucket: 'all', ...q })).data.items.length;
  await time('list, everyone, first page', list({}));
  await time('list, agent AGT-007, first page', list({ agent: 'AGT-007' }));
  await time('list, agent AGT-007, 8-30 days, first page', list({ agent: 'AGT-007', bucket: '8-30' }));
  await time('list, agent AGT-007, page 50 (of 20)', list({ agent: 'AGT-007', page: 50 }));
  await time('list, (no agent), first page', list({ agent: '(no agent)' }));
  await time('agents to choose from (200 and none)', async () => (await collections.agents(ORG)).data.agents.length);
  // The summary's own pass (the endpoint keeps it up to a minute on a large organization).
  await time('summary of agent AGT-007, computed', async () => (await collections.count(ORG, 'AGT-007')).out_of_credit, 10);
  await time('summary of everyone, computed', async () => (await collections.count(ORG, undefined)).out_of_credit, 5);
  const day = (d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
  const agentReport = (from) => async () => {
    const r = await reports.open(ORG, { report: 'agents', from, to: day(0), format: 'json' });
    let rows = 0;
    for await (const batch of r.batches) rows += batch.length;
    return rows;
  };
  await time('agent report, last 30 days', agentReport(day(30)), 5);
  await time('agent report, a year', agentReport(day(365)), 3);
  // The portfolio report reads every account of its cohorts with their payments: here 900,000 accounts opened over
  // 700 days and the payments of a year.
  const { toPeriod } = await dist('metrics/period.js');
  const { Calendar } = await dist('common/calendar.js');
  // Worked out each time (the report keeps a large organization's for 10 minutes).
  const portfolioReport = (from, agent) => async () =>
    (await reports.computePortfolio(ORG, toPeriod(from, day(0), app.get(Calendar)), agent)).filter((r) => r.month !== null).length;
  await time('portfolio report, all time (24 cohorts)', portfolioReport(null), 3);
  await time('portfolio report, the cohorts of a year', portfolioReport(day(365)), 3);
  await time('portfolio report, the cohorts of 30 days', portfolioReport(day(30)), 3);
  await time('portfolio report, agent AGT-007, all time', portfolioReport(null, 'AGT-007'), 3);
  // The Documents report: every document of the organization grouped by customer once, against the devices given.
  const documentsReport = (from) => async () => {
    const r = await reports.open(ORG, { report: 'documents', from, to: day(0), format: 'json' });
    let rows = 0;
    for await (const batch of r.batches) rows += batch.length;
    return rows;
  };
  await time('documents report, last 90 days', documentsReport(day(90)), 5);
  await time('documents report, all time', documentsReport(null), 3);
  {
    const { CustomerDocumentsService } = await dist('customer-documents/customer-documents.service.js');
    const documents = app.get(CustomerDocumentsService);
    let c = 0;
    await time("one customer's documents (GET /customers/{id}/documents)", async () => (await documents.list(ORG, 1 + ((c++ * 7919) % (N - 1)))).data.length, 200);
  }
  {
    const { portfolioSql } = await dist('reports/portfolio.js');
    const statement = portfolioSql(ORG, toPeriod(null, null, app.get(Calendar)), 'Africa/Nairobi');
    await sql.query('BEGIN');
    await sql.query(`SET LOCAL work_mem = '256MB'`);
    await sql.query('SET LOCAL enable_nestloop = off');
    const plan = await sql.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, values: statement.values });
    await sql.query('COMMIT');
    console.log(`\nEXPLAIN of the portfolio report, all time:\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}\n`);
  }
  // The devices out of credit per agent: as the report read them before (every open account joined to its device and customer) and now.
  const before = `SELECT coalesce(nullif(btrim(c.agent_id), ''), '(no agent)') AS agent, count(*) FILTER (WHERE o.since <= now())::int AS n
    FROM open_accounts o JOIN items i ON i.organization_id = o.organization_id AND i.item_id = o.item_id
    JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
    WHERE o.organization_id = '${ORG}' GROUP BY 1`;
  const now = `SELECT coalesce(o.agent, '(no agent)') AS agent, count(*) FILTER (WHERE o.since <= now())::int AS n
    FROM open_accounts o WHERE o.organization_id = '${ORG}' GROUP BY 1`;
  await time('out of credit per agent, joined as before', async () => (await sql.query(before)).rowCount, 5);
  await time('out of credit per agent, from open_accounts.agent', async () => (await sql.query(now)).rowCount, 5);

  // What each payment's credit update costs open_accounts: the trigger of 0029 and of 0053, taking turns.
  const { rows: fns } = await sql.query(`SELECT pg_get_functiondef('kidogo_open_account'::regproc) AS def`);
  const current = fns[0].def;
  const previous = `CREATE OR REPLACE FUNCTION kidogo_open_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO open_accounts (organization_id, item_id, since)
    SELECT organization_id, item_id, coalesce(credit_until, assigned_at, created_at) FROM new_rows
    WHERE is_assigned AND paid_off_at IS NULL AND customer_id IS NOT NULL;
  ELSIF NEW.is_assigned AND NEW.paid_off_at IS NULL AND NEW.customer_id IS NOT NULL THEN
    INSERT INTO open_accounts (organization_id, item_id, since)
    VALUES (NEW.organization_id, NEW.item_id, coalesce(NEW.credit_until, NEW.assigned_at, NEW.created_at))
    ON CONFLICT (organization_id, item_id) DO UPDATE SET since = excluded.since
      WHERE open_accounts.since IS DISTINCT FROM excluded.since;
  ELSE
    DELETE FROM open_accounts WHERE organization_id = OLD.organization_id AND item_id = OLD.item_id;
  END IF;
  RETURN NULL;
END $$`;
  const updates = async (fn, from) => {
    await sql.query(fn);
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < 2000; k++) {
      const id = 1 + ((from + k * 9) % (N - 1));
      await sql.query({ name: 'credit', text: `UPDATE items SET credit_until = credit_until + interval '1 day' WHERE organization_id = $1 AND item_id = $2`, values: [ORG, id] });
    }
    return Number(process.hrtime.bigint() - t0) / 1e6 / 2000;
  };
  const per = { before: [], now: [] };
  for (let round = 0; round < 5; round++) {
    per.before.push(await updates(previous, round * 20_000));
    per.now.push(await updates(current, round * 20_000 + 10_000));
  }
  await sql.query(current);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\na device's credit moved (a payment's open_accounts write), 5 × 2,000 each, taking turns:`);
  console.log(`  trigger of 0029 (since only)      median ${median(per.before).toFixed(3)} ms an update  (${per.before.map((x) => x.toFixed(3)).join(', ')})`);
  console.log(`  trigger of 0053 (since and agent) median ${median(per.now).toFixed(3)} ms an update  (${per.now.map((x) => x.toFixed(3)).join(', ')})`);
  results.credit_update_ms = { before: median(per.before), now: median(per.now) };

  // A customer handed to another agent takes their open accounts along; a whole agent's book handed over at once.
  await time('one customer to another agent', async () => (await sql.query(`UPDATE customers SET agent_id = CASE WHEN agent_id = 'AGT-100' THEN 'AGT-101' ELSE 'AGT-100' END WHERE organization_id = '${ORG}' AND customer_id = 4242`)).rowCount, 20);
  await time("two agents' books swapped (about 9,500 customers)", async () => (await sql.query(`UPDATE customers SET agent_id = CASE WHEN agent_id = 'AGT-050' THEN 'AGT-150' ELSE 'AGT-050' END WHERE organization_id = '${ORG}' AND agent_id IN ('AGT-050', 'AGT-150')`)).rowCount, 4);
  for (const [label, q] of [['an agent\'s first page of keys', `SELECT o.item_id, o.since FROM open_accounts o WHERE o.organization_id = '${ORG}' AND o.agent = 'AGT-007' AND o.since <= now() ORDER BY o.since DESC, o.item_id DESC LIMIT 20`]]) {
    const plan = await sql.query(`EXPLAIN (ANALYZE, BUFFERS) ${q}`);
    console.log(`\nEXPLAIN of ${label}:\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  }
} finally {
  await app.close();
  await sql.end();
  await database.stop();
}
process.exit(0);
