// Agent commission payouts (apps/api/src/reports/commission-payouts.service.ts) on the benchmark's large
// organization ('big': 1,000,000 customers of 200 sales agents, 5% without one, and its payments over a year):
// not a test. In one transaction rolled back at the end, with commissions set (500.00 a device and 5%), it runs the
// service itself on that transaction's connection and prints the median and p95 of:
// - the month's page (GET /commissions): every agent's devices given and payments of a month, reckoned as the Agent
//   report does (the first run; kept a minute after it, as the API keeps a slow one: the median), with the month's
//   payouts;
// - a payout recorded and voided (the advisory lock, one agent's month reckoned again, the row, its audit entry);
// - every agent still owed paid at once (Pay All Owed), once.
//
//   pnpm bench:commissions      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient, timer } from './lib.mjs';

const RUNS = Number(process.env.COMMISSIONS_RUNS ?? 10);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { CommissionPayoutsService } = await dist('reports/commission-payouts.service.js');
const { Calendar } = await dist('common/calendar.js');
const { MetricSnapshots } = await dist('metrics/metric-snapshots.js');

const { client, customers } = await seededClient(database.url, ORG);
const run = async (sql) => (await client.query({ text: sql.text, values: sql.values })).rows;
// The service's DatabaseService, as far as it uses it: everything on the one connection of the open transaction.
const db = { query: run, readQuery: run, prepared: run, transaction: (work) => work(run) };
const payouts = new CommissionPayoutsService(db, new Calendar('Africa/Nairobi'), null, new MetricSnapshots(db));
const owner = { user_id: 1, username: 'bench', role: 'owner', organization_id: ORG };

/** "YYYY-MM", `back` months before this one. */
const monthBack = (back) => {
  const d = new Date();
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 15));
  return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
};

await client.query('BEGIN');
try {
  await client.query(`UPDATE organizations SET commission_per_device = 500, commission_percent = 5 WHERE organization_id = $1`, [ORG]);
  const { rows: [span] } = await client.query(
    `SELECT count(*)::int AS n, min(paid_at) AS first, max(paid_at) AS last FROM payments WHERE organization_id = $1`,
    [ORG],
  );
  console.log(`'${ORG}': ${customers.toLocaleString()} customers, ${span.n.toLocaleString()} payments from ${span.first.toISOString().slice(0, 10)} to ${span.last.toISOString().slice(0, 10)}; ${RUNS} runs each`);
  const time = timer({ runs: RUNS, width: 52 });
  for (const back of [1, 6]) {
    const month = monthBack(back);
    await time(`the month's page, ${month}`, async () => {
      const m = await payouts.month(ORG, month);
      return `${m.data.length} agents, ${m.totals.commission} earned, ${m.data.reduce((s, a) => s + a.payments, 0).toLocaleString()} payments`;
    });
  }
  const month = monthBack(1);
  const [top] = (await payouts.month(ORG, month)).data;
  await time(`a payout of ${top.agent} recorded and voided`, async () => {
    const p = await payouts.pay(ORG, owner, { agent: top.agent, month });
    await payouts.voidPayout(ORG, owner, p.payout.payout_id, { reason: 'Benchmark' });
    return `${p.payout.amount} for ${p.payout.devices_given} devices and ${p.payout.payments.toLocaleString()} payments`;
  });
  // Last: every agent owed for the month paid at once (the month reckoned again under its lock, one statement for the
  // payouts, their audit entries and webhook events). Once: after it nobody is owed.
  const owed = await payouts.month(ORG, month);
  await time(`every agent owed paid at once (${owed.totals.unpaid_count})`, async () => {
    const all = await payouts.payAll(ORG, owner, { month, total: Number(owed.totals.unpaid), reference: 'BENCH-BATCH' });
    return `${all.payouts.length} payouts, ${all.total}`;
  }, 1);
} finally {
  await client.query('ROLLBACK');
  await client.end();
  await database.stop();
}
