#!/usr/bin/env node
/**
 * Device simulator: a PAYG device on the command line, its state kept in a
 * JSON file. Field staff and tests use it to check tokens the server sends.
 *
 *   device-sim init --key HEX [--starting-code N] [--restricted] [--extended] [--divider N] [--count N]
 *   device-sim enter TOKEN [--now ISO]
 *   device-sim status [--now ISO]
 *   device-sim token --key HEX [--starting-code N] --count N --type TYPE (--value N | --days D [--divider N])
 *   device-sim            (on a terminal: type tokens line by line)
 */
import { realpathSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { Device, type DeviceSnapshot, type EnterTokenResult } from './device.js';
import {
  OpenPaygoError,
  TOKEN_TYPES,
  type TokenType,
  daysToValue,
  deriveStartingCode,
  formatToken,
  generateToken,
} from './token.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Directory the state file path is resolved from. */
  cwd: string;
  /** Line source for the interactive prompt. */
  input?: NodeJS.ReadableStream;
  isTTY?: boolean;
}

const DEFAULT_STATE_FILE = 'device-sim.json';

const USAGE = `Usage: device-sim <command> [options]

Commands:
  init --key HEX [--starting-code N] [--restricted] [--extended] [--divider N] [--count N]
        Create a simulated device (starting code derived from the key when absent; last count default 1).
  enter TOKEN [--now ISO]
        Type a token on the device (spaces allowed). Exit code 0 when VALID, 1 otherwise.
  status [--now ISO]
        Credit left and last count.
  token --key HEX [--starting-code N] --count N --type TYPE (--value N | --days D [--divider N]) [--restricted] [--extended]
        Generate a test token after count N (TYPE: add_time, set_time, disable_payg, counter_sync).
  (no command, on a terminal)
        Interactive prompt: one token per line; "status" or "quit".

Options:
  --state FILE   device state file (default ./${DEFAULT_STATE_FILE})
  --now ISO      the current instant, for reproducible runs (default: the clock)`;

class UsageError extends Error {}

function parseInteger(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(raw)) {
    throw new UsageError(`--${name} must be a non-negative integer, got "${raw}"`);
  }
  return Number(raw);
}

function parseNumber(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) {
    throw new UsageError(`--${name} must be a number, got "${raw}"`);
  }
  return n;
}

function parseNow(raw: string | undefined): Date {
  if (raw === undefined) {
    return new Date();
  }
  const now = new Date(raw);
  if (Number.isNaN(now.getTime())) {
    throw new UsageError(`--now must be an ISO date, got "${raw}"`);
  }
  return now;
}

function parseType(raw: string | undefined): TokenType {
  const type = (raw ?? '').toUpperCase();
  if (!(TOKEN_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`--type must be one of ${TOKEN_TYPES.join(', ').toLowerCase()}`);
  }
  return type as TokenType;
}

function formatDays(days: number): string {
  return `${days.toFixed(1)} days`;
}

function creditLine(device: Device, now: Date): string {
  return device.unlockedForever ? 'Unlocked forever' : `Credit left: ${formatDays(device.daysLeft(now))}`;
}

function describe(result: EnterTokenResult, device: Device, now: Date): string {
  switch (result.status) {
    case 'VALID': {
      const what = result.days === undefined ? result.type : `${result.type} ${result.days} days`;
      return `VALID ${what} (count ${result.count}). ${creditLine(device, now)}`;
    }
    case 'ALREADY_USED':
      return `ALREADY_USED (count ${result.count} was entered before)`;
    case 'INVALID':
      return `INVALID (wait ${result.waitSeconds} s before the next try)`;
    case 'BLOCKED':
      return `BLOCKED (wait ${result.waitSeconds} s before the next try)`;
  }
}

async function loadDevice(path: string): Promise<Device> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`No device state in ${path}: run "device-sim init --key HEX" first`);
  }
  return Device.fromSnapshot(JSON.parse(text) as DeviceSnapshot);
}

async function saveDevice(path: string, device: Device): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeFile(tmp, `${JSON.stringify(device.toSnapshot(), null, 2)}\n`);
  await rename(tmp, path);
}

async function interactive(statePath: string, nowRaw: string | undefined, io: CliIo): Promise<number> {
  const device = await loadDevice(statePath);
  const rl = createInterface({ input: io.input ?? process.stdin, terminal: false });
  io.out('Type a token and press Enter ("status" shows the credit, "quit" leaves).');
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === '') {
      continue;
    }
    if (line === 'quit' || line === 'exit') {
      break;
    }
    const now = parseNow(nowRaw);
    if (line === 'status') {
      io.out(`${creditLine(device, now)}. Last count: ${device.lastCount}`);
      continue;
    }
    io.out(describe(device.enterToken(line, now), device, now));
    await saveDevice(statePath, device);
  }
  rl.close();
  return 0;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      state: { type: 'string' },
      key: { type: 'string' },
      'starting-code': { type: 'string' },
      restricted: { type: 'boolean' },
      extended: { type: 'boolean' },
      divider: { type: 'string' },
      count: { type: 'string' },
      now: { type: 'string' },
      type: { type: 'string' },
      value: { type: 'string' },
      days: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;
  const statePath = resolve(io.cwd, values.state ?? DEFAULT_STATE_FILE);

  switch (command) {
    case 'init': {
      if (values.key === undefined) {
        throw new UsageError('init needs --key HEX (32 hexadecimal characters)');
      }
      const given = parseInteger(values['starting-code'], 'starting-code');
      const startingCode = given ?? deriveStartingCode(values.key);
      const device = new Device(
        {
          secretKey: values.key,
          startingCode,
          restrictedDigitSet: values.restricted === true,
          extendedToken: values.extended === true,
          valueDivider: parseNumber(values.divider, 'divider') ?? 1,
        },
        parseInteger(values.count, 'count') ?? 1,
      );
      await saveDevice(statePath, device);
      io.out(`Device created in ${statePath}`);
      io.out(`Starting code: ${startingCode}${given === undefined ? ' (derived from the key)' : ''}`);
      io.out(`Last count: ${device.lastCount}`);
      return 0;
    }
    case 'enter': {
      const token = rest.join('');
      if (token === '') {
        throw new UsageError('enter needs a token');
      }
      const now = parseNow(values.now);
      const device = await loadDevice(statePath);
      const result = device.enterToken(token, now);
      await saveDevice(statePath, device);
      io.out(describe(result, device, now));
      return result.status === 'VALID' ? 0 : 1;
    }
    case 'status': {
      const now = parseNow(values.now);
      const device = await loadDevice(statePath);
      io.out(creditLine(device, now));
      io.out(`Last count: ${device.lastCount}`);
      const wait = device.waitSecondsLeft(now);
      if (wait > 0) {
        io.out(`Keypad blocked for ${wait} s after invalid tokens`);
      }
      return 0;
    }
    case 'token': {
      if (values.key === undefined) {
        throw new UsageError('token needs --key HEX');
      }
      const lastCount = parseInteger(values.count, 'count');
      if (lastCount === undefined) {
        throw new UsageError('token needs --count N (the last count used for the device)');
      }
      const type = parseType(values.type);
      let value = parseInteger(values.value, 'value');
      const days = parseNumber(values.days, 'days');
      if (value === undefined && days !== undefined) {
        value = daysToValue(days, parseNumber(values.divider, 'divider') ?? 1);
      }
      const startingCode = parseInteger(values['starting-code'], 'starting-code') ?? deriveStartingCode(values.key);
      const generated = generateToken({
        secretKey: values.key,
        startingCode,
        restrictedDigitSet: values.restricted === true,
        extendedToken: values.extended === true,
        lastCount,
        type,
        value,
      });
      io.out(`Token: ${formatToken(generated.token)}`);
      io.out(`New count: ${generated.count}`);
      return 0;
    }
    case undefined: {
      if (io.isTTY) {
        return interactive(statePath, values.now, io);
      }
      io.err(USAGE);
      return 2;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** Runs the simulator with `argv` (without node and the script). Resolves to the exit code. */
export async function main(argv: string[], io?: CliIo): Promise<number> {
  const cliIo: CliIo = io ?? {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    input: process.stdin,
    isTTY: process.stdin.isTTY === true,
  };
  try {
    return await run(argv, cliIo);
  } catch (error) {
    if (error instanceof UsageError || error instanceof OpenPaygoError) {
      cliIo.err(`Error: ${error.message}`);
      return 2;
    }
    if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      cliIo.err(`Error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) {
    return false;
  }
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  // `device-sim token ... | head -1` closes stdout early: not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      throw error;
    }
  });
  process.exitCode = await main(process.argv.slice(2));
}
