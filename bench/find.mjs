// Find (GET /find, apps/api/src/find/find.service.ts) on the benchmark's large organization ('big': 1,000,000
// customers and devices, 5,000,000 payments): not a test. Runs the service's own statements with the API's driver and
// prints the first, median and p95 time of each kind of term a caller on the phone gives staff:
// - a common name (thousands of customers hold it: the newest-first walk stops after a few), a whole name, a rare
//   piece of one, a name nobody has;
// - a whole phone number written three ways, part of one, an ID number, part of one;
// - a whole serial, in other case and spacing, and part of one;
// - a transaction code, in other case, and one that does not exist.
//
//   pnpm bench:find      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDatabase, root, seededClient, timer } from './lib.mjs';

const RUNS = Number(process.env.FIND_RUNS ?? 21);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { FindService } = await dist('find/find.service.js');
const { TYPES } = await dist('database/database.service.js');

const { client, customers } = await seededClient(database.url, ORG);
// A real customer's figures to look for: the newest one's, and one from the middle of the table.
const {
  rows: [mid],
} = await client.query(`SELECT customer_name, phone_contact, phone_normalized, id_number FROM customers WHERE organization_id = $1 AND customer_id = 500001`, [ORG]);
await client.end();
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
const query = async (sql) => (await pool.query({ text: sql.text, values: sql.values, types: TYPES })).rows;
const finder = new FindService({ query });

const time = timer({ runs: RUNS, width: 44 });
const find = (q) => async () => {
  const r = await finder.find(ORG, { q, limit: 5 });
  return `${r.customers.length} customers, ${r.devices.length} devices, ${r.payments.length} payments`;
};

console.log(`Find in '${ORG}' (${customers.toLocaleString()} customers), ${RUNS} runs each`);
const [first, last] = mid.customer_name.split(' ');
await time(`common first name "${first}"`, find(first));
await time(`whole name "${mid.customer_name}"`, find(mid.customer_name));
await time(`two names "${first} ${last}"`, find(`${first} ${last}`));
await time('a name nobody has "Zebedayo"', find('Zebedayo'));
const local = mid.phone_contact;
await time(`phone as written "${local}"`, find(local));
await time(`phone spaced "${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}"`, find(`${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`));
await time(`phone international "+${mid.phone_normalized}"`, find(`+${mid.phone_normalized}`));
await time(`part of a phone "${local.slice(4, 9)}"`, find(local.slice(4, 9)));
await time(`ID number "${mid.id_number}"`, find(mid.id_number));
await time(`part of an ID number "${mid.id_number.slice(2, 7)}"`, find(mid.id_number.slice(2, 7)));
await time('serial "SHS-0500001"', find('SHS-0500001'));
await time('serial as typed "shs 0500001"', find('shs 0500001'));
await time('part of a serial "0500001"', find('0500001'));
await time('transaction code "BK002500001"', find('BK002500001'));
await time('transaction code lower case "bk002500001"', find('bk002500001'));
await time('a code that is not there "QZX9Y8W7V6"', find('QZX9Y8W7V6'));
await pool.end();
await database.stop();
