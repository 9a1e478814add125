import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CliIo, main } from '../src/device-sim.js';
import { generateToken } from '../src/index.js';
import { KEY, STARTING_CODE } from './helpers.js';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NOW = '2026-03-01T08:00:00Z';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'device-sim-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir, ...extra });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const token = (lastCount: number, type: 'ADD_TIME' | 'SET_TIME' | 'DISABLE_PAYG' | 'COUNTER_SYNC', value?: number) =>
  generateToken({ secretKey: KEY, startingCode: STARTING_CODE, lastCount, type, value }).token;

describe('device-sim main()', () => {
  it('init, enter a token, status, replay', async () => {
    const state = 'a.json';
    const init = await run(['init', '--key', KEY, '--starting-code', String(STARTING_CODE), '--state', state]);
    expect(init.code).toBe(0);
    expect(init.out).toContain(`Starting code: ${STARTING_CODE}`);
    expect(init.out).toContain('Last count: 1');

    const t = token(1, 'ADD_TIME', 7);
    const spaced = `${t.slice(0, 3)} ${t.slice(3, 6)} ${t.slice(6)}`;
    const enter = await run(['enter', spaced, '--now', NOW, '--state', state]);
    expect(enter).toMatchObject({ code: 0, out: 'VALID ADD_TIME 7 days (count 2). Credit left: 7.0 days' });

    const status = await run(['status', '--now', '2026-03-03T20:00:00Z', '--state', state]);
    expect(status.code).toBe(0);
    expect(status.out).toBe('Credit left: 4.5 days\nLast count: 2');

    const replay = await run(['enter', t, '--now', NOW, '--state', state]);
    expect(replay.code).toBe(1);
    expect(replay.out).toMatch(/^ALREADY_USED/);

    const saved = JSON.parse(readFileSync(join(dir, state), 'utf8'));
    expect(saved.tokenState.lastCount).toBe(2);
  });

  it('accepts the token split over several arguments', async () => {
    await run(['init', '--key', KEY, '--starting-code', String(STARTING_CODE), '--state', 'split.json']);
    const t = token(1, 'SET_TIME', 3);
    const enter = await run(['enter', t.slice(0, 3), t.slice(3, 6), t.slice(6), '--now', NOW, '--state', 'split.json']);
    expect(enter).toMatchObject({ code: 0, out: 'VALID SET_TIME 3 days (count 3). Credit left: 3.0 days' });
  });

  it('derives the starting code when none is given and uses ./device-sim.json by default', async () => {
    const init = await run(['init', '--key', KEY]);
    expect(init.out).toContain('Starting code: 901467777 (derived from the key)');
    expect(JSON.parse(readFileSync(join(dir, 'device-sim.json'), 'utf8')).config.startingCode).toBe(901467777);
  });

  it('invalid tokens print the wait and exit 1', async () => {
    await run(['init', '--key', KEY, '--state', 'bad.json']);
    const first = await run(['enter', '111111111', '--now', NOW, '--state', 'bad.json']);
    expect(first).toMatchObject({ code: 1, out: 'INVALID (wait 2 s before the next try)' });
    const blocked = await run(['enter', '111111111', '--now', '2026-03-01T08:00:01Z', '--state', 'bad.json']);
    expect(blocked).toMatchObject({ code: 1, out: 'BLOCKED (wait 1 s before the next try)' });
    const second = await run(['enter', '111111111', '--now', '2026-03-01T08:00:02Z', '--state', 'bad.json']);
    expect(second.out).toBe('INVALID (wait 4 s before the next try)');
  });

  it('DISABLE_PAYG shows unlocked forever; divider and extended options are kept', async () => {
    await run(['init', '--key', KEY, '--starting-code', String(STARTING_CODE), '--divider', '4', '--extended', '--state', 'd.json']);
    const add = generateToken({ secretKey: KEY, startingCode: STARTING_CODE, extendedToken: true, lastCount: 1, type: 'ADD_TIME', value: 6 });
    expect((await run(['enter', add.token, '--now', NOW, '--state', 'd.json'])).out).toBe(
      'VALID ADD_TIME 1.5 days (count 2). Credit left: 1.5 days',
    );
    const disable = await run(['enter', token(2, 'DISABLE_PAYG'), '--now', NOW, '--state', 'd.json']);
    expect(disable.out).toBe('VALID DISABLE_PAYG (count 3). Unlocked forever');
    expect((await run(['status', '--state', 'd.json'])).out).toBe('Unlocked forever\nLast count: 3');
  });

  it('token prints a token and the new count', async () => {
    const out = await run(['token', '--key', KEY, '--starting-code', String(STARTING_CODE), '--count', '1', '--type', 'add_time', '--value', '1']);
    expect(out).toMatchObject({ code: 0, out: 'Token: 588 224 011\nNew count: 2' });
    const restricted = await run(['token', '--key', KEY, '--starting-code', String(STARTING_CODE), '--count', '1', '--type', 'ADD_TIME', '--value', '1', '--restricted']);
    expect(restricted.out).toBe('Token: 314 114 432 231 134\nNew count: 2');
    const extended = await run(['token', '--key', KEY, '--starting-code', String(STARTING_CODE), '--count', '1', '--type', 'add_time', '--value', '1', '--extended']);
    expect(extended.out).toBe('Token: 247 264 959 011\nNew count: 2');
    const days = await run(['token', '--key', KEY, '--starting-code', String(STARTING_CODE), '--count', '1', '--type', 'add_time', '--days', '1.5', '--divider', '4']);
    expect(days.out).toBe(`Token: ${token(1, 'ADD_TIME', 6).replace(/(\d{3})(?=\d)/g, '$1 ')}\nNew count: 2`);
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await run(['enter', '123456789', '--state', 'missing.json'])).code).toBe(2);
    expect((await run(['init'])).code).toBe(2);
    expect((await run(['init', '--key', 'xyz'])).code).toBe(2);
    expect((await run(['token', '--key', KEY, '--count', '1', '--type', 'add_time', '--value', '996'])).err).toContain('maximum of 995');
    expect((await run(['token', '--key', KEY, '--count', '1', '--type', 'add_time', '--value', '998', '--extended'])).err).toContain('reserved');
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['--bogus'])).code).toBe(2);
    expect((await run([], { isTTY: false })).code).toBe(2);
  });

  it('reads tokens line by line in interactive mode', async () => {
    await run(['init', '--key', KEY, '--starting-code', String(STARTING_CODE), '--state', 'i.json']);
    const input = new PassThrough();
    input.end(`${token(1, 'ADD_TIME', 2)}\n\nstatus\n${token(1, 'ADD_TIME', 2)}\nquit\n${token(2, 'ADD_TIME', 5)}\n`);
    const result = await run(['--state', 'i.json', '--now', NOW], { isTTY: true, input });
    expect(result.code).toBe(0);
    expect(result.out.split('\n').slice(1)).toEqual([
      'VALID ADD_TIME 2 days (count 2). Credit left: 2.0 days',
      'Credit left: 2.0 days. Last count: 2',
      'ALREADY_USED (count 2 was entered before)',
    ]);
  });
});

describe('the built CLI', () => {
  let outDir: string;

  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'device-sim-build-'));
    execFileSync(join(packageDir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], {
      cwd: packageDir,
    });
  });

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(outDir, 'device-sim.js'), ...args], { cwd: dir, encoding: 'utf8' });

  it('runs init, enter, status and refuses a replay with exit code 1', () => {
    const state = ['--state', 'built.json'];
    const init = cli('init', '--key', KEY, '--starting-code', String(STARTING_CODE), ...state);
    expect(init.status).toBe(0);
    const t = token(1, 'ADD_TIME', 7);
    const enter = cli('enter', t, '--now', NOW, ...state);
    expect(enter.status).toBe(0);
    expect(enter.stdout).toBe('VALID ADD_TIME 7 days (count 2). Credit left: 7.0 days\n');
    const status = cli('status', '--now', NOW, ...state);
    expect(status.stdout).toContain('Credit left: 7.0 days');
    const replay = cli('enter', t, '--now', NOW, ...state);
    expect(replay.status).toBe(1);
    expect(replay.stdout).toMatch(/^ALREADY_USED/);
  });
});
