// Your notifications (GET /payg/me/notifications, POST /payg/me/notifications/read)
// at scale: not a test. Seeds a database of its own (kidogo_bench_inbox, made
// again on each run) on the benchmark's PostgreSQL with 2,000,000 notifications
// of 200 users of one organization, one of them with 500,000 (a technician
// handed tickets for years), and runs the API's own statements on it with the
// API's driver: a page, a deep page, the unread count the bell polls on every
// page of the app, and marking all read (median and p95 of each); then the
// look for held payments over 100,000 held, with the API's own service.
//
//   pnpm bench:inbox      (with the workspace built)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDatabase, root, withDb } from './lib.mjs';

const RUNS = Number(process.env.INBOX_RUNS ?? 50);
const TOTAL = Number(process.env.INBOX_ROWS ?? 2_000_000);
const USERS = 200;
const HEAVY = 500_000;
const NAME = 'kidogo_bench_inbox';

const database = await benchDatabase({ scale: 1 });
const admin = new pg.Client({ connectionString: withDb(database.serverUrl, 'postgres') });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${NAME}`);
await admin.end();
const url = withDb(database.serverUrl, NAME);
const { migrate } = await import(pathToFileURL(resolve(root, 'apps/api/dist/database/migrator.js')).href);
await migrate(url);

const sql = new pg.Client({ connectionString: url });
await sql.connect();
const seeded = process.hrtime.bigint();
await sql.query(`INSERT INTO organizations (organization_id, name, app) VALUES ('inbox', 'Inbox benchmark', 'kidogo')`);
await sql.query(
  `INSERT INTO users (username, password_hash, role, organization_id)
   SELECT 'user' || g, 'x', 'staff', 'inbox' FROM generate_series(1, $1::int) g`,
  [USERS],
);
const { rows: users } = await sql.query(`SELECT user_id FROM users WHERE organization_id = 'inbox' ORDER BY user_id`);
const heavy = users[0].user_id;
const light = users[1].user_id;
// The heavy user's 500,000 over two years, the last 2,000 unread; the rest spread over the other users, 2% unread.
await sql.query(
  `INSERT INTO user_notifications (organization_id, user_id, kind, message, ticket_id, actor_username, created_at, read_at)
   SELECT 'inbox', $1::int, 'ticket_assigned', 'Ticket #' || g || ' on SHS-' || g || ' (Device fault) was assigned to you by user2', NULL, 'user2',
          now() - ((($2::int - g) * 126)::text || ' seconds')::interval,
          CASE WHEN g > $2::int - 2000 THEN NULL ELSE now() END
   FROM generate_series(1, $2::int) g`,
  [heavy, HEAVY],
);
await sql.query(
  `INSERT INTO user_notifications (organization_id, user_id, kind, message, ticket_id, actor_username, created_at, read_at)
   SELECT 'inbox', u.ids[1 + g % array_length(u.ids, 1)], 'ticket_resolved', 'Ticket #' || g || ' on LMP-' || g || ', which you opened, was resolved by user1: fixed',
          NULL, 'user1', now() - (g || ' seconds')::interval, CASE WHEN g % 50 = 0 THEN NULL ELSE now() END
   FROM generate_series(1, $1::int) g, (SELECT array_agg(user_id) AS ids FROM users WHERE organization_id = 'inbox' AND user_id <> $2::int) u`,
  [TOTAL - HEAVY, heavy],
);
await sql.query('VACUUM ANALYZE user_notifications');
const seedS = Number(process.hrtime.bigint() - seeded) / 1e9;
const { rows: [count] } = await sql.query(`SELECT count(*)::int AS n, count(*) FILTER (WHERE read_at IS NULL)::int AS unread FROM user_notifications`);
console.log(`seeded ${count.n.toLocaleString()} notifications (${count.unread.toLocaleString()} unread) of ${USERS} users in ${seedS.toFixed(1)} s`);

// The statements of apps/api/src/notifications/inbox.service.ts, with its parameters.
const page = (user, extra = '', params = []) => ({
  text: `SELECT n.id, n.kind::text AS kind, n.message, n.ticket_id, n.actor_username, n.created_at, n.read_at
         FROM (SELECT id FROM user_notifications WHERE user_id = $2::int ${extra} ORDER BY id DESC LIMIT 21) k
         JOIN user_notifications n ON n.id = k.id
         WHERE n.organization_id = $1 ORDER BY n.id DESC`,
  values: ['inbox', user, ...params],
});
// The first version: whole rows at once (PostgreSQL walked the primary key backwards for the heavy user).
const wholeRows = (user) => ({
  text: `SELECT id, kind::text AS kind, message, ticket_id, actor_username, created_at, read_at FROM user_notifications
         WHERE organization_id = $1 AND user_id = $2::int ORDER BY id DESC LIMIT 21`,
  values: ['inbox', user],
});
const unread = (user) => ({
  text: `SELECT count(*)::int AS n FROM user_notifications WHERE user_id = $1::int AND organization_id = $2 AND read_at IS NULL`,
  values: [user, 'inbox'],
});
const { rows: [mid] } = await sql.query(`SELECT id FROM user_notifications WHERE user_id = $1 ORDER BY id LIMIT 1 OFFSET $2`, [heavy, HEAVY / 2]);

async function time(label, query, { rollback = false } = {}) {
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    if (rollback) await sql.query('BEGIN');
    const t0 = process.hrtime.bigint();
    const res = await sql.query(query);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (rollback) await sql.query('ROLLBACK');
    if (i === 0) query.rows = res.rowCount;
  }
  ms.sort((a, b) => a - b);
  const pct = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))];
  console.log(`${label.padEnd(58)} median ${pct(50).toFixed(2).padStart(7)} ms  p95 ${pct(95).toFixed(2).padStart(7)} ms  (${query.rows} rows)`);
  return { label, median: pct(50), p95: pct(95) };
}

await time('first version (whole rows), 500,000-notification user', wholeRows(heavy));
await time('first page, 500,000-notification user', page(heavy));
await time('page at the middle of their history (before=)', page(heavy, 'AND id < $3::int', [mid.id]));
await time('unread only, first page', page(heavy, 'AND read_at IS NULL'));
await time('unread count, 500,000-notification user (2,000 unread)', unread(heavy));
await time('first page, a 7,500-notification user', page(light));
await time('unread count, a 7,500-notification user', unread(light));
await time('mark all read, 2,000 unread (rolled back)', {
  text: `UPDATE user_notifications SET read_at = now() WHERE organization_id = $1 AND user_id = $2::int AND read_at IS NULL RETURNING id`,
  values: ['inbox', heavy],
}, { rollback: true });
for (const [label, q] of [['the first page', page(heavy)], ['the unread count', unread(heavy)]]) {
  const plan = await sql.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, values: q.values });
  console.log(`\nEXPLAIN of ${label}, 500,000-notification user:\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
}

// The look for held payments (the sweep of NOTICE_SWEEP_MS), run by the API's own service: 100,000 payments held
// in the organization (a statement import nobody matched), five owners and admins to tell.
await sql.query(`UPDATE users SET role = CASE WHEN user_id = $1 THEN 'owner' ELSE 'admin' END::"UserRole"
                 WHERE organization_id = 'inbox' AND user_id IN (SELECT user_id FROM users WHERE organization_id = 'inbox' ORDER BY user_id LIMIT 5)`, [heavy]);
await sql.query(`INSERT INTO payments (organization_id, amount, currency, status, transaction_code, hold_reason)
                 SELECT 'inbox', 100 + g % 900, 'KES', 'pending', 'BENCH' || g, 'No single device matches the account reference X' || g
                 FROM generate_series(1, 100000) g`);
await sql.query('ANALYZE payments');
const { loadConfig } = await import(pathToFileURL(resolve(root, 'apps/api/dist/config/config.js')).href);
const { AppModule } = await import(pathToFileURL(resolve(root, 'apps/api/dist/app.module.js')).href);
const { NoticeSweepService } = await import(pathToFileURL(resolve(root, 'apps/api/dist/notifications/notice-sweep.service.js')).href);
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
try {
  const sweeps = app.get(NoticeSweepService);
  for (const label of ['first look: 100,000 held, 5 owners and admins told', 'next look: nothing new']) {
    const t0 = process.hrtime.bigint();
    const r = await sweeps.sweep();
    console.log(`${label.padEnd(58)} ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1).padStart(8)} ms  (${r.held} notifications)`);
  }
} finally {
  await app.close();
}

await sql.end();
await database.stop();
process.exit(0);
