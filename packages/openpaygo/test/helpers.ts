import { type TokenOptions, type TokenType, generateToken } from '../src/index.js';

export const KEY = 'bc41ec9530f6dac86b1a29ab82edc5fb';
export const STARTING_CODE = 516959010;

export const MODES: ReadonlyArray<{ name: string; restrictedDigitSet: boolean; extendedToken: boolean }> = [
  { name: 'standard', restrictedDigitSet: false, extendedToken: false },
  { name: 'restricted', restrictedDigitSet: true, extendedToken: false },
  { name: 'extended', restrictedDigitSet: false, extendedToken: true },
  { name: 'restricted+extended', restrictedDigitSet: true, extendedToken: true },
];

/**
 * The token of exactly `count` (which must have the parity of `type`):
 * generated after count - 2, or after 0 for count 1.
 */
export function tokenAt(opts: TokenOptions, count: number, type: TokenType, value?: number): string {
  const lastCount = count === 1 ? 0 : count - 2;
  const result = generateToken({ ...opts, lastCount, type, value });
  if (result.count !== count) {
    throw new Error(`count ${count} does not have the parity of ${type}`);
  }
  return result.token;
}

/** The number a token stands for (restricted tokens: two bits per digit 1-4). */
export function tokenNumber(token: string, restricted: boolean): number {
  if (!restricted) {
    return Number(token);
  }
  let n = 0;
  for (const digit of token) {
    n = n * 4 + (Number(digit) - 1);
  }
  return n;
}
