import { describe, expect, it } from '@jest/globals';
import { isoDayOf, unixDay } from '../src/metrics/period.js';

const DAY_MS = 86_400_000;

describe('day arithmetic of the revenue series', () => {
  it('names every day from 1600 to 2400 as toISOString does, leap days and century years included', () => {
    const wrong: string[] = [];
    for (let day = unixDay(new Date('1600-01-01T00:00:00Z')); day <= unixDay(new Date('2400-12-31T00:00:00Z')); day++) {
      const expected = new Date(day * DAY_MS).toISOString().slice(0, 10);
      if (isoDayOf(day) !== expected) wrong.push(`${day}: ${isoDayOf(day)} ≠ ${expected}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect([isoDayOf(0), isoDayOf(-1), isoDayOf(11_016), isoDayOf(19_417)]).toEqual(['1970-01-01', '1969-12-31', '2000-02-29', '2023-03-01']);
  });

  it('counts a moment within a day as that day, before 1970 too', () => {
    expect(unixDay(new Date('1970-01-01T23:59:59.999Z'))).toBe(0);
    expect(unixDay(new Date('1969-12-31T12:00:00Z'))).toBe(-1);
    expect(unixDay(new Date('2026-11-22T00:00:00Z'))).toBe(20_779);
  });
});
