import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_PG_PORT = Number(process.env.BENCH_PG_PORT ?? 54330);

/** The database of one scale: kidogo_bench at full scale, kidogo_bench_0_1 at --scale 0.1, so scales do not replace each other. */
export const benchDbName = (scale = 1) => (scale === 1 ? 'kidogo_bench' : `kidogo_bench_${String(scale).replace(/[^0-9]/g, '_')}`);

/** The benchmark's database URL and the encryption key its sealed device secrets use. */
export async function benchDatabase({ fresh = false, scale = 1 } = {}) {
  const name = benchDbName(scale);
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
  if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return { url: withDb(serverUrl, name), serverUrl, stop, ...secrets };
}

export function withDb(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * A client of the benchmark's database and how many customers `org` has there; exits, saying what to run, when
 * pnpm bench has not seeded it yet.
 */
export async function seededClient(url, org) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows: [row] } = await client.query(`SELECT count(*)::int AS n FROM customers WHERE organization_id = $1`, [org]);
  if (!row.n) {
    console.error(`The benchmark's database has no organization '${org}': seed it first (pnpm bench).`);
    process.exit(1);
  }
  return { client, customers: row.n };
}

/** Nanoseconds (process.hrtime.bigint) as milliseconds. */
export const ms = (ns) => Number(ns) / 1e6;
/** The p-th percentile of sorted numbers. */
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/**
 * A timer of statements run one after another: time(label, fn, runs) runs fn `runs` times and prints the first, the
 * median and the p95 in ms, with what the last run returned.
 */
export function timer({ runs: defaultRuns, width }) {
  return async function time(label, fn, runs = defaultRuns) {
    const times = [];
    let out;
    for (let i = 0; i < runs; i++) {
      const started = process.hrtime.bigint();
      out = await fn();
      times.push(ms(process.hrtime.bigint() - started));
    }
    const first = times[0];
    times.sort((a, b) => a - b);
    console.log(`${label.padEnd(width)} first ${first.toFixed(0).padStart(6)} ms, median ${pct(times, 50).toFixed(0).padStart(6)} ms, p95 ${pct(times, 95).toFixed(0).padStart(6)} ms${out ? `  ${out}` : ''}`);
  };
}
