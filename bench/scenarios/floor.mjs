// The floor under the list ratios (not one of the scenarios): how
// close to the raw database can any HTTP server in Node get on this
// machine? floor-server.mjs answers the customer list with the same
// statements as the API (the session lookup, then listCustomers) and none of
// its framework; the same statements straight on PostgreSQL run again next
// to it. Measured for the first page without a search (a page of rows) and
// for every search's page at offset 500,000, past all its matches: five of
// them past a kept total, whose raw statements are two key lookups, and the
// phone and ID number searches, whose few matches are counted every time.
// The gap between this server and the raw loop is the HTTP hop itself; the
// gap between the API and this server is everything else the API does (Nest,
// Fastify, the token check, validation, headers).
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { http as httpLoad, sqlLoop, withCpu } from '../measure.mjs';
import { benchSession, listQueries } from './lists.mjs';

const PORT = Number(process.env.BENCH_FLOOR_PORT ?? 3310);
const WARMUP_S = 1;

/** The lists scenario's names measured here: a page of rows, and every search's page at offset 500,000. */
const wanted = (name) => name === 'no search, first page' || (name.includes('"') && name.endsWith(`offset ${500_000}`));

export async function runFloor(ctx) {
  const { sql, database, duration, record, log, root, pgPid, results } = ctx;
  const queries = (await listQueries(ctx)).filter((q) => q.work && wanted(q.name) && (!ctx.cases || q.name.includes(ctx.cases)));
  const { userId, sessionId } = await benchSession(sql);
  const server = fork(resolve(root, 'bench/scenarios/floor-server.mjs'), [], {
    env: { ...process.env, FLOOR_PORT: String(PORT), DATABASE_URL: database.url, FLOOR_USER_ID: String(userId), FLOOR_SESSION_ID: sessionId ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((ok, fail) => {
    server.once('message', ok);
    server.once('exit', (code) => fail(new Error(`the floor server exited with code ${code}`)));
  });
  const raw = new pg.Pool({ connectionString: database.url, max: 16, idleTimeoutMillis: 0 });
  try {
    for (const q of queries) {
      const path = `/${q.path.slice(q.path.indexOf('?'))}`;
      const opts = { url: `http://127.0.0.1:${PORT}`, connections: 16, duration, path, check: q.check };
      await httpLoad({ ...opts, duration: WARMUP_S });
      const figures = await withCpu({ apiPid: server.pid, pgPid }, () => httpLoad(opts));
      await sqlLoop({ pool: raw, concurrency: 16, duration: WARMUP_S, work: q.work });
      const db = await withCpu({ apiPid: null, pgPid }, () => sqlLoop({ pool: raw, concurrency: 16, duration, work: q.work }));
      const api = results.scenarios.find((s) => s.group === 'lists' && s.name === q.name);
      const row = record('floor', q.name, { path, db, throughput_ratio: Math.round((db.rps / figures.rps) * 100) / 100 }, figures);
      if (api) {
        row.api_rps = api.rps;
        row.api_throughput_ratio = api.throughput_ratio;
        log(`floor     ${q.name}: the API in this run ${api.rps}/s (${api.throughput_ratio}× the raw loop then), this server ${figures.rps}/s`);
      }
    }
  } finally {
    await raw.end();
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  }
}
