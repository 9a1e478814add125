import { describe, expect, it } from 'vitest';

import {
  COUNTER_SYNC_VALUE,
  DISABLE_PAYG_VALUE,
  type DeviceTokenState,
  MAX_TOKEN_VALUE,
  OpenPaygoError,
  type TokenOptions,
  type TokenType,
  daysToValue,
  decodeToken,
  formatToken,
  generateSecretKey,
  generateToken,
  initialTokenState,
  isValidSecretKey,
  isValidStartingCode,
  nextCount,
  valueToDays,
} from '../src/index.js';
import { KEY, MODES, STARTING_CODE, tokenAt } from './helpers.js';

const STANDARD: TokenOptions = { secretKey: KEY, startingCode: STARTING_CODE };

function decode(state: DeviceTokenState, token: string, opts: TokenOptions = STANDARD) {
  return decodeToken({ ...opts, state, token });
}

function expectError(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(OpenPaygoError);
  expect((caught as OpenPaygoError).code).toBe(code);
}

describe('round trips for every type in every mode', () => {
  const cases: Array<{ type: TokenType; value?: number }> = [
    { type: 'ADD_TIME', value: 7 },
    { type: 'ADD_TIME', value: 0 },
    { type: 'SET_TIME', value: MAX_TOKEN_VALUE },
    { type: 'DISABLE_PAYG' },
    { type: 'COUNTER_SYNC' },
  ];
  for (const mode of MODES) {
    for (const { type, value } of cases) {
      it(`${mode.name} ${type} ${value ?? ''}`, () => {
        const opts = { ...STANDARD, ...mode };
        const generated = generateToken({ ...opts, lastCount: 41, type, value });
        const digits = (mode.extendedToken ? 12 : 9) + (mode.restrictedDigitSet ? (mode.extendedToken ? 8 : 6) : 0);
        expect(generated.token).toHaveLength(digits);
        if (mode.restrictedDigitSet) {
          expect(generated.token).toMatch(/^[1-4]+$/);
        }
        const state = initialTokenState(41);
        const decoded = decode(state, generated.token, opts);
        expect(decoded).toMatchObject({ status: 'VALID', type, count: generated.count, value: generated.value });
        // The same token again is refused.
        expect(decode(decoded.state, generated.token, opts).status).toBe('ALREADY_USED');
        // The input state is not mutated.
        expect(state).toEqual(initialTokenState(41));
      });
    }
  }

  it('extended tokens carry values up to 999999', () => {
    const opts = { ...STANDARD, extendedToken: true };
    for (const value of [1000, 123456, 999999]) {
      const generated = generateToken({ ...opts, lastCount: 3, type: 'ADD_TIME', value });
      expect(decode(initialTokenState(3), generated.token, opts)).toMatchObject({ status: 'VALID', value });
    }
  });

  it('a device without extended support refuses 12-digit tokens but reads 9-digit ones', () => {
    const extended = generateToken({ ...STANDARD, extendedToken: true, lastCount: 1, type: 'ADD_TIME', value: 5 });
    expect(decode(initialTokenState(1), extended.token).status).toBe('INVALID');
    const standard = generateToken({ ...STANDARD, lastCount: 1, type: 'ADD_TIME', value: 5 });
    expect(decode(initialTokenState(1), standard.token, { ...STANDARD, extendedToken: true }).status).toBe('VALID');
  });

  it('accepts the token with spaces, as sent by SMS', () => {
    const generated = generateToken({ ...STANDARD, lastCount: 1, type: 'ADD_TIME', value: 3 });
    expect(decode(initialTokenState(1), formatToken(generated.token)).status).toBe('VALID');
  });
});

describe('malformed tokens are INVALID', () => {
  const state = initialTokenState(1);
  it.each(['', '58822401', '5882240111', '58822401a', '588-224-011', '１２３４５６７８９'])('standard "%s"', (token) => {
    expect(decode(state, token).status).toBe('INVALID');
  });

  it('restricted tokens with digits outside 1-4 or the wrong length', () => {
    const opts = { ...STANDARD, restrictedDigitSet: true };
    expect(decode(state, '314114432231134', opts).status).toBe('VALID');
    expect(decode(state, '314114432231135', opts).status).toBe('INVALID');
    expect(decode(state, '314114432231104', opts).status).toBe('INVALID');
    expect(decode(state, '31411443223113', opts).status).toBe('INVALID');
    expect(decode(state, '588224011', opts).status).toBe('INVALID');
  });

  it('a wrong but well-formed token', () => {
    expect(decode(state, '123456789').status).toBe('INVALID');
  });
});

describe('the count window', () => {
  const last = 10;

  it('accepts a token up to 64 counts ahead and refuses one 65 or more ahead', () => {
    expect(decode(initialTokenState(last), tokenAt(STANDARD, last + 64, 'ADD_TIME', 1)).status).toBe('VALID');
    expect(decode(initialTokenState(last), tokenAt(STANDARD, last + 63, 'SET_TIME', 1)).status).toBe('VALID');
    expect(decode(initialTokenState(last), tokenAt(STANDARD, last + 65, 'SET_TIME', 1)).status).toBe('INVALID');
    expect(decode(initialTokenState(last), tokenAt(STANDARD, last + 66, 'ADD_TIME', 1)).status).toBe('INVALID');
  });

  it('searches 100 counts ahead for COUNTER_SYNC', () => {
    const sync99 = tokenAt(STANDARD, last + 99, 'COUNTER_SYNC');
    expect(decode(initialTokenState(last), sync99)).toMatchObject({ status: 'VALID', count: last + 99 });
    expect(decode(initialTokenState(last), tokenAt(STANDARD, last + 101, 'COUNTER_SYNC')).status).toBe('INVALID');
    // DISABLE_PAYG gets no such extension.
    expect(decode(initialTokenState(last), tokenAt(STANDARD, last + 99, 'DISABLE_PAYG')).status).toBe('INVALID');
  });

  it('after a COUNTER_SYNC far ahead, the next tokens work again', () => {
    const synced = decode(initialTokenState(last), tokenAt(STANDARD, last + 99, 'COUNTER_SYNC'));
    const next = generateToken({ ...STANDARD, lastCount: last + 99, type: 'ADD_TIME', value: 5 });
    expect(decode(synced.state, next.token)).toMatchObject({ status: 'VALID', count: last + 100 });
  });

  it('accepts unused ADD_TIME tokens within the 16 counts below the highest seen', () => {
    let state = initialTokenState(1);
    state = decode(state, tokenAt(STANDARD, 40, 'ADD_TIME', 4)).state;
    expect(state.lastCount).toBe(40);
    const older26 = tokenAt(STANDARD, 26, 'ADD_TIME', 2);
    const first = decode(state, older26);
    expect(first).toMatchObject({ status: 'VALID', count: 26, value: 2 });
    expect(first.state.lastCount).toBe(40);
    expect(decode(first.state, older26).status).toBe('ALREADY_USED');
    // 24 = 40 - 16 is out of the window.
    expect(decode(first.state, tokenAt(STANDARD, 24, 'ADD_TIME', 2)).status).toBe('ALREADY_USED');
    expect(decode(first.state, tokenAt(STANDARD, 38, 'ADD_TIME', 2)).status).toBe('VALID');
  });

  it('refuses older SET_TIME tokens even when unused', () => {
    let state = initialTokenState(1);
    state = decode(state, tokenAt(STANDARD, 40, 'ADD_TIME', 4)).state;
    expect(decode(state, tokenAt(STANDARD, 39, 'SET_TIME', 4)).status).toBe('ALREADY_USED');
  });

  it.each(['SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'] as const)('%s marks every older count used', (type) => {
    let state = initialTokenState(1);
    state = decode(state, tokenAt(STANDARD, 40, 'ADD_TIME', 4)).state;
    const closing = decode(state, tokenAt(STANDARD, 41, type, type === 'SET_TIME' ? 3 : undefined));
    expect(closing).toMatchObject({ status: 'VALID', type, count: 41 });
    for (const older of [38, 36, 30]) {
      expect(decode(closing.state, tokenAt(STANDARD, older, 'ADD_TIME', 1)).status).toBe('ALREADY_USED');
    }
    // Newer tokens still work.
    expect(decode(closing.state, tokenAt(STANDARD, 42, 'ADD_TIME', 1)).status).toBe('VALID');
  });

  it('keeps only the 16-count window in usedCounts', () => {
    let state = initialTokenState(1);
    for (let count = 2; count <= 60; count += 2) {
      state = decode(state, tokenAt(STANDARD, count, 'ADD_TIME', 1)).state;
    }
    expect(state.lastCount).toBe(60);
    expect(Math.min(...state.usedCounts)).toBeGreaterThan(60 - 16);
    expect(state.usedCounts).toEqual([46, 48, 50, 52, 54, 56, 58, 60]);
  });

  it('a fresh device treats every count up to its initial count as used', () => {
    // Count 0 is the starting code with the value digits swapped in: anyone knowing
    // the starting code could forge it, so it must never be accepted.
    const count0 = String(STARTING_CODE - (STARTING_CODE % 1000) + ((STARTING_CODE + 30) % 1000)).padStart(9, '0');
    expect(decode(initialTokenState(1), count0).status).toBe('ALREADY_USED');
    expect(decode({ lastCount: 1, usedCounts: [] }, count0)).toMatchObject({ status: 'VALID', count: 0, value: 30 });
    expect(initialTokenState(5).usedCounts).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('rejects a malformed state', () => {
    expectError(() => decode({ lastCount: -1, usedCounts: [] }, '123456789'), 'INVALID_STATE');
    expectError(() => decode({ lastCount: 1, usedCounts: [0.5] }, '123456789'), 'INVALID_STATE');
  });
});

describe('the parity rule', () => {
  it.each([
    [0, 'ADD_TIME', 2],
    [1, 'ADD_TIME', 2],
    [2, 'ADD_TIME', 4],
    [0, 'SET_TIME', 1],
    [1, 'SET_TIME', 3],
    [2, 'DISABLE_PAYG', 3],
    [3, 'COUNTER_SYNC', 5],
  ] as const)('nextCount(%i, %s) = %i', (last, type, expected) => {
    expect(nextCount(last, type)).toBe(expected);
  });

  it('generated counts are even for ADD_TIME and odd otherwise, and decode back to the type', () => {
    for (let last = 0; last < 12; last++) {
      for (const type of ['ADD_TIME', 'SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'] as const) {
        const generated = generateToken({ ...STANDARD, lastCount: last, type, value: type === 'ADD_TIME' || type === 'SET_TIME' ? 9 : undefined });
        expect(generated.count % 2).toBe(type === 'ADD_TIME' ? 0 : 1);
        expect(generated.count - last).toBeGreaterThanOrEqual(1);
        expect(generated.count - last).toBeLessThanOrEqual(2);
        expect(decode(initialTokenState(last), generated.token).type).toBe(type);
      }
    }
  });

  it('an odd-count token with value 9 is SET_TIME, with 998 DISABLE_PAYG, with 999 COUNTER_SYNC', () => {
    expect(generateToken({ ...STANDARD, lastCount: 1, type: 'DISABLE_PAYG' }).value).toBe(DISABLE_PAYG_VALUE);
    expect(generateToken({ ...STANDARD, lastCount: 1, type: 'COUNTER_SYNC' }).value).toBe(COUNTER_SYNC_VALUE);
  });
});

describe('input validation', () => {
  const base = { ...STANDARD, lastCount: 1, type: 'ADD_TIME' as const, value: 1 };

  it('bad secret keys', () => {
    for (const secretKey of ['', 'bc41ec9530f6dac86b1a29ab82edc5f', 'bc41ec9530f6dac86b1a29ab82edc5fbaa', 'zz41ec9530f6dac86b1a29ab82edc5fb']) {
      expectError(() => generateToken({ ...base, secretKey }), 'INVALID_SECRET_KEY');
      expect(isValidSecretKey(secretKey)).toBe(false);
    }
    expect(isValidSecretKey(KEY)).toBe(true);
  });

  it('bad starting codes', () => {
    for (const startingCode of [-1, 1_000_000_000, 1.5, Number.NaN]) {
      expectError(() => generateToken({ ...base, startingCode }), 'INVALID_STARTING_CODE');
      expect(isValidStartingCode(startingCode)).toBe(false);
    }
    expect(isValidStartingCode(0)).toBe(true);
    expect(isValidStartingCode(999_999_999)).toBe(true);
  });

  it('bad counts', () => {
    for (const lastCount of [-1, 1.5, Number.POSITIVE_INFINITY]) {
      expectError(() => generateToken({ ...base, lastCount }), 'INVALID_COUNT');
    }
    expectError(() => nextCount(-2, 'ADD_TIME'), 'INVALID_COUNT');
  });

  it('bad values', () => {
    for (const value of [undefined, -1, 1.5, 996, 997, 998, 999, 1000]) {
      expectError(() => generateToken({ ...base, value }), 'INVALID_VALUE');
    }
    for (const value of [996, 998, 999, 1_000_000]) {
      expectError(() => generateToken({ ...base, extendedToken: true, value }), 'INVALID_VALUE');
    }
    expectError(() => generateToken({ ...base, type: 'DISABLE_PAYG', value: 5 }), 'INVALID_VALUE');
    expect(generateToken({ ...base, type: 'DISABLE_PAYG', value: 998 }).value).toBe(998);
  });

  it('bad types', () => {
    expectError(() => generateToken({ ...base, type: 'ADD_DAYS' as TokenType }), 'INVALID_TOKEN_TYPE');
  });

  it('decodeToken checks key and starting code too', () => {
    expectError(() => decodeToken({ ...STANDARD, secretKey: 'x', state: initialTokenState(1), token: '123456789' }), 'INVALID_SECRET_KEY');
    expectError(() => decodeToken({ ...STANDARD, startingCode: -5, state: initialTokenState(1), token: '123456789' }), 'INVALID_STARTING_CODE');
  });
});

describe('days and values', () => {
  it('rounds days x divider half away from zero', () => {
    expect(daysToValue(7)).toBe(7);
    expect(daysToValue(0.5)).toBe(1);
    expect(daysToValue(1.5)).toBe(2);
    expect(daysToValue(2.5)).toBe(3); // Python's round would give 2
    expect(daysToValue(2.4999)).toBe(2);
    expect(daysToValue(1.125, 4)).toBe(5); // 4.5 -> 5
    expect(daysToValue(1.1, 4)).toBe(4); // 4.4 -> 4
    expect(daysToValue(7, 4)).toBe(28);
    expect(daysToValue(0.25, 4)).toBe(1);
    expect(daysToValue(0)).toBe(0);
  });

  it('absorbs binary floating-point noise before rounding', () => {
    expect(1.005 * 100).toBeLessThan(100.5); // the float product is 100.49999999999999
    expect(daysToValue(1.005, 100)).toBe(101);
    expect(daysToValue(0.3, 10)).toBe(3);
  });

  it('converts values back to days', () => {
    expect(valueToDays(28, 4)).toBe(7);
    expect(valueToDays(6, 4)).toBe(1.5);
    expect(valueToDays(7)).toBe(7);
  });

  it('refuses negative or non-finite days and bad dividers', () => {
    expectError(() => daysToValue(-1), 'INVALID_DAYS');
    expectError(() => daysToValue(Number.NaN), 'INVALID_DAYS');
    expectError(() => daysToValue(1, 0), 'INVALID_DIVIDER');
    expectError(() => valueToDays(1, -4), 'INVALID_DIVIDER');
  });
});

describe('formatToken', () => {
  it('groups digits in threes', () => {
    expect(formatToken('588224011')).toBe('588 224 011');
    expect(formatToken('247264959011')).toBe('247 264 959 011');
    expect(formatToken('314114432231134')).toBe('314 114 432 231 134');
    expect(formatToken('12341234123412341234')).toBe('123 412 341 234 123 412 34');
    expect(formatToken(' 588 224011 ')).toBe('588 224 011');
  });
});

describe('generateSecretKey', () => {
  it('uses the given random source', () => {
    const key = generateSecretKey((n) => Uint8Array.from({ length: n }, (_, i) => i * 17));
    expect(key).toBe('00112233445566778899aabbccddeeff');
  });

  it('defaults to Web Crypto and gives 32 lowercase hex characters', () => {
    const a = generateSecretKey();
    const b = generateSecretKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(isValidSecretKey(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it('refuses a random source that returns the wrong length', () => {
    expect(() => generateSecretKey(() => new Uint8Array(8))).toThrow();
  });
});
