// Scenario (4): POST /payg/generate-token-by-days at concurrency 16 on
// devices whose count is around 1,000 (the seed gives every 100th device
// count 1000), and the token function alone in this process at counts 10,
// 1,000 and 5,000: tokens per second and SipHash evaluations per second
// (a token at count n hashes the chain n + 1 or n + 2 times).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from '../measure.mjs';

const SECRET_KEY = 'bc41ec9530f6dac86b1a29ab82edc5fb';
const STARTING_CODE = 516959010;

function rate(fn, minMs = 1500) {
  fn(); // warm-up
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    ops += fn();
    elapsed = performance.now() - start;
  }
  return (ops * 1000) / elapsed;
}

export async function runTokens({ base, auth, sql, N, duration, record, log, results, root, http }) {
  const { generateToken } = await import(pathToFileURL(resolve(root, 'packages/openpaygo/dist/index.js')).href);
  const inProcess = [];
  for (const count of [10, 1000, 5000]) {
    const batch = Math.max(1, Math.floor(300_000 / (count + 2)));
    let sink = 0;
    const tokensPerSecond = rate(() => {
      for (let i = 0; i < batch; i++) {
        sink ^= generateToken({ secretKey: SECRET_KEY, startingCode: STARTING_CODE, lastCount: count, type: 'ADD_TIME', value: (i % 30) + 1 }).count;
      }
      return batch;
    });
    // ADD_TIME from an even count goes to count + 2: that many chain steps.
    const hashes = count + 2;
    const row = { count, tokens_per_s: Math.round(tokensPerSecond), siphash_per_s: Math.round(tokensPerSecond * hashes), load: load(), sink: sink & 1 };
    inProcess.push(row);
    log(`tokens    in process, count ${String(count).padStart(5)}: ${row.tokens_per_s.toLocaleString('en-US')} tokens/s = ${row.siphash_per_s.toLocaleString('en-US')} SipHash/s  load ${row.load.join(' ')}`);
  }
  const { rows } = await sql.query(
    `SELECT serial_number, token_count FROM items WHERE organization_id = 'big' AND item_id % 100 = 7 AND is_assigned AND item_id <= $1 ORDER BY item_id LIMIT 5000`,
    [N],
  );
  const counts = rows.map((r) => r.token_count).sort((a, b) => a - b);
  let i = 0;
  const figures = await http({
    url: base,
    connections: 16,
    duration,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    next: () => ({
      method: 'POST',
      path: '/payg/generate-token-by-days',
      body: JSON.stringify({ serial_number: rows[(i++ * 7) % rows.length].serial_number, number_of_days: 1 + (i % 30) }),
    }),
  });
  const median = counts[Math.floor(counts.length / 2)];
  results.tokens = { in_process: inProcess, http: { ...figures, devices: rows.length, median_count_before: median } };
  record('tokens', `POST /generate-token-by-days (count ~${median}), c=16`, {}, figures);
}
