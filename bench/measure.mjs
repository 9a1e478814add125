// Measuring tools for bench/run.mjs: HTTP load with autocannon, the same
// statements straight on PostgreSQL, percentiles, the machine and its load,
// and the memory of a process read from /proc.
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';

/** The p-th percentile (0..100) of unsorted numbers, nearest rank. */
export function percentile(values, p) {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

const round = (n, d = 1) => (n === null || n === undefined ? null : Math.round(n * 10 ** d) / 10 ** d);

export function summarize(latencies, seconds) {
  return {
    requests: latencies.length,
    rps: round(latencies.length / seconds, 1),
    p50_ms: round(percentile(latencies, 50), 2),
    p95_ms: round(percentile(latencies, 95), 2),
    p99_ms: round(percentile(latencies, 99), 2),
    // A loop, not Math.max(...latencies): 130,000 arguments overflow the stack (a prepared 0.07 ms statement for 10 s).
    max_ms: round(latencies.reduce((m, l) => (l > m ? l : m), -Infinity), 1),
  };
}

export const load = () => loadavg().map((l) => round(l, 2));

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * CPU time (ms, user + system) used so far by each of these processes and,
 * with `children`, by their direct children (PostgreSQL's backends), by pid.
 */
export function cpuByPid(pids, { children = false } = {}) {
  const wanted = new Set(pids.filter(Boolean).map(String));
  const out = new Map();
  const all = children ? readdirSync('/proc').filter((d) => /^\d+$/.test(d)) : [...wanted];
  for (const pid of all) {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (wanted.has(pid) || (children && wanted.has(f[1]))) out.set(pid, (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

/** CPU time spent between two cpuByPid snapshots; a process that started meanwhile counts from zero (one that ended is lost). */
function spent(before, after) {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Measures the CPU time the API process and PostgreSQL spend during
 * `work()`, per request: a figure that the machine's load (other processes
 * taking turns on the same cores) disturbs much less than throughput.
 */
export async function withCpu({ apiPid, pgPid }, work) {
  const api0 = cpuByPid([apiPid], { children: true });
  const pg0 = cpuByPid([pgPid], { children: true });
  const result = await work();
  const n = result.requests || 1;
  return {
    ...result,
    ...(apiPid ? { api_cpu_ms_per_request: round(spent(api0, cpuByPid([apiPid], { children: true })) / n, 3) } : {}),
    ...(pgPid ? { db_cpu_ms_per_request: round(spent(pg0, cpuByPid([pgPid], { children: true })) / n, 3) } : {}),
  };
}

/**
 * Drives `url` with autocannon for `duration` seconds (or `amount`
 * requests) at `connections` concurrent connections. `next()` may return
 * a request ({method, path, headers, body}) for every request, so each one
 * can be different (distinct payments, rotating serials). Latencies are
 * collected per response, so p95 is exact (autocannon's own histogram
 * stops at p90 and p97.5).
 */
export async function http({ url, connections, duration, amount, headers = {}, method = 'GET', path, body, next, check, onBody }) {
  const latencies = [];
  const statuses = {};
  let bad = null;
  const loadBefore = load();
  const started = performance.now();
  // setupRequest runs before every request; the base request carries the headers.
  const requests = next ? [{ setupRequest: (req) => ({ ...req, ...next() }) }] : undefined;
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: url + (path ?? ''),
        connections,
        ...(amount ? { amount } : { duration }),
        method,
        headers,
        body,
        requests,
        timeout: 60,
        setupClient:
          check || onBody
            ? (client) =>
                client.on('body', (b) => {
                  onBody?.(b);
                  if (check && !bad) bad = check(b);
                })
            : undefined,
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    ...summarize(latencies, seconds),
    seconds: round(seconds, 1),
    connections,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    ...(bad ? { check_failed: String(bad).slice(0, 300) } : {}),
    load_before: loadBefore,
    load_after: load(),
  };
}

/**
 * Runs `work(client)` (the statements of one API request) in a loop on
 * `concurrency` pooled connections for `duration` seconds: the database's
 * own time for what the API does, with the same driver (pg).
 */
export async function sqlLoop({ pool, concurrency, duration, work }) {
  const latencies = [];
  const end = performance.now() + duration * 1000;
  const loadBefore = load();
  const started = performance.now();
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < end) {
          const t = performance.now();
          await work(client, i++);
          latencies.push(performance.now() - t);
        }
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...summarize(latencies, seconds), seconds: round(seconds, 1), connections: concurrency, load_before: loadBefore, load_after: load() };
}

/** Single requests one after another: the latency a user sees on an idle API (the dashboard's calls). */
export async function sequential({ url, headers, times }) {
  const latencies = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    const buf = await res.arrayBuffer();
    latencies.push(performance.now() - t);
    status = res.status;
    bytes = buf.byteLength;
  }
  return {
    status,
    bytes,
    first_ms: round(latencies[0], 1),
    p50_ms: round(percentile(latencies, 50), 1),
    max_ms: round(latencies.reduce((m, l) => (l > m ? l : m), -Infinity), 1),
    load: load(),
  };
}

/** VmRSS / VmHWM (MB) of a process. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss_mb: round(kb('VmRSS') / 1024, 1), hwm_mb: round(kb('VmHWM') / 1024, 1) };
}

/**
 * Samples a process's memory every 50 ms while `work()` runs. The peak
 * resident set (VmHWM) is reset first where the kernel allows it
 * (/proc/<pid>/clear_refs, 5), so the figure belongs to this operation.
 */
export async function withMemory(pid, work) {
  let reset = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    reset = true;
  } catch {
    /* not allowed: VmHWM then covers the process's whole life */
  }
  const before = memoryOf(pid);
  let peak = before.rss_mb;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rss_mb);
    } catch {
      /* the process is gone; the work reports it */
    }
  }, 50);
  const t = performance.now();
  try {
    const result = await work();
    const after = memoryOf(pid);
    return {
      ...result,
      seconds: round((performance.now() - t) / 1000, 2),
      rss_before_mb: before.rss_mb,
      rss_peak_sampled_mb: round(Math.max(peak, after.rss_mb), 1),
      vm_hwm_mb: after.hwm_mb,
      hwm_reset: reset,
    };
  } finally {
    clearInterval(timer);
  }
}

export function machine() {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  return {
    cores: cpus().length,
    cpu_model: model.trim(),
    memory_gb: round(totalmem() / 1024 ** 3, 1),
    free_memory_gb: round(freemem() / 1024 ** 3, 1),
    node: process.version,
    load_average: load(),
  };
}
