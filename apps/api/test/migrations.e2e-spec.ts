import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { REPO_ROOT } from '../src/config/config.js';
import { migrate } from '../src/database/migrator.js';
import { createEmptyDatabase, createTestDatabase } from './support/test-app.js';

/** Everything about a database's structure that the Prisma client relies on. */
async function introspect(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const q = async (sql: string) => (await c.query(sql)).rows.map((r) => JSON.stringify(r));
    return {
      columns: await q(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
                               character_maximum_length, numeric_precision, numeric_scale
                        FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`),
      enums: await q(`SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
                      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY 1`),
      indexes: await q(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
      constraints: await q(`SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
                            FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`),
    };
  } finally {
    await c.end();
  }
}

describe('migrations', () => {
  let migratedUrl: string;
  let fromSchemaUrl: string;

  beforeAll(async () => {
    migratedUrl = await createTestDatabase(); // the template: built from prisma/migrations
    fromSchemaUrl = await createEmptyDatabase();
    const sql = spawnSync(process.execPath, [resolve(REPO_ROOT, 'scripts/schema-sql.mjs')], {
      env: { ...process.env, DATABASE_URL: fromSchemaUrl },
      encoding: 'utf8',
    });
    if (sql.status !== 0) throw new Error(sql.stderr);
    const c = new pg.Client({ connectionString: fromSchemaUrl });
    await c.connect();
    await c.query(sql.stdout);
    await c.end();
  }, 60_000);

  it('build a database identical to prisma/schema.prisma (plus the hand-written search indexes)', async () => {
    const migrated = await introspect(migratedUrl);
    const expected = await introspect(fromSchemaUrl);
    const extraTables = ['_kidogo_migrations', '_kidogo_time_zone'];
    const handWritten = (s: string) => /_trgm"|_grams"|_email_walk"|_outbox_pending"|_one_active"|_by_status"|_not_success"|_promise_days"|_promise_items"|_check"|_category"|_by_actor"|_endpoint_due"|_live_session"|_tickets_active"|_ticket_entries"|_notifications_unread"|_held_mark"|_unanswered"|_outbox_due"|_emailing_notifications"|_daily_summary"|_no_agent"|_by_campaign"|_cash_by_collector"|_standing_key"|_transfers"|stock_locations_organization_id_name_key"|_lower_product_name_key"|_kidogo_migrations|_kidogo_time_zone/.test(s);
    expect(migrated.columns.filter((c) => !extraTables.includes(JSON.parse(c).table_name))).toEqual(expected.columns);
    expect(migrated.enums).toEqual(expected.enums);
    expect(migrated.constraints.filter((c) => !handWritten(c))).toEqual(expected.constraints);
    expect(migrated.indexes.filter((i) => !handWritten(i))).toEqual(expected.indexes);
  });

  it('index every foreign key by its columns, so deleting a referenced row never reads a whole table', async () => {
    // Each foreign key's columns must lead some index of its table (in any order), or a delete of the row it
    // points at (a customer, a user) reads the whole referencing table once per row: 13 minutes for 100,000
    // customers before 0032.
    const c = new pg.Client({ connectionString: migratedUrl });
    await c.connect();
    try {
      const { rows } = await c.query<{ fk: string }>(`
        SELECT f.conrelid::regclass::text || '.' || f.conname AS fk
        FROM pg_constraint f
        WHERE f.contype = 'f' AND f.connamespace = 'public'::regnamespace
          AND NOT EXISTS (
            SELECT 1 FROM pg_index i
            WHERE i.indrelid = f.conrelid AND i.indpred IS NULL
              AND (SELECT array_agg(k ORDER BY k) FROM unnest((i.indkey::int2[])[0:cardinality(f.conkey) - 1]) k)
                = (SELECT array_agg(k ORDER BY k) FROM unnest(f.conkey) k))
        ORDER BY 1`);
      expect(rows.map((r) => r.fk)).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('cover every model and column the generated client uses', async () => {
    const client = readFileSync(resolve(REPO_ROOT, 'apps/api/src/generated/prisma/internal/class.ts'), 'utf8');
    const json = client.match(/config\.runtimeDataModel = JSON\.parse\("(.*)"\)/)![1];
    const model = JSON.parse(JSON.parse(`"${json}"`)) as {
      models: Record<string, { dbName: string | null; fields: { name: string; kind: string; dbName?: string }[] }>;
    };
    const migrated = (await introspect(migratedUrl)).columns.map((c) => JSON.parse(c) as { table_name: string; column_name: string });
    const have = new Set(migrated.map((c) => `${c.table_name}.${c.column_name}`));
    const missing: string[] = [];
    for (const [name, m] of Object.entries(model.models)) {
      for (const f of m.fields.filter((x) => x.kind !== 'object')) {
        const key = `${m.dbName ?? name}.${f.dbName ?? f.name}`;
        if (!have.has(key)) missing.push(key);
      }
    }
    expect(Object.keys(model.models).length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('are applied once even when several processes migrate at the same time', async () => {
    const url = await createEmptyDatabase();
    await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const { rows } = await c.query('SELECT name, count(*)::int AS n FROM "_kidogo_migrations" GROUP BY name');
    await c.end();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });
});
