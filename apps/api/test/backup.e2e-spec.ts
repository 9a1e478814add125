import { mkdtempSync, rmSync } from 'node:fs';
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
});
