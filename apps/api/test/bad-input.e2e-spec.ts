import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeSmtp } from './support/fake-smtp.js';
import { registeredRoutes, routeKey, type RouteEntry } from './support/routes.js';
import { buildCalls, currentApiKey, send, type Call, type Credentials } from './support/route-calls.js';
import { changedTables, Fingerprints } from './support/fingerprint.js';
import { seedPlatform, seedWorld, type Platform, type World } from './support/world.js';

/**
 * Random and hostile bodies, queries, path parameters and files on every
 * route that takes them: wrong types, huge strings, deep JSON, SQL and script
 * fragments, NUL bytes and broken UTF-16, negative and enormous numbers,
 * arrays for objects, prototype-pollution keys, malformed JSON, multipart
 * and CSV. Never a 5xx; every refusal is a 4xx whose message names the field
 * (or the body); a refused request writes nothing (row counts of every table).
 * Each request is sent by a caller the route lets in, on real rows, so the
 * input reaches the validation and the code behind it.
 */

// BAD_INPUT_RUNS=200 BAD_INPUT_ONLY=receive for a deeper search on some routes.
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 12);
const ONLY = process.env.BAD_INPUT_ONLY;
// A failure names its seed: BAD_INPUT_SEED=<seed> replays the same inputs.
const SEED = Number(process.env.BAD_INPUT_SEED ?? Date.now() % 2 ** 31);

interface OpenApiOp {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  security?: Record<string, unknown>[];
}

interface Target {
  key: string;
  route: RouteEntry;
  call: Call;
  creds: Credentials;
  bodyKeys: string[];
  queryKeys: string[];
  pathKeys: string[];
  files: string[];
  json: boolean;
}

// ------------------------------------------------------------------ hostile values

const NASTY_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE customers; --",
  '1; SELECT pg_sleep(5)',
  '%',
  '_',
  '\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}${7*7}',
  '=HYPERLINK("http://evil")',
  '../../../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u200b\ufeff',
  '😀🇰🇪',
  ' ',
  '',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '0x1F',
  '9'.repeat(40),
  'x'.repeat(5000),
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.nat({ max: 300_000 }).map((n) => 'z'.repeat(n)) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 1, 0.001, 1.005, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 2, 1e21, 1e308, -1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'organization_id', '$where', 'id'];

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** JSON nested far deeper than any schema: [[[[...]]]] and {"a":{"a":...}}. */
const deepJson = fc.tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
);

function bodyFor(target: Target): fc.Arbitrary<{ raw?: string; json?: unknown }> {
  const valid = (target.call.body ?? {}) as Record<string, unknown>;
  const keys = target.bodyKeys.length ? target.bodyKeys : ['x'];
  return fc.oneof(
    // One field of a valid body replaced: the rest of the request is real, so the service code runs.
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...keys), hostileValue).map(([k, v]) => ({ json: { ...valid, [k]: v } })) },
    // Every known field hostile.
    { weight: 3, arbitrary: fc.record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] }).map((json) => ({ json })) },
    // Not an object at all, or pollution keys.
    { weight: 1, arbitrary: hostileValue.map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS).map((k) => ({ raw: `{"${k}":{"polluted":true,"isAdmin":true},"__proto__":{"role":"super_admin"}}` })) },
    { weight: 1, arbitrary: deepJson.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', 'nul', '{"a":1}}', '\u0000', "{'a':1}", '{"a":"\\x41"}').map((raw) => ({ raw })) },
  );
}

function queryFor(target: Target): fc.Arbitrary<Record<string, string | string[]>> {
  const keys = target.queryKeys.length ? target.queryKeys : ['q'];
  const value = fc.oneof(
    { weight: 5, arbitrary: hostileString.filter((s) => s.length < 3000) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom('1', 'x', ''), { minLength: 2, maxLength: 3 }) },
    { weight: 1, arbitrary: hostileNumber.map(String) },
  );
  return fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string | string[]>>;
}

const hostileSegment = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '99999999999', '2147483648', '1 OR 1=1', "' OR ''='", '%00', '\u0000', '..', '...', ' ', '%', 'null', '😀', 'x'.repeat(300), 'a/b'),
  fc.string({ maxLength: 30 }).filter((s) => s.length > 0),
);

// ------------------------------------------------------------------ the suite

describe('bad input on every route with a body, a query, a path parameter or a file', () => {
  let t: TestApp;
  let p: Platform;
  let w: World;
  let fp: Fingerprints;
  const targets: Target[] = [];
  let smtp: FakeSmtp;

  beforeAll(async () => {
    // Invoices are emailed: a mail server that takes them, so a valid body is answered, not refused upstream.
    smtp = await new FakeSmtp().start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    p = await seedPlatform(t);
    w = await seedWorld(t, p, { label: 'bad' });
    fp = await Fingerprints.open(t.databaseUrl);
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body as { paths: Record<string, Record<string, OpenApiOp>> };
    for (const route of registeredRoutes(t.app)) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      const key = routeKey(route);
      const [call] = await buildCalls(key, { t, p, w });
      const content = op.requestBody?.content ?? {};
      const multipart = content['multipart/form-data']?.schema?.properties;
      const json = content['application/json']?.schema?.properties ?? content['application/x-www-form-urlencoded']?.schema?.properties;
      const apiKey = (op.security ?? []).some((s) => 'api-key' in s);
      targets.push({
        key,
        route,
        call: call!,
        creds: apiKey ? { apiKey: await currentApiKey(t, w.org) } : { bearer: route.path.startsWith('/payg/admin') ? p.root.token : w.owner.token },
        bodyKeys: Object.keys(json ?? {}),
        queryKeys: (op.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name),
        pathKeys: (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name),
        files: Object.keys(multipart ?? {}),
        json: Boolean(op.requestBody && !multipart),
      });
    }
  }, 180_000);
  afterAll(async () => {
    await fp?.close();
    await t?.close();
    await smtp?.close();
  });

  let lastAccepted = false;
  /**
   * Row counts once the previous request's background writes (an audit entry
   * written after the reply) have landed, so they are not blamed on the next one.
   */
  async function settledCounts() {
    let counts = await fp.counts();
    if (!lastAccepted) return counts;
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const again = await fp.counts();
      if (changedTables(counts, again).length === 0) break;
      counts = again;
    }
    return counts;
  }

  /** The top-level keys of a JSON text, when it is one: a refusal may name a key the caller made up. */
  const keysOf = (text: string | Buffer) => {
    try {
      const v = JSON.parse(text.toString()) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
    } catch {
      return [];
    }
  };

  /** Sends and checks one request; returns a problem or null. */
  async function probe(target: Target, what: string, send: (req: ReturnType<typeof open>) => PromiseLike<Response>, sent: string[] = []) {
    const before = await settledCounts();
    let res: Response;
    try {
      res = await send(open(target));
    } catch (e) {
      return `${target.key} ${what}: request failed: ${(e as Error).message}`;
    }
    lastAccepted = res.status < 400;
    const problem = judge(target, res, sent);
    // A 5xx is reported with the whole request, so it can be replayed.
    if (problem) return `[seed ${SEED}] ${target.key} ${res.status >= 500 ? JSON.stringify((res.request as unknown as { _data?: unknown })._data ?? what).slice(0, 20_000) : what}: ${problem}`;
    if (res.status >= 400) {
      let changed = changedTables(before, await fp.counts());
      // A failed sign-in is itself recorded: the lockout counter and the audit log (a wrong password, or a
      // well-formed but wrong two-factor code with a valid challenge).
      if (target.key === 'POST /payg/authenticate' || target.key === 'POST /payg/authenticate/2fa') changed = changed.filter((x) => x !== 'auth_throttles' && x !== 'audit_logs');
      if (changed.length) return `${target.key} ${what}: refused with ${res.status} but wrote to ${changed.join(', ')}`;
    }
    return null;
  }

  /** Bytes or text sent exactly as given (superagent would JSON-encode a Buffer). */
  const raw = (req: ReturnType<typeof open>, type: string, data: string | Buffer) =>
    req.set('Content-Type', type).serialize((x: unknown) => x as string).send(data as string);

  function open(target: Target, path = target.call.path) {
    let req = t.http[target.route.method.toLowerCase() as 'post'](path);
    if (target.creds.bearer) req = req.set('Authorization', `Bearer ${target.creds.bearer}`);
    if (target.creds.apiKey) req = req.set('X-API-Key', target.creds.apiKey);
    return req;
  }

  /** Zero 5xx; a refusal is a 4xx with {detail, message}; a 400 or 413 names a field or the body. */
  function judge(target: Target, res: Response, sent: string[]): string | null {
    if (res.status >= 500) return `${res.status} ${res.text.slice(0, 300)}`;
    if (res.status < 400) return null;
    const body = res.body as { detail?: unknown; message?: unknown };
    if (typeof body?.message !== 'string' || !body.message || body.detail === undefined) return `${res.status} without {detail, message}: ${res.text.slice(0, 200)}`;
    if (res.status === 400 || res.status === 413) {
      // An empty key is named as "" (validation.ts).
      const known = ['body', 'query', 'path', ...target.bodyKeys, ...target.queryKeys, ...target.pathKeys, ...target.files, ...sent.map((k) => k || '""')];
      const listed = (res.body as { errors?: { field: string }[] }).errors;
      const fields = listed?.length ? listed.map((e) => e.field) : (/^([^:]{1,200}): ./.exec(body.message)?.[1]?.split(/,\s*/) ?? []);
      // A field is a known key or a path under one ("config.url", "line_items.0.quantity"),
      // or the list of made-up keys the caller sent ("foo, bar: is not an accepted field").
      const names = (f: string) =>
        known.some((k) => f === k || f.startsWith(`${k}.`)) ||
        /^[,\s]*$/.test([...sent].sort((a, b) => b.length - a.length).reduce((rest, k) => rest.split(k).join(''), f));
      if (!fields.length || !fields.every(names)) return `${res.status} does not name the field: ${body.message.slice(0, 200)}`;
    }
    return null;
  }

  const chosen = () => targets.filter((x) => !ONLY || x.key.includes(ONLY));
  const withBody = () => chosen().filter((x) => x.json);
  const withQuery = () => chosen().filter((x) => x.queryKeys.length);
  const withPath = () => chosen().filter((x) => x.pathKeys.length);
  const withFiles = () => chosen().filter((x) => x.files.length);

  (ONLY ? it.skip : it)('covers the routes it should (bodies, queries, path parameters, files)', () => {
    expect(withBody().length).toBeGreaterThan(40);
    expect(withQuery().length).toBeGreaterThan(20);
    expect(withPath().length).toBeGreaterThan(30);
    expect(withFiles().map((x) => x.key).sort()).toEqual([
      'POST /payg/customers/{id}/documents',
      'POST /payg/items/accounts/import',
      'POST /payg/items/add/bulk',
      'POST /payg/reports/upload-csv',
      'POST /payg/upload-csv',
    ]);
  });

  it('random and hostile JSON bodies', async () => {
    const problems: string[] = [];
    for (const target of withBody()) {
      await fc.assert(
        fc.asyncProperty(bodyFor(target), async (b) => {
          const sent = b.raw !== undefined ? keysOf(b.raw) : b.json && typeof b.json === 'object' && !Array.isArray(b.json) ? Object.keys(b.json) : [];
          const what = `body ${(b.raw ?? JSON.stringify(b.json) ?? 'undefined').slice(0, 160)}`;
          const problem = await probe(
            target,
            what,
            (req) =>
              b.raw !== undefined || b.json === null || typeof b.json !== 'object'
                ? raw(req, 'application/json', b.raw ?? JSON.stringify(b.json) ?? 'null')
                : req.send(b.json as object),
            sent,
          );
          if (problem) problems.push(problem);
          return problem === null;
        }),
        { numRuns: RUNS, endOnFailure: true, seed: SEED },
      ).catch(() => undefined);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('bytes that are not JSON text: invalid UTF-8, NUL, another content type, a body over the limit and just under it', async () => {
    const problems: string[] = [];
    const light: [string, Buffer, string][] = [
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), 'application/json'],
      ['a NUL byte in a string', Buffer.from('{"a":"\\u0000"}'), 'application/json'],
      ['a raw NUL byte', Buffer.from('{"a":"\u0000"}'), 'application/json'],
      ['UTF-16', Buffer.from('{"a":1}', 'utf16le'), 'application/json; charset=utf-16'],
      ['a made-up charset', Buffer.from('{"a":1}'), 'application/json; charset=klingon'],
      ['gzip that is not gzip', Buffer.from('{"a":1}'), 'application/json'],
      ['text/plain', Buffer.from('customer_name=x'), 'text/plain'],
      ['XML', Buffer.from('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'), 'application/xml'],
      ['a form nested deep', Buffer.from(`a${'[b]'.repeat(50)}=1&__proto__[admin]=1&constructor[prototype][x]=1`), 'application/x-www-form-urlencoded'],
    ];
    // The body size limits are the parser's, the same for every route: a few routes of each kind show them.
    const heavy: [string, Buffer, string][] = [
      ['over 1 MB', Buffer.from(JSON.stringify({ a: 'x'.repeat(1_100_000) })), 'application/json'],
      ['a form over 1 MB', Buffer.from(`a=${'x'.repeat(1_100_000)}`), 'application/x-www-form-urlencoded'],
      ['a form with 5000 fields', Buffer.from(Array.from({ length: 5000 }, (_, i) => `f${i}=1`).join('&')), 'application/x-www-form-urlencoded'],
    ];
    const sample = new Set(['POST /payg/authenticate', 'POST /payg/register-customer', 'POST /payg/external/receive-phoneteletalk', 'POST /payg/config/create', 'PUT /payg/admin/settings/invoices']);
    for (const target of withBody()) {
      const valid = (target.call.body ?? {}) as Record<string, unknown>;
      const first = target.bodyKeys[0] ?? 'a';
      // Just under the limit, in the first field of an otherwise valid body: the schema's length limit answers.
      const near = Buffer.from(JSON.stringify({ ...valid, [first]: 'y'.repeat(1_000_000) }));
      const payloads = [...light, ...(sample.has(target.key) ? [...heavy, ['0.95 MB in one field', near, 'application/json'] as [string, Buffer, string]] : [])];
      for (const [name, bytes, type] of payloads) {
        const problem = await probe(
          target,
          name,
          (req) => (name.startsWith('gzip') ? raw(req.set('Content-Encoding', 'gzip'), type, bytes) : raw(req, type, bytes)),
          ['a', ...keysOf(bytes)],
        );
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('random and hostile query strings', async () => {
    const problems: string[] = [];
    for (const target of withQuery()) {
      await fc.assert(
        fc.asyncProperty(queryFor(target), async (q) => {
          const problem = await probe(target, `query ${JSON.stringify(q).slice(0, 160)}`, (req) => {
            const r = req.query(q);
            return target.call.body !== undefined ? r.send(target.call.body as object) : r;
          }, Object.keys(q));
          if (problem) problems.push(problem);
          return problem === null;
        }),
        { numRuns: RUNS, endOnFailure: true, seed: SEED },
      ).catch(() => undefined);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('the deepest pages: the largest offset or page a list accepts answers, the next one is a 400 naming it', async () => {
    const problems: string[] = [];
    let lists = 0;
    for (const target of targets) {
      for (const key of target.queryKeys.filter((k) => k === 'offset' || k === 'page')) {
        lists++;
        const at = (v: number) => send(t, target.route.method, { ...target.call, query: { ...target.call.query, [key]: v } }, target.creds);
        // The schema says how deep it goes: a page far past that is refused, naming the field and the limit.
        const refused = await at(2 ** 40);
        const max = Number(/must be at most (\d+)/.exec(refused.text)?.[1]);
        if (refused.status !== 400 || !refused.text.includes(key) || !Number.isSafeInteger(max)) {
          problems.push(`${target.key} ${key}=2^40: ${refused.status} ${refused.text.slice(0, 160)}`);
          continue;
        }
        const deepest = await at(max);
        if (deepest.status >= 300) problems.push(`${target.key} ${key}=${max}: ${deepest.status} ${deepest.text.slice(0, 160)}`);
        const next = await at(max + 1);
        if (next.status !== 400 || !next.text.includes(key)) problems.push(`${target.key} ${key}=${max + 1}: ${next.status} ${next.text.slice(0, 160)}`);
      }
    }
    expect(lists).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  }, 120_000);

  it('hostile path parameters', async () => {
    const problems: string[] = [];
    for (const target of withPath()) {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...target.pathKeys), hostileSegment, async (param, value) => {
          // Rebuild the path from the route template with every other parameter taken from the valid call.
          const template = target.route.path.split('/');
          const real = target.call.path.split('/');
          const path = template.map((seg, i) => (seg === `{${param}}` ? encodeURIComponent(value) : real[i])).join('/');
          const body = target.call.body;
          const problem = await probe({ ...target, call: { ...target.call, path } }, `path ${path.slice(0, 160)}`, (req) => (body !== undefined ? req.send(body as object) : req), [param]);
          if (problem) problems.push(problem);
          return problem === null;
        }),
        { numRuns: Math.ceil(RUNS / 2), endOnFailure: true, seed: SEED },
      ).catch(() => undefined);
    }
    // A URL longer than Node's header limit is refused by Node itself, before the application.
    const long = await t.http.get(`/payg/customers/${'9'.repeat(20_000)}`).set('Authorization', `Bearer ${w.owner.token}`);
    expect(long.status).toBe(431);
    expect(problems).toEqual([]);
  }, 600_000);

  it('malformed multipart bodies and hostile CSV files on the upload routes', async () => {
    const problems: string[] = [];
    const csvCell = hostileString.filter((s) => s.length < 2000);
    for (const target of withFiles().filter((x) => typeof x.call.file?.content === 'string')) {
      const field = target.files[0]!;
      const header = (target.call.file!.content as string).split('\n')[0]!;
      const columns = header.split(',').length;
      const fixed: [string, (req: ReturnType<typeof open>) => PromiseLike<Response>][] = [
        ['no file', (req) => req.field('other', 'x')],
        ['the wrong field', (req) => req.attach('wrong', Buffer.from(`${header}\n`), 'a.csv')],
        ['two files', (req) => req.attach(field, Buffer.from(`${header}\n`), 'a.csv').attach(field, Buffer.from(`${header}\n`), 'b.csv')],
        ['an empty file', (req) => req.attach(field, Buffer.alloc(0), 'a.csv')],
        ['a PNG', (req) => req.attach(field, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 'a.png')],
        ['a ZIP (xlsx)', (req) => req.attach(field, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), 'a.xlsx')],
        ['NUL bytes in the CSV', (req) => req.attach(field, Buffer.from(`${header}\na\u0000b,c\u0000\n`), 'a.csv')],
        [
          'a NUL byte after the first 64 kB',
          (req) => {
            const filler = `${Array(columns).fill('x').join(',')}\n`.repeat(Math.ceil(70_000 / (columns * 2)));
            // A row that is valid but for a NUL in its first cell.
            const row = (target.call.file!.content as string).split('\n')[1]!.replace(/^(.)/, '$1\u0000');
            return req.attach(field, Buffer.from(`${header}\n${filler}${row}\n`), 'a.csv');
          },
        ],
        ['invalid UTF-8 in the CSV', (req) => req.attach(field, Buffer.concat([Buffer.from(`${header}\n`), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x2c, 0x0a])]), 'a.csv')],
        ['a header only', (req) => req.attach(field, Buffer.from(`${header}\n`), 'a.csv')],
        ['no header line', (req) => req.attach(field, Buffer.from('1,2,3\n4,5,6\n'), 'a.csv')],
        ['an unclosed quote', (req) => req.attach(field, Buffer.from(`${header}\n"abc,def\n`), 'a.csv')],
        ['10,000 columns', (req) => req.attach(field, Buffer.from(`${header}\n${'x,'.repeat(10_000)}\n`), 'a.csv')],
        ['a 500 kB line', (req) => req.attach(field, Buffer.from(`${header}\n${'y'.repeat(500_000)}\n`), 'a.csv')],
        ['a file over the upload limit', (req) => req.attach(field, Buffer.alloc(t.config.maxUploadBytes + 1024, 'a'), 'big.csv')],
        ['a file name with a path', (req) => req.attach(field, Buffer.from(`${header}\n`), '../../etc/passwd')],
        [
          'a multipart body cut short',
          (req) => raw(req, 'multipart/form-data; boundary=XYZ', `--XYZ\r\nContent-Disposition: form-data; name="${field}"; filename="a.csv"\r\n\r\n${header}\n`),
        ],
        ['multipart without a boundary', (req) => raw(req, 'multipart/form-data', 'garbage')],
        ['a boundary that never appears', (req) => raw(req, 'multipart/form-data; boundary=nope', '--XYZ\r\n\r\n')],
        ['a part without a name', (req) => raw(req, 'multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--\r\n')],
        ['JSON instead of a file', (req) => req.send({ [field]: 'x' })],
      ];
      for (const [name, send] of fixed) {
        const problem = await probe(target, name, send, [field, 'wrong', 'other']);
        if (problem) problems.push(problem);
      }
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(csvCell, { minLength: 1, maxLength: columns + 1 }), { minLength: 1, maxLength: 5 }), async (rows) => {
          const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
          const csv = `${header}\n${rows.map((r) => r.map(quote).join(',')).join('\n')}\n`;
          const problem = await probe(target, `CSV ${csv.slice(0, 160)}`, (req) => req.attach(field, Buffer.from(csv), 'fuzz.csv'), [field]);
          if (problem) problems.push(problem);
          return problem === null;
        }),
        { numRuns: RUNS, endOnFailure: true, seed: SEED },
      ).catch(() => undefined);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('malformed multipart bodies, hostile files and hostile fields on the document upload', async () => {
    const problems: string[] = [];
    const targets = withFiles().filter((x) => Buffer.isBuffer(x.call.file?.content));
    expect(targets.map((x) => x.key)).toEqual(['POST /payg/customers/{id}/documents']);
    const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (const target of targets) {
      const field = target.files[0]!;
      const fixed: [string, (req: ReturnType<typeof open>) => PromiseLike<Response>][] = [
        ['no file', (req) => req.field('kind', 'photo')],
        ['the wrong field', (req) => req.field('kind', 'photo').attach('wrong', PNG, 'a.png')],
        ['two files', (req) => req.field('kind', 'photo').attach(field, PNG, 'a.png').attach(field, PNG, 'b.png')],
        ['an empty file', (req) => req.field('kind', 'photo').attach(field, Buffer.alloc(0), 'a.png')],
        ['three bytes of a JPEG', (req) => req.field('kind', 'photo').attach(field, Buffer.from([0xff, 0xd8]), 'a.jpg')],
        ['an HTML page named .png', (req) => req.field('kind', 'photo').attach(field, Buffer.from('<html><script>alert(1)</script></html>'), 'a.png')],
        ['an SVG', (req) => req.field('kind', 'photo').attach(field, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.svg')],
        ['a ZIP', (req) => req.field('kind', 'agreement').attach(field, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), 'a.docx')],
        ['a file over the upload limit', (req) => req.field('kind', 'photo').attach(field, Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), 'big.png')],
        ['the kind twice', (req) => req.field('kind', 'photo').field('kind', 'other').attach(field, PNG, 'a.png')],
        ['a kind with NUL', (req) => req.field('kind', 'pho\u0000to').attach(field, PNG, 'a.png')],
        ['a note of 5,000 characters', (req) => req.field('kind', 'photo').field('note', 'n'.repeat(5000)).attach(field, PNG, 'a.png')],
        ['a field named __proto__', (req) => req.field('__proto__', 'x').field('kind', 'photo').attach(field, PNG, 'a.png')],
        ['ten text fields', (req) => Array.from({ length: 10 }, (_, i) => i).reduce((r, i) => r.field(`f${i}`, 'x'), req.field('kind', 'photo')).attach(field, PNG, 'a.png')],
        [
          'a multipart body cut short',
          (req) => raw(req, 'multipart/form-data; boundary=XYZ', `--XYZ\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n\r\n\x89PNG`),
        ],
        ['multipart without a boundary', (req) => raw(req, 'multipart/form-data', 'garbage')],
        ['a part without a name', (req) => raw(req, 'multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--\r\n')],
        ['JSON instead of a file', (req) => req.send({ [field]: 'x', kind: 'photo' })],
      ];
      for (const [name, send] of fixed) {
        const problem = await probe(target, name, send, [field, 'wrong', 'kind', 'note', '__proto__', ...Array.from({ length: 10 }, (_, i) => `f${i}`)]);
        if (problem) problems.push(problem);
      }
      // Any bytes at all as the file, with hostile text as its kind and note: a 201 for a photo or a PDF, else a 4xx naming the field.
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), hostileString, hostileString, async (bytes, kind, note) => {
          const problem = await probe(
            target,
            `kind ${JSON.stringify(kind).slice(0, 80)} note ${JSON.stringify(note).slice(0, 80)} bytes ${Buffer.from(bytes).toString('hex')}`,
            (req) => req.field('kind', kind).field('note', note).attach(field, Buffer.from(bytes), 'fuzz.bin'),
            [field, 'kind', 'note'],
          );
          if (problem) problems.push(problem);
          return problem === null;
        }),
        { numRuns: RUNS, endOnFailure: true, seed: SEED },
      ).catch(() => undefined);
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
