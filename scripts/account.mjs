// pnpm account reset-two-factor <username>   turn off a user's two-factor sign-in (lost phone and recovery codes)
// pnpm account reset-password <username>     give a user a new password, printed once (KIDOGO_NEW_PASSWORD to choose it)
// pnpm account unlock <username>             clear the lockout after failed sign-ins
// For what nobody can do in the app, above all for the only super admin. Each ends the user's sessions
// (unlock excepted) and is written to the audit log with this machine and operating-system user.
// The database is DATABASE_URL, else the embedded PostgreSQL of DATA_DIR (the running one is reused).
import { resolve } from 'node:path';
import { root } from './prisma6.mjs';

const USAGE = 'usage: pnpm account reset-two-factor|reset-password|unlock <username>';
const [action, username] = process.argv.slice(2);
const dist = (p) => import(resolve(root, 'apps/api/dist', p));

if (!action || !username) {
  console.error(USAGE);
  process.exit(2);
}
const { loadConfig } = await dist('config/config.js');
const { recoverAccount, RecoveryError, RECOVERY_ACTIONS } = await dist('auth/account-recovery.js');
if (!RECOVERY_ACTIONS.includes(action)) {
  console.error(`Unknown action ${action}\n${USAGE}`);
  process.exit(2);
}

const config = loadConfig();
let url = config.databaseUrl;
let embedded = null;
try {
  if (!url) {
    const { startEmbeddedPostgres } = await dist('database/embedded-postgres.js');
    embedded = await startEmbeddedPostgres({ dir: config.embedded.dir, port: config.embedded.port });
    url = embedded.url('kidogo');
  }
  const done = await recoverAccount(url, action, username, { password: process.env.KIDOGO_NEW_PASSWORD || undefined });
  console.log(`${done.message} (${done.role} of ${done.organization_id}). Their sessions ${action === 'unlock' ? 'are untouched' : 'are ended'}.`);
  if (done.password && !process.env.KIDOGO_NEW_PASSWORD) console.log(`New password: ${done.password}\nGive it to them privately; they change it in Settings.`);
} catch (e) {
  console.error(e instanceof RecoveryError ? e.message : `Failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await embedded?.stop();
}
