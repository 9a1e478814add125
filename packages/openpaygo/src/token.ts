/**
 * OpenPAYGO Token: generation (server side) and decoding (device side).
 *
 * Written from the OpenPAYGO Token specification and checked against the
 * official vectors of the Python reference. A token is the starting code
 * hashed forward `count` times with SipHash-2-4, with its last 3 digits
 * (6 for extended tokens) replaced by the value offset by the starting
 * code's own last digits. The count's parity carries the type.
 */
import { type SipKey, sipHash24, sipHash8, sipKey } from './siphash.js';
import { type WasmChain, wasmChain } from './chain-wasm.js';

export type TokenType = 'ADD_TIME' | 'SET_TIME' | 'DISABLE_PAYG' | 'COUNTER_SYNC';

export const TOKEN_TYPES: readonly TokenType[] = ['ADD_TIME', 'SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'];

export interface TokenOptions {
  /** 16-byte secret key as 32 hexadecimal characters. */
  secretKey: string;
  /** The device's 9-digit starting code, 0..999999999. */
  startingCode: number;
  /** Keypads with only the digits 1 to 4: 15-digit tokens (20 when extended). */
  restrictedDigitSet?: boolean;
  /** 12-digit tokens carrying values up to 999999 (not part of the 9-digit standard). */
  extendedToken?: boolean;
}

/** Largest ADD_TIME / SET_TIME value in a standard token (996 and 997 are reserved). */
export const MAX_TOKEN_VALUE = 995;
/** Largest ADD_TIME / SET_TIME value in an extended token (996..999 are still refused, see `validateValue`). */
export const MAX_EXTENDED_TOKEN_VALUE = 999_999;
/** Value of a DISABLE_PAYG token: unlock the device forever. */
export const DISABLE_PAYG_VALUE = 998;
/** Value of a COUNTER_SYNC token: only re-synchronise the device's count. */
export const COUNTER_SYNC_VALUE = 999;
/** How far above its last count a device searches for a token. */
export const MAX_TOKEN_JUMP = 64;
/** How far above its last count a device searches for a COUNTER_SYNC token. */
export const MAX_TOKEN_JUMP_COUNTER_SYNC = 100;
/** ADD_TIME tokens up to this many counts below the highest seen are still accepted if unused. */
export const MAX_UNUSED_OLDER_TOKENS = 16;

export type OpenPaygoErrorCode =
  | 'INVALID_SECRET_KEY'
  | 'INVALID_STARTING_CODE'
  | 'INVALID_COUNT'
  | 'INVALID_VALUE'
  | 'INVALID_TOKEN_TYPE'
  | 'INVALID_DIVIDER'
  | 'INVALID_DAYS'
  | 'INVALID_STATE';

/** Thrown on bad input to the token functions; `code` says which input. */
export class OpenPaygoError extends Error {
  readonly code: OpenPaygoErrorCode;

  constructor(code: OpenPaygoErrorCode, message: string) {
    super(message);
    this.name = 'OpenPaygoError';
    this.code = code;
  }
}

// ---------------------------------------------------------------------------
// Input checks

const HEX_KEY = /^[0-9a-fA-F]{32}$/;

export function isValidSecretKey(s: unknown): s is string {
  return typeof s === 'string' && HEX_KEY.test(s);
}

export function isValidStartingCode(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 999_999_999;
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function keyBytes(secretKey: unknown): Uint8Array {
  if (!isValidSecretKey(secretKey)) {
    throw new OpenPaygoError('INVALID_SECRET_KEY', 'The secret key must be 32 hexadecimal characters (16 bytes)');
  }
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) {
    bytes[i] = Number.parseInt(secretKey.slice(i * 2, i * 2 + 2), 16);
  }
  return bytes;
}

function checkStartingCode(startingCode: unknown): number {
  if (!isValidStartingCode(startingCode)) {
    throw new OpenPaygoError('INVALID_STARTING_CODE', 'The starting code must be an integer from 0 to 999999999');
  }
  return startingCode;
}

function checkType(type: unknown): TokenType {
  if (typeof type !== 'string' || !(TOKEN_TYPES as readonly string[]).includes(type)) {
    throw new OpenPaygoError('INVALID_TOKEN_TYPE', `Unknown token type: ${String(type)}`);
  }
  return type as TokenType;
}

// ---------------------------------------------------------------------------
// The hash chain

/** Reverses the bytes of a 32-bit value (big-endian bytes read as a little-endian word). */
function bswap32(x: number): number {
  return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | ((x >>> 24) & 0xff);
}

const hashLo = new Uint32Array(1);

/**
 * Standard chain step: the 4-byte big-endian code repeated to 8 bytes,
 * hashed, folded to 32 bits (high XOR low), bits 2..31 kept, and brought
 * under 10^9.
 */
function nextStandard(key: SipKey, code: number): number {
  const m = bswap32(code);
  const hi = sipHash8(key, m, m, hashLo);
  const folded = (hi ^ hashLo[0]!) >>> 2;
  return folded > 999_999_999 ? folded - 73_741_825 : folded;
}

const TWO_POW_32 = 4_294_967_296;

/** Extended chain step: the 8-byte big-endian code hashed, bits 24..63 kept, brought under 10^12. */
function nextExtended(key: SipKey, code: number): number {
  const codeHi = Math.floor(code / TWO_POW_32);
  const codeLo = code >>> 0;
  // Big-endian bytes read as a little-endian word: the low word holds the swapped high half.
  const hi = sipHash8(key, bswap32(codeLo), bswap32(codeHi), hashLo);
  const bits40 = hi * 256 + (hashLo[0]! >>> 24);
  return bits40 > 999_999_999_999 ? bits40 - 99_511_627_777 : bits40;
}

/** The parameters that differ between standard and extended tokens. */
interface Format {
  readonly modulus: number;
  readonly digits: number;
  readonly restrictedDigits: number;
  readonly extended: boolean;
}

const STANDARD: Format = { modulus: 1000, digits: 9, restrictedDigits: 15, extended: false };
const EXTENDED: Format = { modulus: 1_000_000, digits: 12, restrictedDigits: 20, extended: true };

/**
 * One chain step in either format. A branch rather than a function stored
 * in `Format`, so that each call site stays monomorphic (the indirect call
 * measured ~25% slower once both formats had been used).
 */
function nextCode(key: SipKey, code: number, extended: boolean): number {
  return extended ? nextExtended(key, code) : nextStandard(key, code);
}

const halvesToBigInt = (hi: number, lo: number) => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);

/**
 * The code `steps` chain steps after `code`: in WebAssembly when it is
 * available (native 64-bit lanes: see chain-wasm.ts), else in JavaScript.
 * `engine` is for the tests, which check both paths give the same codes.
 */
export function walkChain(key: SipKey, code: number, steps: number, extended: boolean, engine: WasmChain | null = wasmChain): number {
  if (engine && steps > 0) {
    const k0 = halvesToBigInt(key.k0hi, key.k0lo);
    const k1 = halvesToBigInt(key.k1hi, key.k1lo);
    return extended ? Number(engine.extended(k0, k1, BigInt(code), steps)) : engine.standard(k0, k1, code, steps) >>> 0;
  }
  let c = code;
  for (let i = 0; i < steps; i++) {
    c = nextCode(key, c, extended);
  }
  return c;
}

/**
 * The starting code the reference derives when a device has none: the key
 * hashed with itself, turned into a token number like a chain step.
 */
export function deriveStartingCode(secretKey: string): number {
  const bytes = keyBytes(secretKey);
  const h = sipHash24(sipKey(bytes), bytes);
  const folded = (h.hi ^ h.lo) >>> 2;
  return folded > 999_999_999 ? folded - 73_741_825 : folded;
}

/** Writes a token number as digits 1-4, two bits per digit, most significant first. */
function toRestrictedDigits(n: number, digits: number): string {
  let out = '';
  let rest = n;
  for (let i = 0; i < digits; i++) {
    out = String((rest % 4) + 1) + out;
    rest = Math.floor(rest / 4);
  }
  return out;
}

function fromRestrictedDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    n = n * 4 + (s.charCodeAt(i) - 49);
  }
  return n;
}

// ---------------------------------------------------------------------------
// Server side

/**
 * The count of the next token of `type`: ADD_TIME tokens use even counts,
 * the other types odd counts, so the new count is the next number above
 * `lastCount` with the right parity (lastCount + 1 or + 2).
 */
export function nextCount(lastCount: number, type: TokenType): number {
  if (!isCount(lastCount)) {
    throw new OpenPaygoError('INVALID_COUNT', 'The count must be a non-negative integer');
  }
  const wantOdd = checkType(type) !== 'ADD_TIME';
  const lastIsOdd = lastCount % 2 === 1;
  return lastIsOdd === wantOdd ? lastCount + 2 : lastCount + 1;
}

function validateValue(type: TokenType, value: number | undefined, extended: boolean): number {
  if (type === 'DISABLE_PAYG' || type === 'COUNTER_SYNC') {
    const fixed = type === 'DISABLE_PAYG' ? DISABLE_PAYG_VALUE : COUNTER_SYNC_VALUE;
    if (value !== undefined && value !== fixed) {
      throw new OpenPaygoError('INVALID_VALUE', `A ${type} token carries no value (it is always ${fixed})`);
    }
    return fixed;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new OpenPaygoError('INVALID_VALUE', `A ${type} token needs an integer value of 0 or more`);
  }
  const max = extended ? MAX_EXTENDED_TOKEN_VALUE : MAX_TOKEN_VALUE;
  if (value > max) {
    throw new OpenPaygoError('INVALID_VALUE', `The value ${value} is above the maximum of ${max}`);
  }
  // Devices read 998 and 999 on an odd count as DISABLE_PAYG / COUNTER_SYNC
  // whatever the token length, and 996-997 are reserved: keep them out of
  // extended tokens too so that a decoded type is never ambiguous.
  if (value >= 996 && value <= 999) {
    throw new OpenPaygoError('INVALID_VALUE', `The value ${value} is reserved (996 to 999)`);
  }
  return value;
}

/**
 * Generates the next token for a device.
 *
 * `lastCount` is the count of the last token issued to the device; the
 * returned `count` must be stored as the new last count. `value` is the raw
 * token value (days, or days x divider: see `daysToValue`); DISABLE_PAYG and
 * COUNTER_SYNC set theirs (998, 999). Throws `OpenPaygoError` on bad input.
 */
export function generateToken(
  opts: TokenOptions & { lastCount: number; type: TokenType; value?: number },
): { token: string; count: number; value: number } {
  const key = sipKey(keyBytes(opts.secretKey));
  const startingCode = checkStartingCode(opts.startingCode);
  const type = checkType(opts.type);
  const extended = opts.extendedToken === true;
  const value = validateValue(type, opts.value, extended);
  const count = nextCount(opts.lastCount, type);
  const format = extended ? EXTENDED : STANDARD;

  const { modulus } = format;
  const base = ((startingCode % modulus) + value) % modulus;
  const code = walkChain(key, startingCode - (startingCode % modulus) + base, count, extended);
  const tokenNumber = code - (code % modulus) + base;
  const token =
    opts.restrictedDigitSet === true
      ? toRestrictedDigits(tokenNumber, format.restrictedDigits)
      : String(tokenNumber).padStart(format.digits, '0');
  return { token, count, value };
}

/** 16 random bytes as 32 lowercase hex characters (Web Crypto by default). */
export function generateSecretKey(randomBytes?: (n: number) => Uint8Array): string {
  let bytes: Uint8Array;
  if (randomBytes) {
    bytes = randomBytes(16);
  } else {
    const webCrypto = (globalThis as { crypto?: { getRandomValues(a: Uint8Array): Uint8Array } }).crypto;
    if (!webCrypto) {
      throw new Error('No globalThis.crypto.getRandomValues here: pass a randomBytes function');
    }
    bytes = webCrypto.getRandomValues(new Uint8Array(16));
  }
  if (!(bytes instanceof Uint8Array) || bytes.length !== 16) {
    throw new Error('randomBytes(16) must return 16 bytes');
  }
  let hex = '';
  for (const b of bytes) {
    hex += b.toString(16).padStart(2, '0');
  }
  return hex;
}

// ---------------------------------------------------------------------------
// Values and days

function checkDivider(divider: number): void {
  if (typeof divider !== 'number' || !Number.isFinite(divider) || divider <= 0) {
    throw new OpenPaygoError('INVALID_DIVIDER', 'The value divider must be a positive number');
  }
}

/**
 * Days to a token value: `days x divider`, rounded half away from zero
 * (2.5 -> 3, 0.5 -> 1) after snapping the product to 9 decimal places, so
 * that binary noise such as 1.005 x 100 = 100.49999999999999 still rounds
 * as the decimal 100.5 does. This differs on purpose from Python's `round`
 * (half to even: 2.5 -> 2) in the reference encoder. Days must be a finite
 * number >= 0; the result is not range-checked here (`generateToken` does).
 */
export function daysToValue(days: number, divider = 1): number {
  checkDivider(divider);
  if (typeof days !== 'number' || !Number.isFinite(days) || days < 0) {
    throw new OpenPaygoError('INVALID_DAYS', 'Days must be a finite number of 0 or more');
  }
  const product = Number((days * divider).toFixed(9));
  return Math.floor(product + 0.5);
}

/** A token value back to days: `value / divider` (no rounding). */
export function valueToDays(value: number, divider = 1): number {
  checkDivider(divider);
  return value / divider;
}

/** Groups a token's digits in threes for SMS: "123456789" -> "123 456 789". */
export function formatToken(token: string): string {
  const digits = token.replace(/\s+/g, '');
  return digits.replace(/(\d{3})(?=\d)/g, '$1 ');
}

// ---------------------------------------------------------------------------
// Device side

/**
 * What a device remembers between tokens. `lastCount` is the highest count
 * accepted so far. `usedCounts` lists the used counts in the window
 * (lastCount - 16, lastCount]; every count at or below lastCount - 16 is
 * used by definition. Start a device with `initialTokenState(count)`.
 */
export interface DeviceTokenState {
  lastCount: number;
  usedCounts: number[];
}

export interface DecodeResult {
  status: 'VALID' | 'ALREADY_USED' | 'INVALID';
  /** The token's type (VALID, and ALREADY_USED for the matching used count). */
  type?: TokenType;
  /** The raw token value (divide by the device's value divider for days). */
  value?: number;
  count?: number;
  /** The state after this token (unchanged unless VALID). */
  state: DeviceTokenState;
}

/** The window of counts kept in `usedCounts` below and including `lastCount`. */
function windowBottom(lastCount: number): number {
  return lastCount - MAX_UNUSED_OLDER_TOKENS;
}

/**
 * The state of a device whose last count is `lastCount`: every count up to
 * it is treated as used, so only tokens issued after it are accepted.
 */
export function initialTokenState(lastCount = 0): DeviceTokenState {
  if (!isCount(lastCount)) {
    throw new OpenPaygoError('INVALID_COUNT', 'The count must be a non-negative integer');
  }
  const usedCounts: number[] = [];
  for (let c = Math.max(0, windowBottom(lastCount) + 1); c <= lastCount; c++) {
    usedCounts.push(c);
  }
  return { lastCount, usedCounts };
}

function checkState(state: DeviceTokenState): void {
  if (
    typeof state !== 'object' ||
    state === null ||
    !isCount(state.lastCount) ||
    !Array.isArray(state.usedCounts) ||
    !state.usedCounts.every(isCount)
  ) {
    throw new OpenPaygoError('INVALID_STATE', 'The device state needs a lastCount and a list of used counts');
  }
}

function isUsed(state: DeviceTokenState, count: number): boolean {
  return count <= windowBottom(state.lastCount) || state.usedCounts.includes(count);
}

function typeOf(count: number, value: number): TokenType {
  if (count % 2 === 0) {
    return 'ADD_TIME';
  }
  if (value === DISABLE_PAYG_VALUE) {
    return 'DISABLE_PAYG';
  }
  return value === COUNTER_SYNC_VALUE ? 'COUNTER_SYNC' : 'SET_TIME';
}

function acceptable(state: DeviceTokenState, count: number, type: TokenType): boolean {
  if (count > state.lastCount) {
    return true;
  }
  return type === 'ADD_TIME' && !isUsed(state, count);
}

function stateAfter(state: DeviceTokenState, count: number, type: TokenType): DeviceTokenState {
  const lastCount = Math.max(state.lastCount, count);
  const bottom = windowBottom(lastCount);
  const usedCounts: number[] = [];
  for (let c = Math.max(0, bottom + 1); c <= lastCount; c++) {
    // ADD_TIME marks only its own count (earlier gaps stay usable); the
    // other types close every older count.
    if (type !== 'ADD_TIME' || c === count || isUsed(state, c)) {
      usedCounts.push(c);
    }
  }
  return { lastCount, usedCounts };
}

/**
 * Decodes a token as a device does. Spaces are ignored; a token of the
 * wrong length, with non-digits, or with digits outside 1-4 on a
 * restricted keypad is INVALID. A 9-digit (15 restricted) token is read as
 * standard; a 12-digit (20 restricted) one as extended, only when
 * `extendedToken` is set. Counts from 0 to lastCount + 64 (+ 100 for a
 * COUNTER_SYNC value) are tried; a match is VALID above the last count, or
 * for ADD_TIME within the 16 counts below it when not used yet, otherwise
 * ALREADY_USED. Throws `OpenPaygoError` on a bad key, starting code or state.
 */
export function decodeToken(opts: TokenOptions & { state: DeviceTokenState; token: string }): DecodeResult {
  const key = sipKey(keyBytes(opts.secretKey));
  const startingCode = checkStartingCode(opts.startingCode);
  const { state } = opts;
  checkState(state);
  const invalid: DecodeResult = { status: 'INVALID', state };

  const input = typeof opts.token === 'string' ? opts.token.replace(/\s+/g, '') : '';
  const restricted = opts.restrictedDigitSet === true;
  if (!(restricted ? /^[1-4]+$/ : /^\d+$/).test(input)) {
    return invalid;
  }
  let format: Format;
  if (input.length === (restricted ? STANDARD.restrictedDigits : STANDARD.digits)) {
    format = STANDARD;
  } else if (opts.extendedToken === true && input.length === (restricted ? EXTENDED.restrictedDigits : EXTENDED.digits)) {
    format = EXTENDED;
  } else {
    return invalid;
  }
  const tokenNumber = restricted ? fromRestrictedDigits(input) : Number(input);

  const { modulus, extended } = format;
  const base = tokenNumber % modulus;
  const tokenHigh = tokenNumber - base;
  const value = (base - (startingCode % modulus) + modulus) % modulus;
  const maxCount = state.lastCount + (value === COUNTER_SYNC_VALUE ? MAX_TOKEN_JUMP_COUNTER_SYNC : MAX_TOKEN_JUMP);

  let usedMatch: DecodeResult | undefined;
  let code = startingCode - (startingCode % modulus) + base;
  for (let count = 0; count <= maxCount; count++) {
    if (code - (code % modulus) === tokenHigh) {
      const type = typeOf(count, value);
      // No encoder emits ADD_TIME/SET_TIME with the reserved values 996-999:
      // such a match is a hash collision, not a token for this device.
      if ((type === 'ADD_TIME' || type === 'SET_TIME') && value > MAX_TOKEN_VALUE && value <= COUNTER_SYNC_VALUE) {
        code = nextCode(key, code, extended);
        continue;
      }
      if (acceptable(state, count, type)) {
        return { status: 'VALID', type, value, count, state: stateAfter(state, count, type) };
      }
      usedMatch = { status: 'ALREADY_USED', type, value, count, state };
    }
    code = nextCode(key, code, extended);
  }
  return usedMatch ?? invalid;
}
