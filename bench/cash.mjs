// Cash in hand (apps/api/src/cash/cash.service.ts) on the benchmark's large organization ('big': 1,000,000
// customers, 4,500,000 payments by M-Pesa): not a test. Adds, in one transaction rolled back at the end, the cash of
// a large field force: COLLECTORS agents (200) who each took PER_COLLECTOR cash payments (2,500: 500,000 in all)
// over the last year on the organization's devices, and handed it over weekly (52 handovers each), the last week's
// still held. Runs the service itself on that transaction's connection and prints the median and p95 of:
// - the summary of every collector (each one's totals, and since when the oldest cash still held was paid: the
//   running total of their cash payments against what they handed over);
// - the summary a staff user sees (their own);
// - one collector's ledger: the first page and a page deep in it (every entry's running balance, then the page);
// - recording a handover and voiding it (the advisory lock, the collector's balance, the row and its audit entry).
//
//   pnpm bench:cash      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient, timer } from './lib.mjs';

const RUNS = Number(process.env.CASH_RUNS ?? 10);
const COLLECTORS = Number(process.env.CASH_COLLECTORS ?? 200);
const PER_COLLECTOR = Number(process.env.CASH_PER_COLLECTOR ?? 2_500);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { CashService } = await dist('cash/cash.service.js');

const { client, customers } = await seededClient(database.url, ORG);
const run = async (sql) => (await client.query({ text: sql.text, values: sql.values })).rows;
// The service's DatabaseService, as far as it uses it: everything on the one connection of the open transaction.
const cash = new CashService({ query: run, transaction: (work) => work(run) });
const owner = { user_id: 1, username: 'bench', role: 'owner', organization_id: ORG };
const agent = (n) => `bench-agent-${String(n).padStart(3, '0')}`;

await client.query('BEGIN');
try {
  const started = Date.now();
  // Each collector's cash payments on the organization's devices, spread over the last 365 days.
  const { rowCount: paid } = await client.query(
    `WITH d AS (SELECT item_id, customer_id, row_number() OVER (ORDER BY item_id) AS k FROM items
                WHERE organization_id = $1::varchar AND customer_id IS NOT NULL LIMIT 100000)
     INSERT INTO payments (organization_id, item_id, customer_id, amount, currency, payment_method, status, reference, source, recorded_by, collected_by, paid_at)
     SELECT $1::varchar, d.item_id, d.customer_id, 50 * (1 + (g % 20)), 'KES', 'cash', 'completed', 'BCASH-' || c || '-' || g, 'manual',
            'bench-agent-' || lpad(c::text, 3, '0'), 'bench-agent-' || lpad(c::text, 3, '0'), now() - (g::float / $3::int * 365) * interval '1 day'
     FROM generate_series(1, $2::int) c CROSS JOIN generate_series(1, $3::int) g
     JOIN d ON d.k = 1 + ((c * 7919 + g * 104729) % 100000)`,
    [ORG, COLLECTORS, PER_COLLECTOR],
  );
  // Weekly handovers of the week before's cash; the last week's is still held.
  const { rowCount: handed } = await client.query(
    `INSERT INTO cash_handovers (organization_id, collector, amount, currency, handed_at, received_by)
     SELECT $1::varchar, p.collected_by, sum(p.amount), 'KES', date_trunc('week', p.paid_at) + interval '7 days', 'bench'
     FROM payments p
     WHERE p.organization_id = $1::varchar AND p.payment_method = 'cash' AND p.source = 'manual' AND p.collected_by LIKE 'bench-agent-%'
       AND p.paid_at < date_trunc('week', now())
     GROUP BY p.collected_by, date_trunc('week', p.paid_at)`,
    [ORG],
  );
  await client.query('ANALYZE payments');
  await client.query('ANALYZE cash_handovers');
  console.log(
    `cash in hand of '${ORG}' (${customers.toLocaleString()} customers): ${paid.toLocaleString()} cash payments by ${COLLECTORS} collectors, ` +
      `${handed.toLocaleString()} handovers, added in ${((Date.now() - started) / 1000).toFixed(1)} s; ${RUNS} runs each`,
  );

  const time = timer({ runs: RUNS, width: 52 });
  await time('summary: every collector', async () => {
    const s = await cash.summary(ORG, owner);
    return `${s.data.length} collectors, ${s.totals[0]?.in_hand} in hand, ${s.data.filter((c) => c.overdue).length} overdue`;
  });
  const staff = { ...owner, username: agent(7), role: 'staff' };
  await time('summary: a staff user (their own)', async () => {
    const s = await cash.summary(ORG, staff);
    return `${s.data[0]?.in_hand} in hand since ${s.data[0]?.held_since?.slice(0, 10)}`;
  });
  await time('ledger: first page of 25', async () => {
    const l = await cash.ledger(ORG, owner, agent(7), { page: 1, limit: 25 });
    return `${l.pagination.total.toLocaleString()} entries, ${l.data[0]?.in_hand_after} in hand`;
  });
  await time('ledger: page 100 of 25', async () => {
    const l = await cash.ledger(ORG, owner, agent(7), { page: 100, limit: 25 });
    return `${l.data.length} entries, the first ${l.data[0]?.at.slice(0, 10)}`;
  });
  await time('record a handover of 50 and void it', async () => {
    const h = await cash.handover(ORG, owner, { collector: agent(9), amount: 50 });
    const v = await cash.voidHandover(ORG, owner, h.handover.handover_id, { reason: 'Benchmark' });
    return `${h.collector.in_hand} then ${v.collector.in_hand} in hand`;
  });
} finally {
  await client.query('ROLLBACK');
  await client.end();
  await database.stop();
}
