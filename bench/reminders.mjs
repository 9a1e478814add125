// The payment reminders' sweep on the benchmark database (not a test; run
// after `pnpm bench` has seeded it, with the workspace built): turns
// reminders on for the large organization with a webhook route that goes
// nowhere (the sweep only queues), sweeps the day after tomorrow's devices
// and prints how many reminders it made and in how long, then how long a
// sweep with nothing left takes; then deletes what it made, so the
// benchmark's data stays as seeded.
//
//   pnpm bench:reminders
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDatabase, root } from './lib.mjs';

const dist = (f) => import(pathToFileURL(resolve(root, 'apps/api/dist', f)).href);
const database = await benchDatabase({ scale: 1 });
const { migrate } = await dist('database/migrator.js');
await migrate(database.url);
const { loadConfig } = await dist('config/config.js');
const { AppModule } = await dist('app.module.js');
const { RemindersService } = await dist('reminders/reminders.service.js');
const { NestFactory } = await import(pathToFileURL(resolve(root, 'apps/api/node_modules/@nestjs/core/index.js')).href);

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: database.url,
  JWT_SECRET: database.jwtSecret,
  ENCRYPTION_KEY: database.encryptionKey,
  SEED_DEMO: 'false',
  PAYG_ADMIN_PASSWORD: 'benchadmin-password',
  OUTBOX_ENABLED: 'false',
  SMS_PROVIDER: 'webhook',
  SMS_WEBHOOK_URL: 'http://127.0.0.1:9/nowhere',
});
const sql = new pg.Client({ connectionString: database.url });
await sql.connect();
await sql.query(`UPDATE organizations SET reminders_enabled = true, reminder_days_before = 2, reminder_hour = 0 WHERE organization_id = 'big'`);
const app = await NestFactory.createApplicationContext(AppModule.register(config), { logger: ['error', 'warn'] });
const before = (await sql.query(`SELECT coalesce(max(message_id), 0) AS m FROM messages`)).rows[0].m;
try {
  const reminders = app.get(RemindersService);
  const started = process.hrtime.bigint();
  const first = await reminders.sweep();
  const firstS = Number(process.hrtime.bigint() - started) / 1e9;
  const again = process.hrtime.bigint();
  const second = await reminders.sweep();
  const secondS = Number(process.hrtime.bigint() - again) / 1e9;
  console.log(`first sweep: ${first.reminded.toLocaleString()} reminders queued in ${firstS.toFixed(2)} s (${Math.round(first.reminded / firstS).toLocaleString()}/s)`);
  console.log(`second sweep, nothing left to remind: ${second.reminded} in ${secondS.toFixed(3)} s`);
} finally {
  await app.close();
  const made = await sql.query(`DELETE FROM credit_reminders WHERE organization_id = 'big' RETURNING message_id`);
  await sql.query(`DELETE FROM messages WHERE organization_id = 'big' AND message_id = ANY($1::int[]) AND message_id > $2`, [made.rows.map((r) => r.message_id), before]);
  await sql.query(`UPDATE organizations SET reminders_enabled = false, reminder_days_before = 1, reminder_hour = 9 WHERE organization_id = 'big'`);
  await sql.end();
  await database.stop();
}
process.exit(0);
