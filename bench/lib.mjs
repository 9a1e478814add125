import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_PG_PORT = Number(process.env.BENCH_PG_PORT ?? 54330);

/** The benchmark's database URL and the encryption key its sealed device secrets use. */
export async function benchDatabase({ fresh = false } = {}) {
  const secretsFile = resolve(root, '.data/bench-secrets.json');
  mkdirSync(dirname(secretsFile), { recursive: true });
  if (!existsSync(secretsFile)) {
    writeFileSync(secretsFile, JSON.stringify({ encryptionKey: randomBytes(32).toString('hex'), jwtSecret: randomBytes(32).toString('hex') }));
  }
  const secrets = JSON.parse(readFileSync(secretsFile, 'utf8'));
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let stop = async () => {};
  if (!serverUrl) {
    const { startEmbeddedPostgres } = await import(resolve(root, 'apps/api/dist/database/embedded-postgres.js'));
    const server = await startEmbeddedPostgres({ dir: resolve(root, '.data/bench-pg'), port: BENCH_PG_PORT });
    serverUrl = server.url('postgres');
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: withDb(serverUrl, 'postgres') });
  await admin.connect();
  if (fresh) await admin.query('DROP DATABASE IF EXISTS kidogo_bench WITH (FORCE)');
  const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'kidogo_bench'`);
  if (!rowCount) await admin.query('CREATE DATABASE kidogo_bench');
  await admin.end();
  return { url: withDb(serverUrl, 'kidogo_bench'), serverUrl, stop, ...secrets };
}

export function withDb(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}
