import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { sipKey, walkChain, wasmChain } from '../src/index.js';

const keyArb = fc.uint8Array({ minLength: 16, maxLength: 16 });

describe('the token hash chain in WebAssembly', () => {
  it('is available on Node (the server always takes the fast path)', () => {
    expect(wasmChain).not.toBeNull();
  });

  it('gives the same standard codes as the JavaScript chain', () => {
    fc.assert(
      fc.property(keyArb, fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 300 }), (bytes, code, steps) => {
        const key = sipKey(bytes);
        expect(walkChain(key, code, steps, false, wasmChain)).toBe(walkChain(key, code, steps, false, null));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same extended codes as the JavaScript chain', () => {
    fc.assert(
      fc.property(keyArb, fc.integer({ min: 0, max: 999_999_999_999 }), fc.integer({ min: 0, max: 300 }), (bytes, code, steps) => {
        const key = sipKey(bytes);
        expect(walkChain(key, code, steps, true, wasmChain)).toBe(walkChain(key, code, steps, true, null));
      }),
      { numRuns: 300 },
    );
  });

  it('walks long chains (count 5,000) to the same code', () => {
    const key = sipKey(Uint8Array.from({ length: 16 }, (_, i) => i * 17));
    expect(walkChain(key, 516_959_010, 5000, false, wasmChain)).toBe(walkChain(key, 516_959_010, 5000, false, null));
    expect(walkChain(key, 516_959_010, 5000, true, wasmChain)).toBe(walkChain(key, 516_959_010, 5000, true, null));
  });
});
