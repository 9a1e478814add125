// The morning's summary (apps/api/src/notifications/daily-summary.service.ts) on the benchmark's large organization
// ('big': 1,000,000 customers, 5,000,000 payments and 5,000,000 tokens): not a test. Runs the service's own statement
// with the API's driver, for the day before today and for the day after the seed's last payment (a full day of
// payments to sum), and prints the median and p95 of each.
//
//   pnpm bench:summary      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient } from './lib.mjs';

const RUNS = Number(process.env.SUMMARY_RUNS ?? 30);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
const { DailySummaryService } = await dist('notifications/daily-summary.service.js');
const { Calendar } = await dist('common/calendar.js');
const calendar = new Calendar(process.env.TIME_ZONE ?? 'Africa/Nairobi');

const { client, customers } = await seededClient(database.url, ORG);
// The service as the API builds it; summarize() takes the statement runner of its transaction.
const run = async (sql) => (await client.query({ text: sql.text, values: sql.values })).rows;
const service = new DailySummaryService({ mail: { dailySummaryHour: 7 }, publicUrl: null }, null, calendar);

const { rows: [last] } = await client.query(`SELECT max(paid_at) AS at FROM payments WHERE organization_id = $1`, [ORG]);
const days = [
  ['the day before today', calendar.today()],
  [`the seed's last day of payments`, calendar.dayOf(last.at) + 1],
];
const ms = (ns) => Number(ns) / 1e6;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

console.log(`daily summary of '${ORG}' (${customers.toLocaleString()} customers), ${RUNS} runs each`);
for (const [label, today] of days) {
  const times = [];
  let summary;
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    summary = await service.summarize(run, ORG, today);
    times.push(ms(process.hrtime.bigint() - started));
  }
  const first = times[0];
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} first ${first.toFixed(1)} ms, median ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms: ` +
      `${summary.payments.toLocaleString()} payments, ${summary.currency ?? ''} ${summary.revenue}, ${summary.codes.toLocaleString()} codes, ` +
      `${summary.customers.toLocaleString()} new customers, ${summary.held.toLocaleString()} held, ${summary.tickets_open} tickets, ${summary.promises_due} promises due`,
  );
}
await client.end();
await database.stop();
