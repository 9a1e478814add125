import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { sipHash24, sipHash8, sipKey } from '../src/index.js';

const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/siphash-vectors.json', import.meta.url), 'utf8'),
) as { key: string; outputsLittleEndian: string[] };

// ---------------------------------------------------------------------------
// A plain BigInt SipHash-2-4, written straight from the paper, as the oracle.

const MASK64 = (1n << 64n) - 1n;

function rotl(x: bigint, b: bigint): bigint {
  return ((x << b) | (x >> (64n - b))) & MASK64;
}

function readLE64(bytes: Uint8Array, offset: number): bigint {
  let x = 0n;
  for (let i = 7; i >= 0; i--) {
    x = (x << 8n) | BigInt(bytes[offset + i]!);
  }
  return x;
}

function referenceSipHash(key: Uint8Array, message: Uint8Array): bigint {
  const k0 = readLE64(key, 0);
  const k1 = readLE64(key, 8);
  let v0 = k0 ^ 0x736f6d6570736575n;
  let v1 = k1 ^ 0x646f72616e646f6dn;
  let v2 = k0 ^ 0x6c7967656e657261n;
  let v3 = k1 ^ 0x7465646279746573n;
  const round = (): void => {
    v0 = (v0 + v1) & MASK64;
    v1 = rotl(v1, 13n) ^ v0;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & MASK64;
    v3 = rotl(v3, 16n) ^ v2;
    v0 = (v0 + v3) & MASK64;
    v3 = rotl(v3, 21n) ^ v0;
    v2 = (v2 + v1) & MASK64;
    v1 = rotl(v1, 17n) ^ v2;
    v2 = rotl(v2, 32n);
  };
  const blocks: bigint[] = [];
  const full = message.length - (message.length % 8);
  for (let i = 0; i < full; i += 8) {
    blocks.push(readLE64(message, i));
  }
  let last = BigInt(message.length & 0xff) << 56n;
  for (let i = full; i < message.length; i++) {
    last |= BigInt(message[i]!) << BigInt((i - full) * 8);
  }
  blocks.push(last);
  for (const m of blocks) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  v2 ^= 0xffn;
  round();
  round();
  round();
  round();
  return v0 ^ v1 ^ v2 ^ v3;
}

// ---------------------------------------------------------------------------

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g)!, (b) => Number.parseInt(b, 16));
}

/** The 64-bit value whose little-endian bytes are `hex`. */
function fromLittleEndianHex(hex: string): bigint {
  return readLE64(hexBytes(hex), 0);
}

function asBigInt(h: { hi: number; lo: number }): bigint {
  return (BigInt(h.hi) << 32n) | BigInt(h.lo);
}

function sipHash8Of(key: Uint8Array, message: Uint8Array): bigint {
  const out = new Uint32Array(1);
  const hi = sipHash8(sipKey(key), readU32(message, 4), readU32(message, 0), out);
  return (BigInt(hi) << 32n) | BigInt(out[0]!);
}

function readU32(bytes: Uint8Array, offset: number): number {
  return (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>> 0;
}

const officialKey = hexBytes(vectors.key);
const prefix = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i);

describe('SipHash-2-4 against the official test vectors (key 00..0f, message 00..n-1)', () => {
  it('has all 64 vectors', () => {
    expect(vectors.outputsLittleEndian).toHaveLength(64);
  });

  it.each(vectors.outputsLittleEndian.map((hex, length) => ({ length, hex })))(
    'generic path, $length-byte message',
    ({ length, hex }) => {
      expect(asBigInt(sipHash24(sipKey(officialKey), prefix(length)))).toBe(fromLittleEndianHex(hex));
    },
  );

  it('8-byte fast path gives vector 8 (62 24 93 9a 79 f5 f5 93)', () => {
    expect(sipHash8Of(officialKey, prefix(8))).toBe(fromLittleEndianHex(vectors.outputsLittleEndian[8]!));
    expect(sipHash8Of(officialKey, prefix(8))).toBe(0x93f5f5799a932462n);
  });

  it('the BigInt oracle agrees with the official vectors too', () => {
    vectors.outputsLittleEndian.forEach((hex, length) => {
      expect(referenceSipHash(officialKey, prefix(length))).toBe(fromLittleEndianHex(hex));
    });
  });

  it('rejects keys that are not 16 bytes', () => {
    expect(() => sipKey(new Uint8Array(15))).toThrow(RangeError);
  });
});

describe('SipHash-2-4 against a BigInt reference on random input', () => {
  const key = fc.uint8Array({ minLength: 16, maxLength: 16 });

  it('generic path, any length up to 40 bytes', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ maxLength: 40 }), (k, message) => {
        expect(asBigInt(sipHash24(sipKey(k), message))).toBe(referenceSipHash(k, message));
      }),
      { numRuns: 500 },
    );
  });

  it('8-byte fast path', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ minLength: 8, maxLength: 8 }), (k, message) => {
        const expected = referenceSipHash(k, message);
        expect(sipHash8Of(k, message)).toBe(expected);
        expect(asBigInt(sipHash24(sipKey(k), message))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('carries correctly when lanes are all ones (carry edge cases)', () => {
    const ones = new Uint8Array(16).fill(0xff);
    for (const message of [new Uint8Array(8).fill(0xff), new Uint8Array(8), new Uint8Array(8).fill(0x80)]) {
      expect(sipHash8Of(ones, message)).toBe(referenceSipHash(ones, message));
    }
  });
});
