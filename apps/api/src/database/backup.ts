import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { PROMISE_STATS_REBUILD } from './business-day.js';
import { migrate, readMigrations } from './migrator.js';

/**
 * Logical backups that need no pg_dump of a matching version (the embedded
 * PostgreSQL ships none): every table copied out with COPY ... CSV, gzipped,
 * plus a manifest naming the migrations the data belongs to. A restore
 * migrates an empty database to the same version and copies the rows back.
 * (Installations with their own PostgreSQL can also use pg_dump; see README.)
 */
export interface BackupManifest {
  format: 'kidogo-backup-1';
  created_at: string;
  migrations: string[];
  tables: Record<string, number>;
}

async function userTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_kidogo_migrations'
     ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export async function backupDatabase(databaseUrl: string, dir: string): Promise<BackupManifest> {
  mkdirSync(dir, { recursive: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One snapshot for every table, so the backup is consistent while the app keeps writing.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const migrations = (await client.query<{ name: string }>('SELECT name FROM "_kidogo_migrations" ORDER BY name')).rows.map((r) => r.name);
    const tables: Record<string, number> = {};
    for (const table of await userTables(client)) {
      tables[table] = Number((await client.query(`SELECT count(*) AS n FROM ${ident(table)}`)).rows[0].n);
      const out = client.query(copyStreams.to(`COPY ${ident(table)} TO STDOUT WITH (FORMAT csv, HEADER true)`));
      await pipeline(out, createGzip(), createWriteStream(join(dir, `${table}.csv.gz`)));
    }
    const sequences = (
      await client.query<{ name: string; value: string }>(
        `SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public' AND last_value IS NOT NULL`,
      )
    ).rows;
    await client.query('COMMIT');
    const manifest: BackupManifest = { format: 'kidogo-backup-1', created_at: new Date().toISOString(), migrations, tables };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, sequences }, null, 2));
    return manifest;
  } finally {
    await client.end();
  }
}

/** Restores a backup into an EMPTY database (refuses one that has data). */
export async function restoreDatabase(databaseUrl: string, dir: string): Promise<BackupManifest> {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`${dir} is not a Kidogo backup (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest & { sequences: { name: string; value: string }[] };
  if (manifest.format !== 'kidogo-backup-1') throw new Error(`Unknown backup format ${manifest.format}`);
  const known = new Set(readMigrations().map((m) => m.name));
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length) throw new Error(`The backup is from a newer version (migrations ${unknown.join(', ')}); upgrade Kidogo first`);

  await migrate(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const table of Object.keys(manifest.tables)) {
      const n = Number((await client.query(`SELECT count(*) AS n FROM ${ident(table)}`)).rows[0].n);
      if (n > 0) throw new Error(`Restore needs an empty database, but ${table} has ${n} rows`);
    }
    await client.query('BEGIN');
    // Rows go back table by table; foreign keys are checked at commit.
    await client.query('SET CONSTRAINTS ALL DEFERRED');
    await client.query(`SET session_replication_role = replica`);
    for (const table of Object.keys(manifest.tables)) {
      const sink = client.query(copyStreams.from(`COPY ${ident(table)} FROM STDIN WITH (FORMAT csv, HEADER true)`));
      await pipeline(createReadStream(join(dir, `${table}.csv.gz`)), createGunzip(), sink);
    }
    await client.query(`SET session_replication_role = DEFAULT`);
    // A backup from before the promises' totals (0033) restores their rows without them: counted again here.
    if (!('promise_stats' in manifest.tables)) for (const sql of PROMISE_STATS_REBUILD) await client.query(sql);
    for (const s of manifest.sequences ?? []) {
      await client.query(`SELECT setval($1::regclass, $2::bigint)`, [`public.${ident(s.name)}`, s.value]);
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    await client.end();
  }
  return manifest;
}
