// Runs in Jest's parent process, which cannot load TypeScript: it uses the
// compiled API (the test script builds it first).
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';
import { startEmbeddedPostgres } from '../dist/database/embedded-postgres.js';
import { migrate } from '../dist/database/migrator.js';

/**
 * One PostgreSQL for the whole run: the server in DATABASE_URL when set (CI's
 * service container), else an embedded one in a temporary directory. A
 * template database is migrated once; each test file clones it
 * (test/support/test-app.ts), so files are isolated and start clean.
 */
export default async function globalSetup() {
  const runId = randomBytes(4).toString('hex');
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'kidogo-test-pg-'));
    chmodSync(dir, 0o777);
    const port = await freePort();
    const server = await startEmbeddedPostgres({ dir: join(dir, 'data'), port });
    adminUrl = server.url('postgres');
    globalThis.__KIDOGO_PG__ = { server, dir };
  }
  const template = `kidogo_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: withDb(adminUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  await migrate(withDb(adminUrl, template));
  process.env.KIDOGO_TEST_ADMIN_URL = withDb(adminUrl, 'postgres');
  process.env.KIDOGO_TEST_TEMPLATE = template;
  process.env.KIDOGO_TEST_RUN = runId;
}

function withDb(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}
