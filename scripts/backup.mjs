// pnpm backup [dir]        copy every table of the Kidogo database to dir (default backups/kidogo-<time>)
// pnpm restore <dir>       restore such a copy into an empty database
// The database is DATABASE_URL, else the embedded PostgreSQL of DATA_DIR (started if needed).
import { resolve } from 'node:path';
import { root } from './prisma6.mjs';

const [command, target] = process.argv.slice(2);
const dist = (p) => import(resolve(root, 'apps/api/dist', p));
const { loadConfig } = await dist('config/config.js');
const { backupDatabase, restoreDatabase } = await dist('database/backup.js');
const { ensureDatabase } = await dist('database/migrator.js');

const config = loadConfig();
let url = config.databaseUrl;
let embedded = null;
if (!url) {
  const { startEmbeddedPostgres } = await dist('database/embedded-postgres.js');
  embedded = await startEmbeddedPostgres({ dir: config.embedded.dir, port: config.embedded.port });
  url = embedded.url('kidogo');
  await ensureDatabase(url);
}
try {
  if (command === 'backup') {
    const dir = resolve(target ?? `backups/kidogo-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const m = await backupDatabase(url, dir);
    const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
    console.log(`Backed up ${Object.keys(m.tables).length} tables (${rows} rows) to ${dir}`);
  } else if (command === 'restore') {
    if (!target) throw new Error('usage: pnpm restore <backup dir>');
    const m = await restoreDatabase(url, resolve(target));
    const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
    console.log(`Restored ${rows} rows from the backup of ${m.created_at}`);
  } else {
    throw new Error('usage: node scripts/backup.mjs backup [dir] | restore <dir>');
  }
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await embedded?.stop();
}
