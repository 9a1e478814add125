import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { assertCleanInput, parseOrThrow, ValidationFailed } from '../src/common/validation.js';

describe('field errors of a refused body', () => {
  const schema = z.object({ provider: z.string(), config: z.object({ url: z.string() }).strict() }).strict();
  const fields = (value: unknown) => {
    try {
      parseOrThrow(schema, value);
    } catch (e) {
      return (e as ValidationFailed).fieldErrors;
    }
    throw new Error('accepted');
  };

  it('names an unknown key at the top level by itself', () => {
    expect(fields({ provider: 'x', config: { url: 'u' }, extra: 1, more: 2 })).toEqual([{ field: 'extra, more', message: 'is not an accepted field' }]);
  });

  it('names an unknown nested key under its object, not as a top-level field', () => {
    expect(fields({ provider: 'x', config: { url: 'u', 'a&': 1 } })).toEqual([{ field: 'config.a&', message: 'is not an accepted field' }]);
  });

  it('names an empty key as "", not as the object that holds it', () => {
    // Found by the bad-input fuzzer: { config: { "": {}, toString: 1 } } was refused as "config, config.toString".
    expect(fields({ provider: 'x', config: { url: 'u', '': {}, toString: 1 } })).toEqual([{ field: 'config."", config.toString', message: 'is not an accepted field' }]);
    expect(fields({ provider: 'x', config: { url: 'u' }, '': 1 })).toEqual([{ field: '""', message: 'is not an accepted field' }]);
  });
});

describe('input refused before it is parsed', () => {
  const field = (value: unknown) => {
    try {
      assertCleanInput(value, 'body');
    } catch (e) {
      return (e as ValidationFailed).fieldErrors;
    }
    throw new Error('accepted');
  };

  it('names a "__proto__" under an empty key with the empty key as "", not as nothing before a dot', () => {
    // Found by the bad-input fuzzer (seed 1147178262): {"": ["…", {"__proto__": " "}]} was refused as ".1.__proto__".
    expect(field(JSON.parse('{"": ["x", {"__proto__": " "}]}'))).toEqual([{ field: '"".1.__proto__', message: 'is not an accepted field' }]);
    expect(field(JSON.parse('{"a": {"": "\\u0000"}}'))).toEqual([{ field: 'a.""', message: 'must not contain NUL characters or broken Unicode' }]);
  });
});
