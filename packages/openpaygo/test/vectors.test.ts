import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { type TokenType, decodeToken, deriveStartingCode, generateToken, initialTokenState } from '../src/index.js';

interface SampleVector {
  secret_key: string;
  starting_code: number;
  count: number;
  value: number | null;
  mode: TokenType;
  restricted_digit_set: boolean;
  extended_token: boolean;
  expected_new_count: number;
  expected_token: string;
}

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageDir, '../..');
// Shared beside the checkout (/work/<checkout>/.. /shared); absent in a lone clone, hence the copy.
const sharedPath = resolve(repoRoot, '../shared/openpaygo/sample-vectors.json');
const fixturePath = resolve(packageDir, 'test/fixtures/sample-vectors.json');

const readVectors = (path: string): SampleVector[] => JSON.parse(readFileSync(path, 'utf8')) as SampleVector[];
const vectors = readVectors(fixturePath);

describe('official OpenPAYGO sample vectors', () => {
  it('the fixture holds the six vectors, one per mode', () => {
    expect(vectors).toHaveLength(6);
  });

  it.runIf(existsSync(sharedPath))('the fixture copy agrees with the shared file', () => {
    expect(vectors).toEqual(readVectors(sharedPath));
  });

  it.each(vectors.map((v) => ({ ...v, label: `${v.mode}${v.restricted_digit_set ? ' restricted' : ''}${v.extended_token ? ' extended' : ''}` })))(
    'generates $label -> $expected_token',
    (v) => {
      const result = generateToken({
        secretKey: v.secret_key,
        startingCode: v.starting_code,
        restrictedDigitSet: v.restricted_digit_set,
        extendedToken: v.extended_token,
        lastCount: v.count,
        type: v.mode,
        value: v.value ?? undefined,
      });
      expect(result.token).toBe(v.expected_token);
      expect(result.count).toBe(v.expected_new_count);
    },
  );

  it.each(vectors)('a device at count $count decodes $expected_token', (v) => {
    const decoded = decodeToken({
      secretKey: v.secret_key,
      startingCode: v.starting_code,
      restrictedDigitSet: v.restricted_digit_set,
      extendedToken: v.extended_token,
      state: initialTokenState(v.count),
      token: v.expected_token,
    });
    expect(decoded.status).toBe('VALID');
    expect(decoded.type).toBe(v.mode);
    expect(decoded.count).toBe(v.expected_new_count);
    if (v.value !== null) {
      expect(decoded.value).toBe(v.value);
    }
  });
});

describe('starting code derived from the key', () => {
  it('is 901467777 for bc41ec9530f6dac86b1a29ab82edc5fb', () => {
    expect(deriveStartingCode('bc41ec9530f6dac86b1a29ab82edc5fb')).toBe(901467777);
  });

  it('ignores the case of the hex key', () => {
    expect(deriveStartingCode('BC41EC9530F6DAC86B1A29AB82EDC5FB')).toBe(901467777);
  });
});
