// A stock take (POST /stock-locations/{id}/stock-take, apps/api/src/stock/stock.service.ts) on the benchmark's large
// organization ('big': 1,000,000 devices spread over 20 places): not a test. Takes the place with the most devices in
// stock and compares counts of it with the service the API runs: 20,000 of its devices found, then 20,000 serials (the most a
// stock take takes) of which 5% are missing, 2% are kept at another place and 1% are of no device. Prints the
// median of 5 runs of each, with what the stock take answered. It writes one Activity Log entry a run.
//
//   pnpm bench:stock-take      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient } from './lib.mjs';

const ORG = 'big';
const RUNS = 5;
const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
const { migrate } = await dist('database/migrator.js');
await migrate(database.url);
const { DatabaseService } = await dist('database/database.service.js');
const { StockService } = await dist('stock/stock.service.js');

const { client } = await seededClient(database.url, ORG);
const db = new DatabaseService({ databaseUrl: database.url, databaseReadUrl: null, databasePoolSize: 4 });
const service = new StockService(db);
const actor = { user_id: null, username: 'benchmark' };

const { rows: [place] } = await client.query(
  `SELECT location_id, count(*)::int AS n FROM items WHERE organization_id = $1 AND location_id IS NOT NULL AND NOT is_assigned
   GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
  [ORG],
);
if (!place) throw new Error(`no device of '${ORG}' is in stock at a place: seed with pnpm bench first`);
const here = (await client.query(
  `SELECT serial_number FROM items WHERE organization_id = $1 AND location_id = $2 AND NOT is_assigned ORDER BY item_id LIMIT 20000`,
  [ORG, place.location_id],
)).rows.map((r) => r.serial_number);
const away = (await client.query(
  `SELECT serial_number FROM items WHERE organization_id = $1 AND location_id <> $2 AND NOT is_assigned LIMIT 400`,
  [ORG, place.location_id],
)).rows.map((r) => r.serial_number);
const mixed = [
  ...here.slice(0, Math.floor(here.length * 0.95)),
  ...away,
  ...Array.from({ length: 200 }, (_, i) => `NO-SUCH-${i}`),
].slice(0, 20_000);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`stock take of '${ORG}' at place ${place.location_id} (${place.n.toLocaleString()} devices in stock there)`);
for (const [name, serials] of [['20,000 of its devices counted', here], ['5% missing, 2% elsewhere, 1% unknown', mixed]]) {
  const times = [];
  let reply;
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    reply = await service.stockTake(ORG, actor, place.location_id, { serial_numbers: serials });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  console.log(
    `${name.padEnd(38)} ${serials.length.toLocaleString().padStart(6)} serials: median ${median(times).toFixed(0)} ms ` +
      `(min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}); found ${reply.found.toLocaleString()}, ` +
      `missing ${reply.missing_count.toLocaleString()}, elsewhere ${reply.elsewhere_count.toLocaleString()}, unknown ${reply.unknown_count.toLocaleString()}`,
  );
}
await client.end();
await db.onModuleDestroy();
await database.stop();
