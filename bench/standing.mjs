// The customer report with its repayment standing (apps/api/src/reports/reports.service.ts) on the benchmark's large
// organization ('big': 1,000,000 customers, 5,000,000 payments): not a test. Runs the report service's own statements
// with the API's driver (pg, the statements as the service builds them; the kept figures are worked out every time
// here, as on the first request), and prints the median and p95 of each case:
// - a page of 20 rows without a filter with its totals, and the totals alone (one hashed pass over the organization);
// - the totals of the customers Paid off or On track (the same pass, filtered);
// - the rows of a page of those customers at offsets 0 and 1,000 (from the filtered stream) and 10,000 and 100,000
//   (one hashed pass for the page's customers, then their rows);
// - the filtered stream of the first 100,000 customers (the CSV and PDF downloads), in customers read per second;
// - the credit check of one customer (the follow-on sales rule), 500 customers one after another.
//
//   pnpm bench:standing      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDatabase, ms, pct, root, seededClient, timer } from './lib.mjs';

const RUNS = Number(process.env.STANDING_RUNS ?? 5);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
// The statements read the schema of this checkout: a database seeded before its last migrations gets them first.
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { ReportsService } = await dist('reports/reports.service.js');
const { Calendar } = await dist('common/calendar.js');
const { Prisma } = await dist('generated/prisma/client.js');
const calendar = new Calendar(process.env.TIME_ZONE ?? 'Africa/Nairobi');

const { client, customers } = await seededClient(database.url, ORG);
await client.end();
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
// numeric and bigint as the API's driver adapter reads them for these statements: text the service turns to money.
const run = async (sql) => (await pool.query({ text: sql.text, values: sql.values })).rows;
// The service's DatabaseService, as far as the customer report reads it: tagged statements and built ones.
const read = { $queryRaw: (strings, ...values) => run(Prisma.sql(strings, ...values)) };
const db = { read, readQuery: run };
// Kept figures worked out on every call (the first request of a period), with the time it took.
const snapshots = { get: async (_org, _key, compute) => ({ value: await compute(), computedAt: new Date() }) };
const reports = new ReportsService(db, snapshots, calendar);

const time = timer({ runs: RUNS, width: 52 });

/** A page of the report as the API answers POST /reports/page with limit: its rows and its totals. */
async function page(body) {
  const stream = await reports.page(ORG, { report: 'customers', format: 'json', ...body });
  const rows = [];
  for await (const batch of stream.batches) rows.push(...batch);
  const totals = stream.totals();
  return `${rows.length} rows, ${totals.rows.toLocaleString()} in all, repaid ${totals.repaid_share}%`;
}

const ELIGIBLE = ['paid_off', 'on_track'];
const { toPeriod } = await dist('metrics/period.js');
const all = toPeriod(null, null, calendar);
const totals = async (standing) => {
  const t = await reports.customerTotals(ORG, all, { report: 'customers', format: 'json', ...(standing ? { standing } : {}) });
  return `${t.rows.toLocaleString()} customers, repaid ${t.repaid_share}%`;
};
const rows = async (offset) => `${(await reports.filteredPage(ORG, all, ELIGIBLE, offset, 20)).length} rows`;
console.log(`customer report of '${ORG}' (${customers.toLocaleString()} customers), ${RUNS} runs each`);
await time('page of 20 and its totals, no filter', () => page({ limit: 20, offset: 0 }));
await time('totals, no filter', () => totals(null));
await time('totals of Paid off + On track', () => totals(ELIGIBLE));
await time('Paid off + On track: rows of a page at offset 0', () => rows(0));
await time('Paid off + On track: rows of a page at offset 1,000', () => rows(1_000));
await time('Paid off + On track: rows of a page at offset 10,000', () => rows(10_000));
await time('Paid off + On track: rows of a page at offset 100,000', () => rows(100_000));
// The stream the CSV and PDF downloads write, over the first 100,000 customers (ids ascending).
await time(
  'Paid off + On track: the stream over 100,000 customers',
  async () => {
    const stream = reports.open(ORG, { report: 'customers', format: 'csv', standing: ELIGIBLE });
    let kept = 0;
    let last = 0;
    const started = process.hrtime.bigint();
    for await (const batch of stream.batches) {
      kept += batch.length;
      last = batch[batch.length - 1].customer_id;
      if (last >= 100_000) break;
    }
    const s = ms(process.hrtime.bigint() - started) / 1000;
    return `${kept.toLocaleString()} kept of the first ${last.toLocaleString()}: ${Math.round(last / s).toLocaleString()} customers read a second`;
  },
  1,
);
// The credit check of one customer (GET /customers/{id}/credit-check, and every assignment that starts a new account):
// the customer, the rule, their devices' repayment and their repossessions, for customers spread over the organization.
const { readCreditCheck } = await dist('items/credit-check.js');
const CHECKS = 500;
await time(
  `credit check of ${CHECKS} customers, one after another`,
  async () => {
    const each = [];
    let refused = 0;
    for (let i = 1; i <= CHECKS; i++) {
      const id = 1 + Math.floor(((i * 7919) % CHECKS) * (customers / CHECKS));
      const started = process.hrtime.bigint();
      const check = await readCreditCheck(run, ORG, id);
      each.push(ms(process.hrtime.bigint() - started));
      if (check && !check.allowed) refused++;
    }
    each.sort((a, b) => a - b);
    return `each: median ${pct(each, 50).toFixed(2)} ms, p95 ${pct(each, 95).toFixed(2)} ms, p99 ${pct(each, 99).toFixed(2)} ms (${refused} refused)`;
  },
  1,
);
await pool.end();
await database.stop();
