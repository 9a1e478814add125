// A change of the phone country (apps/api/src/settings/phone-country.service.ts) on the benchmark's large
// organization ('big': 1,000,000 customers, their numbers typed 07…): not a test. Changes it to Uganda and back to
// Kenya with the service the API runs, each reading every customer's number again in one transaction, and prints how
// long each took and how many numbers it changed; then vacuums the customers table, so that the dead rows of the two
// rewrites do not slow the list benchmarks after it.
//
//   pnpm bench:phone-country      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient } from './lib.mjs';

const ORG = 'big';
const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
const { migrate } = await dist('database/migrator.js');
await migrate(database.url);
const { DatabaseService } = await dist('database/database.service.js');
const { PhoneCountryService } = await dist('settings/phone-country.service.js');

const { client, customers } = await seededClient(database.url, ORG);
const db = new DatabaseService({ databaseUrl: database.url, databaseReadUrl: null, databasePoolSize: 4 });
const service = new PhoneCountryService(db);
const actor = { user_id: null, username: 'benchmark' };

console.log(`phone country of '${ORG}' (${customers.toLocaleString()} customers)`);
for (const code of ['256', '254']) {
  const rss = process.memoryUsage().rss;
  const started = process.hrtime.bigint();
  const reply = await service.update(ORG, actor, { phone_country_code: code });
  const s = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `to ${reply.country.padEnd(6)} ${s.toFixed(1)} s, ${reply.customers_updated.toLocaleString()} numbers read again ` +
      `(${Math.round(reply.customers_updated / s).toLocaleString()}/s), script memory ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB (from ${Math.round(rss / 2 ** 20)} MB)`,
  );
}
const vacuumed = process.hrtime.bigint();
await client.query('VACUUM (ANALYZE) customers');
console.log(`VACUUM (ANALYZE) customers: ${(Number(process.hrtime.bigint() - vacuumed) / 1e9).toFixed(1)} s`);
await client.end();
await db.onModuleDestroy();
await database.stop();
