// Bringing accounts over from another system (POST /items/accounts/import, apps/api/src/items/accounts-import.service.ts)
// into the benchmark's large organization ('big': 1,000,000 customers and devices): not a test. An organization
// switching over brings its whole book at once, so what matters is how many accounts a second a file goes through.
// Adds ACCOUNTS (2,000) devices, then runs the service itself on a CSV that gives each to a customer of 'big' who is
// on a plan (their own plan named by number), from a day in 2025, with what they paid: the check (dry run), the
// import, and the same file again (every row already there). Prints each one's time and accounts a second. Then
// Export Accounts of the whole organization (every device given to a customer, ~900,000), written to nowhere: rows,
// size, time. The devices, their accounts, audit entries and the job are deleted at the end.
//
//   pnpm bench:accounts-import      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDatabase, root, seededClient } from './lib.mjs';

const ORG = 'big';
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 2000);
const PREFIX = 'BENCH-ACCT-';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { DatabaseService } = await dist('database/database.service.js');
const { AuditService } = await dist('audit/audit.service.js');
const { ImportJobs } = await dist('catalog/import-jobs.js');
const { TemplatesService } = await dist('templates/templates.service.js');
const { AccountsImportService } = await dist('items/accounts-import.service.js');
const { Calendar } = await dist('common/calendar.js');

const { client, customers } = await seededClient(database.url, ORG);
const db = new DatabaseService({ databaseUrl: database.url, databaseReadUrl: null, databasePoolSize: 4 });
const audit = new AuditService(db);
const service = new AccountsImportService(db, new ImportJobs(db, audit, {}), new TemplatesService(db, audit, null), audit, new Calendar('Africa/Nairobi'));
const actor = { user_id: null, username: 'benchmark', role: 'owner', organization_id: ORG };
const dir = mkdtempSync(join(tmpdir(), 'kidogo-accounts-'));

async function cleanUp() {
  const items = `SELECT item_id FROM items WHERE organization_id = $1 AND serial_number LIKE '${PREFIX}%'`;
  await client.query(`DELETE FROM template_assignments WHERE organization_id = $1 AND item_id IN (${items})`, [ORG]);
  await client.query(`DELETE FROM item_assignments WHERE organization_id = $1 AND item_id IN (${items})`, [ORG]);
  await client.query(`DELETE FROM webhook_deliveries WHERE organization_id = $1 AND payload->>'serial_number' LIKE '${PREFIX}%'`, [ORG]);
  await client.query(`DELETE FROM audit_logs WHERE organization_id = $1 AND (entity_id LIKE '${PREFIX}%' OR action IN ('accounts.imported', 'accounts.exported'))`, [ORG]);
  await client.query(`DELETE FROM import_jobs WHERE organization_id = $1 AND kind = 'accounts'`, [ORG]);
  await client.query(`DELETE FROM items WHERE organization_id = $1 AND serial_number LIKE '${PREFIX}%'`, [ORG]);
}

try {
  await cleanUp();
  // Devices as the maker's CSV brings them: keys of a device of 'big', 12 codes taken elsewhere.
  await client.query(
    `INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, price, secret_key_enc, starting_code_enc, token_count)
     SELECT $1, '${PREFIX}' || g, 'BENCHACCT' || g, 'Solar kit', 20000, k.secret_key_enc, k.starting_code_enc, 12
     FROM generate_series(1, $2::int) g, (SELECT secret_key_enc, starting_code_enc FROM items WHERE organization_id = $1 LIMIT 1) k`,
    [ORG, ACCOUNTS],
  );
  // Customers on a plan, spread over the organization.
  const { rows: people } = await client.query(
    `SELECT c.id_number, ta.template_id FROM customers c
     JOIN template_assignments ta ON ta.organization_id = c.organization_id AND ta.customer_id = c.customer_id AND ta.item_id IS NULL AND ta.is_active
     WHERE c.organization_id = $1 AND c.customer_id % 397 = 0 AND c.status <> 'erased'
     ORDER BY c.customer_id LIMIT $2`,
    [ORG, ACCOUNTS],
  );
  if (people.length < ACCOUNTS) throw new Error(`only ${people.length} customers of '${ORG}' on a plan were found`);
  const lines = ['serial_number,id_number,template,start_date,paid'];
  for (let i = 0; i < ACCOUNTS; i++) {
    const day = new Date(Date.UTC(2025, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${PREFIX}${i + 1},${people[i].id_number},${people[i].template_id},${day},${1500 + (i % 40) * 250}`);
  }
  const file = join(dir, 'accounts.csv');
  writeFileSync(file, lines.join('\n') + '\n');
  console.log(`'${ORG}': ${customers.toLocaleString()} customers; a file of ${ACCOUNTS.toLocaleString()} accounts`);
  for (const [label, dryRun] of [
    ['the check (dry run)', true],
    ['the import', false],
    ['the same file again', false],
  ]) {
    const started = process.hrtime.bigint();
    const r = await service.import(ORG, { path: file, originalname: 'accounts.csv' }, actor, dryRun);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(
      `${label.padEnd(22)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${((ACCOUNTS / ms) * 1000).toFixed(0).padStart(5)} accounts/s` +
        `  imported ${r.imported}, already there ${r.duplicates}, refused ${r.skipped - r.duplicates}, paid off ${r.paid_off}, in credit ${r.in_credit}`,
    );
  }
  // The export, into a sink that takes every byte at once (the client's speed left out).
  let bytes = 0;
  let newlines = 0;
  const sink = new Writable({
    write: (chunk, _enc, done) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      done();
    },
  });
  const raw = Object.assign(sink, { setHeader() {}, statusCode: 200 });
  const reply = { getHeaders: () => ({}), hijack() {}, raw };
  const started = process.hrtime.bigint();
  await service.export(ORG, reply, actor);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const accounts = newlines - 1;
  console.log(
    `${'Export Accounts'.padEnd(22)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${accounts.toLocaleString()} accounts, ` +
      `${(bytes / 1e6).toFixed(1)} MB, ${((ms * 1000) / accounts).toFixed(0)} µs an account`,
  );
  // Its Activity Log entry is written just after the reply.
  await new Promise((r) => setTimeout(r, 500));
} finally {
  await cleanUp();
  rmSync(dir, { recursive: true, force: true });
  await client.end();
  await db.onModuleDestroy();
  await database.stop();
}
