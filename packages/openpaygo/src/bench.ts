/**
 * Benchmark: prints SipHash evaluations per second and tokens per second
 * (generation on the server, decoding on a device) at several counts.
 * Run with `pnpm --filter @kidogo/openpaygo bench`. Not a test: the numbers
 * depend on the machine.
 */
import { availableParallelism, cpus } from 'node:os';

import { wasmChain } from './chain-wasm.js';
import { sipHash8, sipKey } from './siphash.js';
import { type TokenType, decodeToken, generateToken, initialTokenState, walkChain } from './token.js';

const SECRET_KEY = 'bc41ec9530f6dac86b1a29ab82edc5fb';
const STARTING_CODE = 516959010;
const MIN_MS = 1000;

/** Calls `batch` until at least MIN_MS have passed; returns operations per second. */
function measure(batch: () => number): number {
  batch(); // warm-up
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_MS) {
    ops += batch();
    elapsed = performance.now() - start;
  }
  return (ops * 1000) / elapsed;
}

let sink = 0;

function sipHashRate(): number {
  const key = sipKey(Uint8Array.from({ length: 16 }, (_, i) => i));
  const out = new Uint32Array(1);
  return measure(() => {
    let acc = sink;
    const n = 1_000_000;
    for (let i = 0; i < n; i++) {
      acc ^= sipHash8(key, i, acc, out);
    }
    sink = acc;
    return n;
  });
}

/** SipHash evaluations per second along the token chain (what generation costs), WebAssembly or JavaScript. */
function chainRate(engine: typeof wasmChain): number {
  const key = sipKey(Uint8Array.from({ length: 16 }, (_, i) => i));
  return measure(() => {
    sink ^= walkChain(key, 516_959_010 + (sink & 1), 100_000, false, engine);
    return 100_000;
  });
}

function generateRate(lastCount: number, extendedToken: boolean): number {
  const perBatch = Math.max(1, Math.floor(200_000 / (lastCount + 2)));
  return measure(() => {
    for (let i = 0; i < perBatch; i++) {
      const r = generateToken({
        secretKey: SECRET_KEY,
        startingCode: STARTING_CODE,
        extendedToken,
        lastCount,
        type: 'ADD_TIME',
        value: (i % 30) + 1,
      });
      sink ^= r.count;
    }
    return perBatch;
  });
}

function decodeRate(lastCount: number, extendedToken: boolean): number {
  const opts = { secretKey: SECRET_KEY, startingCode: STARTING_CODE, extendedToken };
  const type: TokenType = 'ADD_TIME';
  const tokens = Array.from({ length: 30 }, (_, i) => generateToken({ ...opts, lastCount, type, value: i + 1 }).token);
  const state = initialTokenState(lastCount);
  const perBatch = Math.max(1, Math.floor(200_000 / (lastCount + 66)));
  return measure(() => {
    for (let i = 0; i < perBatch; i++) {
      const r = decodeToken({ ...opts, state, token: tokens[i % tokens.length]! });
      if (r.status !== 'VALID') {
        throw new Error('benchmark token did not decode');
      }
    }
    return perBatch;
  });
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`@kidogo/openpaygo benchmark: Node ${process.version}, ${availableParallelism()} cores (${cpu}), one core used`);
console.log('');
console.log(`SipHash-2-4 (8-byte message), JavaScript: ${fmt(sipHashRate())} evaluations/s`);
console.log(`Token chain, JavaScript:                ${fmt(chainRate(null))} SipHash evaluations/s`);
if (wasmChain) console.log(`Token chain, WebAssembly (the server):  ${fmt(chainRate(wasmChain))} SipHash evaluations/s`);
console.log('');
console.log('Tokens per second (ADD_TIME; generation hashes lastCount + 1..2 times, decoding up to lastCount + 64 times):');
console.log(`${'lastCount'.padStart(10)} ${'mode'.padEnd(9)} ${'generate/s'.padStart(12)} ${'decode/s'.padStart(12)}`);
for (const extended of [false, true]) {
  for (const lastCount of [10, 1000, 5000]) {
    const mode = extended ? 'extended' : 'standard';
    console.log(
      `${String(lastCount).padStart(10)} ${mode.padEnd(9)} ${fmt(generateRate(lastCount, extended)).padStart(12)} ${fmt(decodeRate(lastCount, extended)).padStart(12)}`,
    );
  }
}
if (sink === 0.5) {
  console.log(''); // keeps `sink` observable so the loops are not optimised away
}
