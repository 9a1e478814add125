// How the API process is started in production: the node flags and the
// environment that `pnpm start`, the benchmark and (written out by hand) the
// Dockerfile give it. config.spec.ts checks that the Dockerfile agrees.

/**
 * glibc's malloc, left to itself, raises its mmap threshold (and with it
 * the size of the free space it keeps instead of returning) to the size of
 * the largest block freed, up to 32 MB, in each of its per-thread arenas.
 * V8's compiler and GC threads allocate and free such blocks, so the API's
 * resident memory drifted from 230 MB at start to 245-305 MB after a few
 * minutes of load, a different amount every run. A fixed threshold (glibc's
 * own starting value, 128 kB) keeps it there: blocks that large are mapped
 * and unmapped whole, and the arenas return their free tops. 195-240 MB
 * after the same load, with no system calls added per request (strace: 46
 * mmap for 1,800 requests). An operator's own setting wins.
 */
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The API's environment: `env` with the malloc settings above where it sets none. */
export function apiEnv(env = process.env) {
  return { ...MALLOC_ENV, ...env };
}

/**
 * Node's flags for the API. A bounded heap: V8 otherwise lets garbage grow
 * towards a quarter of the machine's memory before collecting (an export of
 * a million customers took the process to 470 MB).
 */
export function apiNodeArgs(heapMb = process.env.API_HEAP_MB ?? '256') {
  return ['--enable-source-maps', `--max-old-space-size=${heapMb}`];
}
