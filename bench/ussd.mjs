// The customers' USSD menu (apps/api/src/ussd/ussd.service.ts) on the benchmark's large organization ('big':
// 1,000,000 customers and devices, their payments and codes): not a test. A gateway waits a few seconds for each
// screen, and Kidogo works every step out again from the start, so each must be quick however many customers there
// are. In one transaction rolled back at the end, with the menu on, it runs the service itself on that transaction's
// connection, each run a different customer's phone (one who holds a device), and prints the median and p95 of:
// - the first screen (the phone named, the customer's devices with their balances and last codes, how they can pay);
// - My balance; My last code (its text queued); the amount screen of Pay now.
//
//   pnpm bench:ussd      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient, timer } from './lib.mjs';

const RUNS = Number(process.env.USSD_RUNS ?? 50);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { UssdService } = await dist('ussd/ussd.service.js');
const { Calendar } = await dist('common/calendar.js');
const { SecretBox } = await dist('common/crypto.js');
const { TYPES } = await dist('database/database.service.js');

const { client, customers } = await seededClient(database.url, ORG);
// Columns read as the API reads them (numeric as Decimal).
const run = async (sql) => (await client.query({ text: sql.text, values: sql.values, types: TYPES })).rows;
// The service's DatabaseService, as far as it uses it: everything on the one connection of the open transaction.
const db = { query: run, prepared: run, transaction: (work) => work(run) };
// M-Pesa Express ready for every Kenyan phone, and an SMS provider: the menu's whole first screen.
const requests = { payWith: async () => [{ provider: 'mpesa_express', label: 'M-Pesa Express', currency: 'KES', decimals: false, max_amount: 250_000 }] };
const sms = { routeFor: async () => ({ provider: 'bench' }) };
const ussd = new UssdService(db, new SecretBox(randomBytes(32)), null, new Calendar('Africa/Nairobi'), requests, null, sms, { publicUrl: null });
const owner = { user_id: 1, username: 'bench', role: 'owner', organization_id: ORG };

await client.query('BEGIN');
try {
  const on = await ussd.update(ORG, owner, true);
  const key = on.data.callback_url.slice(on.data.callback_url.lastIndexOf('/') + 1);
  // Phones of exactly one customer each, who holds a device, spread over the organization.
  const { rows: phones } = await client.query(
    `SELECT c.phone_normalized AS phone FROM customers c
     WHERE c.organization_id = $1 AND c.phone_normalized IS NOT NULL
       AND EXISTS (SELECT 1 FROM items i WHERE i.organization_id = c.organization_id AND i.customer_id = c.customer_id)
       AND c.customer_id % 997 = 0
     ORDER BY c.customer_id LIMIT $2`,
    [ORG, RUNS * 4],
  );
  const { rows: shared } = await client.query(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM customers WHERE organization_id = $1 AND phone_normalized = ANY($2::text[])
       GROUP BY phone_normalized HAVING count(*) > 1) s`,
    [ORG, phones.map((p) => p.phone)],
  );
  console.log(`'${ORG}': ${customers.toLocaleString()} customers; ${phones.length} phones (${shared[0].n} shared by several customers); ${RUNS} runs each`);
  const time = timer({ runs: RUNS, width: 40 });
  let n = 0;
  const step = (text) => () => {
    const phone = phones[n++ % phones.length].phone;
    return ussd.answer(key, { sessionId: `bench-${n}-${text}`, phoneNumber: `+${phone}`, text });
  };
  const last = (label, text) => time(label, async () => (await step(text)()).split('\n')[0].slice(0, 60));
  await last('the first screen', '');
  await last('My balance', '1');
  await last('My last code (texted)', '2');
  await last('Pay now: the amount screen', '3');
} finally {
  await client.query('ROLLBACK');
  await client.end();
  await database.stop();
}
