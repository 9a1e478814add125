import { rmSync } from 'node:fs';
import pg from 'pg';

export default async function globalTeardown() {
  const state = globalThis.__KIDOGO_PG__;
  if (state) {
    await state.server.stop().catch(() => {});
    rmSync(state.dir, { recursive: true, force: true });
    return;
  }
  // An external server (CI): drop what this run created.
  const admin = new pg.Client({ connectionString: process.env.KIDOGO_TEST_ADMIN_URL });
  await admin.connect();
  const run = process.env.KIDOGO_TEST_RUN;
  const { rows } = await admin.query(
    'SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2',
    [`kidogo_tpl_${run}`, `t_${run}_%`],
  );
  for (const r of rows) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
  await admin.end();
}
