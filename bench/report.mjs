// Prints a benchmark result (bench/results/*.json) as the README's Markdown tables, then checks it against the
// issue's targets, one line each: `node bench/report.mjs [file]` (the newest result without one). Exit status 0
// either way: a missed target is a finding, not an error.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { root } from './lib.mjs';

export const TARGETS = {
  p95_ms: 25,
  ratio: 2,
  payments_per_s: 300,
  payments_p95_ms: 100,
  siphash_per_s: 10_000_000,
  tokens_per_s: 500,
  import_s: 15,
  export_s: 30,
  export_rss_mb: 300,
  login_gzip_kb: 250,
  dashboard_ms: 200,
};

const fmt = (n, digits = 2) =>
  n === undefined || n === null ? '—' : n >= 1000 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 10 ** digits) / 10 ** digits);
const row = (cells) => `| ${cells.join(' | ')} |`;
const head = (cells) => [row(cells), row(cells.map(() => '---'))];

/** The Markdown lines for one result. */
export function report(r, file = '') {
  const out = [];
  const m = r.machine;
  const pg = r.database?.settings ?? {};
  out.push(
    `Run ${r.started_at?.slice(0, 16).replace('T', ' ')} UTC${file ? ` (\`${file}\`)` : ''}: ${m.cores} cores (${m.cpu_model}), ` +
      `${m.memory_gb} GB, Node ${m.node}, PostgreSQL ${r.database?.postgres}${r.database?.embedded ? ' embedded' : ''} on the same machine ` +
      `(fsync ${pg.fsync}, synchronous_commit ${pg.synchronous_commit}), ${r.config.workers === 1 ? 'one API process' : `${r.config.workers} API processes`}, pool ${r.config.pool}, ` +
      `${fmt(r.config.customers)} customers, ${r.config.duration_s} s per load test; load average at the start ${m.load_average?.[0]}.`,
    '',
  );
  const byGroup = (g) => r.scenarios.filter((s) => s.group === g);
  const cpu = (s) => `${s.api_cpu_ms_per_request} + ${s.db_cpu_ms_per_request}`;
  /** A Markdown table of these scenarios, one row each, after an optional line saying what it is. */
  const table = (intro, headers, scenarios, cells) => {
    if (!scenarios.length) return;
    if (intro) out.push(intro, '');
    out.push(...head(headers), ...scenarios.map((s) => row(cells(s))), '');
  };
  table(
    null,
    ['scenario', 'req/s', 'p50', 'p95', 'p99 (ms)', 'raw DB req/s, p95', 'DB/API throughput', 'CPU ms/req API + DB'],
    [...byGroup('lists'), ...byGroup('reads')],
    (s) => [
      `${s.group}: ${s.name}`,
      fmt(s.rps, 1),
      fmt(s.p50_ms),
      fmt(s.p95_ms),
      fmt(s.p99_ms),
      s.db ? `${fmt(s.db.rps, 1)}, ${fmt(s.db.p95_ms)}` : '—',
      s.throughput_ratio === undefined ? '—' : fmt(s.throughput_ratio),
      cpu(s),
    ],
  );
  table(
    'The floor (scenario 8): a bare `node:http` server running the same statements, against the raw loop and the API.',
    ['page', 'floor req/s', 'raw DB req/s', 'DB/floor', 'API req/s', 'DB/API', 'CPU ms/req floor'],
    byGroup('floor'),
    (s) => [s.name, fmt(s.rps, 1), fmt(s.db?.rps, 1), fmt(s.throughput_ratio), fmt(s.api_rps, 1), fmt(s.api_throughput_ratio), String(s.api_cpu_ms_per_request)],
  );
  table(
    "Other pages' lists (scenario 7, not among the targets):",
    ['page', 'req/s', 'p50', 'p95', 'p99 (ms)', 'CPU ms/req API + DB', 'first request alone (ms)'],
    byGroup('pages'),
    (s) => [s.name, fmt(s.rps, 1), fmt(s.p50_ms), fmt(s.p95_ms), fmt(s.p99_ms), cpu(s), fmt(s.first_request_ms, 1)],
  );
  if (r.payments) {
    const p = r.payments;
    out.push(
      `- Payments (c=${p.connections}): ${fmt(p.rps, 1)}/s, p50 ${p.p50_ms} ms, p95 ${p.p95_ms} ms, p99 ${p.p99_ms} ms; ` +
        `${fmt(p.sent)} sent, ${fmt(p.payments_stored)} stored, ${fmt(p.distinct_codes_stored)} distinct codes, ${fmt(p.tokens_issued)} tokens, ` +
        `${fmt(p.replies_queued)} replies queued: ${p.lost} lost, ${p.duplicated} duplicated.`,
    );
  }
  if (r.tokens) {
    for (const t of r.tokens.in_process ?? [])
      out.push(`- Token function in process at count ${fmt(t.count)}: ${fmt(t.tokens_per_s)} tokens/s, ${fmt(t.siphash_per_s)} SipHash/s.`);
    const h = r.tokens.http;
    if (h) out.push(`- Tokens through the API (count ~${h.median_count_before}, c=${h.connections}): ${fmt(h.rps, 1)}/s, p95 ${h.p95_ms} ms.`);
  }
  if (r.files) {
    const { export: e, import: i } = r.files;
    if (e) out.push(`- Export of ${fmt(e.rows)} customers (${e.megabytes} MB): ${e.seconds} s, API RSS peak ${e.vm_hwm_mb ?? e.rss_peak_sampled_mb} MB.`);
    if (i) out.push(`- Import of ${fmt(i.rows)} rows: ${i.seconds} s (${fmt(i.imported)} imported), API RSS peak ${i.vm_hwm_mb ?? i.rss_peak_sampled_mb} MB.`);
  }
  if (r.web) out.push(`- Initial JavaScript, gzipped: ${r.web.map((w) => `\`${w.route}\` ${w.gzip_kb} KB`).join(', ')}.`);
  if (r.dashboard)
    out.push(
      `- Dashboard calls on the large organization, one at a time (first / median / max ms): ` +
        `${r.dashboard.map((d) => `\`${d.path.replace('/payg', '')}\` ${d.first_ms} / ${d.p50_ms} / ${d.max_ms}`).join('; ')}.`,
    );
  return out;
}

/** One line per target the result has figures for: `[met, text]`. */
export function verdicts(r) {
  const t = TARGETS;
  const v = [];
  const reads = r.scenarios.filter((s) => s.group === 'lists' || s.group === 'reads');
  if (reads.length) {
    const over = reads.filter((s) => s.p95_ms >= t.p95_ms);
    const worst = reads.reduce((a, s) => (s.p95_ms > a.p95_ms ? s : a));
    v.push([over.length === 0, `p95 under ${t.p95_ms} ms: ${reads.length - over.length} of ${reads.length} (highest ${worst.p95_ms} ms, ${worst.name})`]);
  }
  const rated = r.scenarios.filter((s) => s.group === 'lists' && s.throughput_ratio !== undefined);
  if (rated.length) {
    const over = rated.filter((s) => s.throughput_ratio > t.ratio);
    const ratios = rated.map((s) => s.throughput_ratio);
    v.push([
      over.length === 0,
      `throughput within ${t.ratio}x of the raw database: ${rated.length - over.length} of ${rated.length} (${Math.min(...ratios)}–${Math.max(...ratios)}x)` +
        (over.length ? `; over: ${over.map((s) => `${s.name} ${s.throughput_ratio}x`).join(', ')}` : ''),
    ]);
  }
  if (r.payments) {
    const p = r.payments;
    v.push([
      p.rps >= t.payments_per_s && p.p95_ms < t.payments_p95_ms && p.lost === 0 && p.duplicated === 0,
      `payments: ${p.rps}/s (≥ ${t.payments_per_s}), p95 ${p.p95_ms} ms (< ${t.payments_p95_ms}), ${p.lost} lost, ${p.duplicated} duplicated`,
    ]);
  }
  const heavy = (r.tokens?.in_process ?? []).filter((x) => x.count >= 1000);
  if (heavy.length) {
    const slowest = Math.min(...heavy.map((x) => x.siphash_per_s));
    v.push([slowest >= t.siphash_per_s, `token function: ${fmt(slowest)} SipHash/s at counts ≥ 1,000 (≥ ${fmt(t.siphash_per_s)})`]);
  }
  if (r.tokens?.http) v.push([r.tokens.http.rps >= t.tokens_per_s, `tokens through the API: ${r.tokens.http.rps}/s (≥ ${t.tokens_per_s})`]);
  if (r.files?.import) v.push([r.files.import.seconds < t.import_s && r.files.import.imported === r.files.import.rows, `import: ${r.files.import.seconds} s (< ${t.import_s})`]);
  if (r.files?.export) {
    const e = r.files.export;
    const peak = e.vm_hwm_mb ?? e.rss_peak_sampled_mb;
    v.push([e.seconds < t.export_s && peak < t.export_rss_mb, `export: ${e.seconds} s (< ${t.export_s}), API RSS peak ${peak} MB (< ${t.export_rss_mb})`]);
  }
  const login = r.web?.find((w) => w.route === '/login');
  if (login) v.push([login.gzip_kb < t.login_gzip_kb, `login route's initial JavaScript: ${login.gzip_kb} KB gzipped (< ${t.login_gzip_kb})`]);
  if (r.dashboard?.length) {
    const worst = Math.max(...r.dashboard.map((d) => d.max_ms));
    v.push([worst < t.dashboard_ms && r.dashboard.every((d) => d.status === 200), `dashboard calls: at most ${worst} ms each (< ${t.dashboard_ms})`]);
  }
  return v;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = resolve(root, 'bench/results');
  const file = process.argv[2] ? resolve(process.argv[2]) : resolve(dir, readdirSync(dir).filter((f) => f.endsWith('.json')).sort().at(-1));
  const r = JSON.parse(readFileSync(file, 'utf8'));
  console.log(report(r, basename(file)).join('\n'));
  console.log('\nAgainst the targets:');
  for (const [met, text] of verdicts(r)) console.log(`${met ? 'met    ' : 'MISSED '} ${text}`);
}
