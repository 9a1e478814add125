import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../config/config.js';

export const MIGRATIONS_DIR = resolve(REPO_ROOT, 'prisma/migrations');
/** pg_advisory_lock key shared by every API process: migrations, and the business day (business-day.ts). */
export const MIGRATION_LOCK = 7_202_611;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) throw new Error(`No migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(resolve(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(resolve(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrationState {
  applied: string[];
  pending: string[];
}

/**
 * Applies the pending SQL migrations in order, each in its own transaction,
 * while holding a PostgreSQL advisory lock so that several API processes
 * starting together apply each migration once. An applied migration whose
 * file has changed since is an error: history is never rewritten.
 */
export async function migrate(databaseUrl: string, log: (s: string) => void = () => {}): Promise<MigrationState> {
  const migrations = readMigrations();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_kidogo_migrations" (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM "_kidogo_migrations"',
    );
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    for (const m of migrations) {
      const prior = done.get(m.name);
      if (prior && prior !== m.checksum) {
        throw new Error(`Migration ${m.name} was changed after it was applied; add a new migration instead`);
      }
    }
    const known = new Set(migrations.map((m) => m.name));
    const unknown = rows.filter((r) => !known.has(r.name)).map((r) => r.name);
    if (unknown.length) {
      throw new Error(`The database has migrations this version does not know (${unknown.join(', ')}); it is newer than the code`);
    }
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      log(`applying migration ${m.name}`);
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO "_kidogo_migrations" (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
      done.set(m.name, m.checksum);
    }
    return { applied: migrations.map((m) => m.name), pending: [] };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

/** What is applied and what is not, without changing anything. */
export async function migrationState(query: (sql: string) => Promise<{ name: string }[]>): Promise<MigrationState> {
  const all = readMigrations().map((m) => m.name);
  let applied: string[] = [];
  try {
    applied = (await query('SELECT name FROM "_kidogo_migrations" ORDER BY name')).map((r) => r.name);
  } catch {
    applied = [];
  }
  const set = new Set(applied);
  return { applied, pending: all.filter((n) => !set.has(n)) };
}

/** Creates the database named in the URL when it does not exist (embedded and test servers). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name || name === 'postgres') return;
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created by a concurrent process
      });
    }
  } finally {
    await client.end();
  }
}
