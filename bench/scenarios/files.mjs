// Scenario (5): the export of every customer of the large organization (and,
// beyond the issue, its collections and its activity log) and the import of a
// 100,000-row CSV, each timed with the API process's memory
// sampled from /proc (VmRSS every 50 ms, VmHWM reset before). The imported
// customers are deleted afterwards so the next run finds the same data.
import { randomBytes } from 'node:crypto';
import { withMemory } from '../measure.mjs';

export async function runFiles({ base, auth, sql, apiPid, results, log }) {
  // A CSV download read to its end: rows and megabytes, with the API's memory meanwhile.
  const download = (path) =>
    withMemory(apiPid, async () => {
      const res = await fetch(`${base}${path}`, { headers: auth });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        for (let j = 0; j < chunk.length; j++) if (chunk[j] === 10) lines++;
      }
      return { status: res.status, megabytes: Math.round(bytes / 1e5) / 10, rows: lines - 1 };
    });
  const exported = await download('/payg/export-customers-csv');
  log(`files     export: ${exported.rows.toLocaleString('en-US')} rows, ${exported.megabytes} MB in ${exported.seconds} s, API RSS peak ${exported.rss_peak_sampled_mb} MB (VmHWM ${exported.vm_hwm_mb} MB)`);
  // Not among the issue's targets: every device out of credit (Collections' export), with a lookup per row.
  const collections = await download('/payg/collections/export');
  log(`files     collections export: ${collections.rows.toLocaleString('en-US')} rows, ${collections.megabytes} MB in ${collections.seconds} s, API RSS peak ${collections.rss_peak_sampled_mb} MB`);
  // Nor the devices' export (Products → Export CSV): every device of the organization with its place and customer.
  const devices = await download('/payg/products/export');
  log(`files     devices export: ${devices.rows.toLocaleString('en-US')} rows, ${devices.megabytes} MB in ${devices.seconds} s, API RSS peak ${devices.rss_peak_sampled_mb} MB`);
  // Not among the targets either: the Activity Log's export, every entry of the organization (5,200,000 at full scale).
  const activity = await download('/payg/audit-log/export');
  log(`files     activity log export: ${activity.rows.toLocaleString('en-US')} rows, ${activity.megabytes} MB in ${activity.seconds} s, API RSS peak ${activity.rss_peak_sampled_mb} MB`);

  const run = randomBytes(3).toString('hex').toUpperCase();
  const ROWS = 100_000;
  const header = 'customer_name,id_number,phone_contact,email,gender,county,constituency,occupation,status\n';
  const counties = ['Nairobi', 'Kisumu', 'Mombasa', 'Nakuru', 'Kakamega'];
  const lines = [header];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      `Import ${run} Customer ${i},IMP${run}${i},07${String(10_000_000 + i).slice(-8)},imp${run.toLowerCase()}${i}@mail.example,${i % 2 ? 'Male' : 'Female'},${counties[i % 5]},Constituency ${i % 290},Farmer,active\n`,
    );
  }
  const csv = Buffer.from(lines.join(''));
  const imported = await withMemory(apiPid, async () => {
    const form = new FormData();
    form.append('csv_file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
    const res = await fetch(`${base}/payg/upload-csv`, { method: 'POST', headers: auth, body: form });
    const body = await res.json();
    return { status: res.status, rows: body.rows, imported: body.imported, skipped: body.skipped, errors: body.errors?.length ?? null, megabytes: Math.round(csv.length / 1e5) / 10 };
  });
  log(`files     import: ${imported.imported?.toLocaleString('en-US')} of ${ROWS.toLocaleString('en-US')} rows in ${imported.seconds} s (HTTP ${imported.status}), API RSS peak ${imported.rss_peak_sampled_mb} MB`);
  const removed = await sql.query(`DELETE FROM customers WHERE organization_id = 'big' AND id_number LIKE $1`, [`IMP${run}%`]);
  // 100,000 rows in and out fragment the customers' search (GIN) indexes: VACUUM
  // frees the entries but not the pages, and the next run's searches read up
  // to three times the pages (the email search: 253 → 664, 2 → 8 ms of
  // PostgreSQL). Rebuilt, so every run starts from the same database.
  const started = Date.now();
  const trigram = (await sql.query(`SELECT indexrelid::regclass::text AS name FROM pg_index JOIN pg_class c ON c.oid = indexrelid JOIN pg_am am ON am.oid = c.relam WHERE indrelid = 'customers'::regclass AND am.amname = 'gin'`)).rows;
  await sql.query(`SET maintenance_work_mem = '512MB'`);
  for (const { name } of trigram) await sql.query(`REINDEX INDEX ${name}`);
  await sql.query('RESET maintenance_work_mem');
  log(`files     removed the ${removed.rowCount.toLocaleString('en-US')} imported rows and rebuilt ${trigram.length} search indexes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  results.files = { export: exported, collections_export: collections, devices_export: devices, activity_log_export: activity, import: { ...imported, removed_after: removed.rowCount } };
}
