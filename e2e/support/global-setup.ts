import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUSINESS_TIME_ZONE } from './time-zone.js';
import { FakeAirtel } from '../../apps/api/test/support/fake-airtel.js';
import { FakeDaraja } from '../../apps/api/test/support/fake-daraja.js';
import { FakeMomo } from '../../apps/api/test/support/fake-momo.js';
import { FakeSmtp } from '../../apps/api/test/support/fake-smtp.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
// One file per Playwright runner (setup and teardown run in the same process), so two
// suites on one machine (two worktrees) never stop each other's API.
export const STATE_FILE = join(tmpdir(), `kidogo-e2e-state-${process.pid}.json`);

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

/** Starts the built API (serving the built web app) on a fresh embedded PostgreSQL with the demo seeded. */
export default async function globalSetup(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kidogo-e2e-'));
  chmodSync(dataDir, 0o777);
  const port = await freePort();
  const pgPort = await freePort();
  const log = openSync(join(dataDir, 'api.log'), 'a');
  // Safaricom for M-Pesa Express: each customer answers their prompt a moment later, posting to PUBLIC_URL.
  const daraja = await new FakeDaraja({ afterMs: 1500 }).start();
  daraja.server.unref();
  // MTN for MoMo's Request to Pay: likewise, each customer approves a moment later, put to PUBLIC_URL.
  const momo = await new FakeMomo({ afterMs: 1500 }).start();
  momo.server.unref();
  // Airtel for Airtel Money's USSD push: each customer answers a moment later, and Airtel posts the end to the one
  // callback URL of the organization's Airtel app (set in Airtel's portal, so here: known before the API starts).
  const airtel = await new FakeAirtel({ afterMs: 1500 }).start();
  airtel.server.unref();
  airtel.callbackUrl = `http://127.0.0.1:${port}/payg/external/airtel-money/callback`;
  // The mail server: each mail the API sends is kept as a .eml file in DATA_DIR/mail, where the tests read it.
  const mailDir = join(dataDir, 'mail');
  const smtp = await new FakeSmtp(mailDir).start();
  smtp.unref();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    SEED_DEMO: 'true',
    TIME_ZONE: BUSINESS_TIME_ZONE,
    OUTBOX_POLL_MS: '500',
    // The notifications' sweep looks once, at start: the bell's counts the tests read stay put while they run.
    NOTICE_SWEEP_MS: '86400000',
    // The webhooks test's receiver listens on this machine.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    MPESA_EXPRESS_BASE_URL: daraja.url,
    MTN_MOMO_BASE_URL: momo.url,
    AIRTEL_MONEY_BASE_URL: airtel.url,
    SMTP_URL: smtp.url,
    // Notifications chosen for email go out a second after they are written, not a minute.
    NOTIFICATION_EMAIL_MS: '1000',
  };
  delete env.DATABASE_URL; // always a fresh embedded database, whatever the shell has
  const api = spawn(process.execPath, [resolve(root, 'apps/api/dist/main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (api.exitCode !== null) throw new Error(`The API exited (${api.exitCode}); see ${join(dataDir, 'api.log')}`);
    try {
      const r = await fetch(`${baseUrl}/payg/ready`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`The API did not become ready; see ${join(dataDir, 'api.log')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  writeFileSync(STATE_FILE, JSON.stringify({ pid: api.pid, dataDir, baseUrl }));
}
