import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { backupDatabase, restoreDatabase } from '../src/database/backup.js';
import { createEmptyDatabase, createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant } from './support/factories.js';

async function fingerprint(url: string): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows: tables } = await c.query<{ t: string }>(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> '_kidogo_migrations' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { t } of tables) {
    // Every row's full text, ordered: equal only if every row came back unchanged.
    const { rows } = await c.query(`SELECT count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS f FROM "${t}" x`);
    out[t] = rows[0].f;
  }
  await c.end();
  return out;
}

describe('backup and restore', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(join(tmpdir(), 'kidogo-backup-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores a backup into a fresh database with every row, and refuses a database that has data', async () => {
    const { org, user } = await seedTenant(t);
    for (let i = 0; i < 3; i++) await seedCustomerWithDevice(t, org.id);
    await t.db.platform.auditLog.create({ data: { organization_id: org.id, action: 'test', description: 'Ünïcode, "quotes", commas\nand lines' } });
    const before = await fingerprint(t.databaseUrl);
    expect(Number(before.customers.split(':')[0])).toBe(3);

    const manifest = await backupDatabase(t.databaseUrl, dir);
    expect(manifest.tables.items).toBe(3);

    const fresh = await createEmptyDatabase();
    await restoreDatabase(fresh, dir);
    expect(await fingerprint(fresh)).toEqual(before);

    // Sequences continue after the restored ids.
    const c = new pg.Client({ connectionString: fresh });
    await c.connect();
    const { rows } = await c.query(`SELECT nextval(pg_get_serial_sequence('customers', 'customer_id'))::int AS id`);
    const { rows: max } = await c.query('SELECT max(customer_id)::int AS id FROM customers');
    await c.end();
    expect(rows[0].id).toBeGreaterThan(max[0].id);

    await expect(restoreDatabase(fresh, dir)).rejects.toThrow(/empty database/);
    expect(user.organization_id).toBe(org.id);
  });

  it('counts the promises again when the backup is from before their totals (0033)', async () => {
    const { org, user } = await seedTenant(t);
    const { item } = await seedCustomerWithDevice(t, org.id);
    const promised = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await t.http.post(`/payg/collections/${item.id}/contacts`).set(user.auth).send({ outcome: 'promised_to_pay', promised_on: promised }).expect(201);
    const old = mkdtempSync(join(tmpdir(), 'kidogo-backup-old-'));
    try {
      const manifest = await backupDatabase(t.databaseUrl, old);
      expect(manifest.tables.promise_stats).toBeGreaterThan(0);
      // What an older Kidogo wrote: no promise_stats in the manifest or on disk.
      const file = join(old, 'manifest.json');
      const written = JSON.parse(readFileSync(file, 'utf8')) as { tables: Record<string, number> };
      delete written.tables.promise_stats;
      writeFileSync(file, JSON.stringify(written));
      rmSync(join(old, 'promise_stats.csv.gz'));

      const fresh = await createEmptyDatabase();
      await restoreDatabase(fresh, old);
      const kinds = async (url: string) => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          const sql = `SELECT organization_id, promised_on::text, kind, sum(n)::int AS n FROM promise_stats GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`;
          return (await c.query(sql)).rows;
        } finally {
          await c.end();
        }
      };
      const restored = await kinds(fresh);
      expect(restored).toContainEqual({ organization_id: org.id, promised_on: promised, kind: 'unpaid', n: 1 });
      expect(restored).toEqual(await kinds(t.databaseUrl));
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
