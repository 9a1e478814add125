import pg from 'pg';

/**
 * Fingerprints of database rows (row count and an md5 of every row, per
 * table), read with a plain pg connection so nothing in the API's data layer
 * can hide a row. Compare two fingerprints to prove a request changed nothing.
 */
export class Fingerprints {
  private constructor(
    private readonly client: pg.Client,
    private readonly all: string[],
    private readonly owned: string[],
  ) {}

  static async open(databaseUrl: string): Promise<Fingerprints> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const tables = await client.query<{ table_name: string; owned: boolean }>(`
      SELECT t.table_name,
             EXISTS (SELECT 1 FROM information_schema.columns c
                     WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'organization_id') AS owned
      FROM information_schema.tables t
      WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND t.table_name NOT LIKE '\\_%'
      ORDER BY t.table_name`);
    return new Fingerprints(
      client,
      tables.rows.map((r) => r.table_name),
      tables.rows.filter((r) => r.owned).map((r) => r.table_name),
    );
  }

  /** Every table that has an organization_id column (organizations itself included), filtered to one organization. */
  async ofOrganization(orgId: string): Promise<Record<string, string>> {
    const sql = this.owned
      .map(
        (t) =>
          `SELECT '${t}' AS t, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS f FROM "${t}" x WHERE organization_id = $1`,
      )
      .join(' UNION ALL ');
    const { rows } = await this.client.query<{ t: string; f: string }>(sql, [orgId]);
    return Object.fromEntries(rows.map((r) => [r.t, r.f]));
  }

  /** Every table of the database. */
  async ofDatabase(): Promise<Record<string, string>> {
    const sql = this.all
      .map((t) => `SELECT '${t}' AS t, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS f FROM "${t}" x`)
      .join(' UNION ALL ');
    const { rows } = await this.client.query<{ t: string; f: string }>(sql);
    return Object.fromEntries(rows.map((r) => [r.t, r.f]));
  }

  /** Row counts of every table (cheap enough to take around every request). */
  async counts(): Promise<Record<string, number>> {
    const sql = this.all.map((t) => `SELECT '${t}' AS t, count(*)::int AS n FROM "${t}"`).join(' UNION ALL ');
    const { rows } = await this.client.query<{ t: string; n: number }>(sql);
    return Object.fromEntries(rows.map((r) => [r.t, r.n]));
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

/** Names of the tables whose fingerprints differ. */
export function changedTables(before: Record<string, string | number>, after: Record<string, string | number>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}
