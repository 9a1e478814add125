import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { parseOrThrow, ValidationFailed } from '../src/common/validation.js';

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
});
