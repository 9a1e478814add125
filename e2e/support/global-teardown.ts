import { existsSync, readFileSync, rmSync } from 'node:fs';
import { STATE_FILE } from './global-setup.js';

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return;
  const { pid, dataDir } = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { pid: number; dataDir: string };
  try {
    // SIGTERM lets the API stop its embedded PostgreSQL.
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 100; i++) {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch {
    /* gone */
  }
  if (!process.env.E2E_KEEP) rmSync(dataDir, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
}
