// Bulk SMS (apps/api/src/sms-campaigns/sms-campaigns.service.ts) on the benchmark's large organization ('big':
// 1,000,000 customers in 15 counties and 200 sales agents, 900,000 devices): not a test. Runs the service itself
// with the API's driver (pg) and prints the median and p95 of each case:
// - the preview (dry_run) of a group: one county (~67,000 customers), one sales agent (~5,000), a county's customers
//   far behind (the repayment standing summed per customer of the county), the whole organization's customers on
//   track or paid off (one grouped pass of its devices), and all customers (refused: over 100,000);
// - queueing a county's texts (one statement: the campaign, ~67,000 messages and the audit entry);
// - the outbox's claim of its next 20 messages with no campaign queued and with the county's texts queued behind a
//   payment reply, in a transaction rolled back each time; then cancelling the campaign (taking the texts off the
//   queue); the claim again with the county's texts set to go tomorrow (an idle outbox's poll). The campaigns and
//   their texts are deleted at the end;
// - the list's first page while the campaign is going out (its texts counted), and once both are done (the counts
//   kept in the campaigns' rows).
//
//   pnpm bench:sms-campaigns      (with the workspace built and the benchmark's database seeded by pnpm bench)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDatabase, root, seededClient, timer } from './lib.mjs';

const RUNS = Number(process.env.CAMPAIGN_RUNS ?? 5);
const ORG = 'big';

const database = await benchDatabase({ scale: 1 });
const dist = (path) => import(pathToFileURL(resolve(root, 'apps/api/dist', path)).href);
await (await dist('database/migrator.js')).migrate(database.url, (line) => console.log(line));
const { SmsCampaignsService } = await dist('sms-campaigns/sms-campaigns.service.js');
const { OutboxService } = await dist('outbox/outbox.service.js');
const { Prisma } = await dist('generated/prisma/client.js');

const { client, customers } = await seededClient(database.url, ORG);
await client.end();
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
const run = async (sql) => (await pool.query({ text: sql.text, values: sql.values })).rows;
async function transaction(work) {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await work(async (sql) => (await c.query({ text: sql.text, values: sql.values })).rows);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK');
    throw e;
  } finally {
    c.release();
  }
}
// The service's DatabaseService and SMS provider, as far as it reads them: an organization that can send.
const execute = async (sql) => (await pool.query({ text: sql.text, values: sql.values })).rowCount ?? 0;
const campaigns = new SmsCampaignsService({ query: run, execute, transaction }, { routeFor: async () => ({ provider: 'sms_webhook' }) });
// What an interrupted run left behind.
const cleanUp = async () => {
  await run(Prisma.sql`DELETE FROM messages WHERE organization_id = ${ORG} AND (campaign_id IS NOT NULL OR forwarded_message = 'Your code: 123 456 789')`);
  await run(Prisma.sql`DELETE FROM audit_logs WHERE organization_id = ${ORG} AND entity_type = 'sms_campaign'`);
  await run(Prisma.sql`DELETE FROM sms_campaigns WHERE organization_id = ${ORG}`);
};
await cleanUp();
const owner = { user_id: 1, username: 'bench', role: 'owner', organization_id: ORG };

const time = timer({ runs: RUNS, width: 56 });

const TEXT = 'Habari {name}, our shop moves to Kenyatta Avenue on Monday. Karibu!';
/** With {balance} and {serials}: each customer's devices read too. */
const DEVICE_TEXT = 'Habari {name}, {balance} is left to pay on {serials}. Lipa leo!';
const preview = async (audience, text = TEXT) => {
  try {
    const r = await campaigns.send(ORG, owner, { audience, text, dry_run: true });
    return `${r.recipients.toLocaleString()} texts, ${r.skipped_same_phone.toLocaleString()} same phone, ${r.skipped_opted_out} stopped`;
  } catch (e) {
    return `refused: ${e.message}`;
  }
};

console.log(`bulk SMS of '${ORG}' (${customers.toLocaleString()} customers), ${RUNS} runs each`);
await time('preview: one county (Nakuru)', () => preview({ customers: 'all', county: 'Nakuru' }));
await time('preview: one sales agent (AGT-007)', () => preview({ customers: 'all', agent: 'AGT-007' }));
await time('preview: one county, with {balance} and {serials}', () => preview({ customers: 'all', county: 'Nakuru' }, DEVICE_TEXT));
await time('preview: a county with a device, Far behind', () => preview({ customers: 'with_device', county: 'Nakuru', standing: ['far_behind'] }));
await time('preview: every customer On track or Paid off', () => preview({ customers: 'with_device', standing: ['on_track', 'paid_off'] }));
await time('preview: all customers (over the limit)', () => preview({ customers: 'all' }));

// The outbox's claim, timed in a transaction rolled back (it marks what it claims as being sent).
const outboxDb = { platform: { $queryRaw: (strings, ...values) => claimRun(Prisma.sql(strings, ...values)) } };
let claimRun = run;
const outbox = new OutboxService(outboxDb, { hasGlobalRoute: true }, { outbox: { enabled: false } });
const claim = async () => {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    claimRun = async (sql) => (await c.query({ text: sql.text, values: sql.values })).rows;
    const rows = await outbox.claim();
    return `${rows.length} claimed, the first: "${(rows[0]?.forwarded_message ?? '').slice(0, 24)}…"`;
  } finally {
    await c.query('ROLLBACK');
    c.release();
  }
};
const [{ pending }] = await run(Prisma.sql`SELECT count(*)::int AS pending FROM messages WHERE delivery_status IN ('queued', 'sending')`);
await time(`outbox claim of 20, ${pending.toLocaleString()} messages pending`, claim, 20);

let made;
await time(
  'queue a county (Nakuru): campaign, texts, audit entry',
  async () => {
    made = await campaigns.send(ORG, owner, { audience: { customers: 'all', county: 'Nakuru' }, text: TEXT, dry_run: false });
    return `${made.recipients.toLocaleString()} texts queued`;
  },
  1,
);
// A payment's reply queued after it: the claim must still take the reply first.
await run(Prisma.sql`INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, status)
  VALUES (${ORG}, 'Your code: 123 456 789', '254700000001', 'queued', 'processed')`);
await time(`outbox claim of 20, ${(pending + made.recipients + 1).toLocaleString()} pending`, claim, 20);
const page = async () => {
  const r = await campaigns.list(ORG, { page: 1, limit: 20 });
  return `${r.data.length} campaigns, ${r.data.reduce((n, c) => n + c.recipients, 0).toLocaleString()} texts, ${r.data.filter((c) => c.status !== 'sent' && c.status !== 'cancelled').length} going out`;
};
await time('the list, a 66,667-text campaign going out', page, 10);
await time('cancel the county\'s campaign', async () => `${(await campaigns.cancel(ORG, owner, made.campaign.campaign_id)).cancelled.toLocaleString()} texts taken off`, 1);

await run(Prisma.sql`DELETE FROM messages WHERE organization_id = ${ORG} AND forwarded_message = 'Your code: 123 456 789'`);
// The same texts set to go tomorrow: the claims of an idle outbox pass over them.
const later = await campaigns.send(ORG, owner, {
  audience: { customers: 'all', county: 'Nakuru' },
  text: TEXT,
  send_at: new Date(Date.now() + 86_400_000).toISOString(),
  dry_run: false,
});
await time(`outbox claim of 20, ${later.recipients.toLocaleString()} pending for tomorrow`, claim, 20);
await campaigns.cancel(ORG, owner, later.campaign.campaign_id);
// Both cancelled: their counts kept in their rows after the first read.
await time('the list, both campaigns done (counts kept)', page, 10);

await cleanUp();
await pool.end();
await database.stop();
