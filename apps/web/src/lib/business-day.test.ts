import { describe, expect, it } from 'vitest';
import { dayIn } from './business-day';

describe('dayIn', () => {
  it("is the calendar day of an instant in the business's zone", () => {
    const late = new Date('2026-11-25T22:30:00Z');
    expect(dayIn('UTC', late)).toBe('2026-11-25');
    // Nairobi is UTC+3: 22:30 UTC is already 01:30 the next morning there.
    expect(dayIn('Africa/Nairobi', late)).toBe('2026-11-26');
    expect(dayIn('America/Los_Angeles', new Date('2026-01-01T05:00:00Z'))).toBe('2025-12-31');
  });

  it('follows daylight saving', () => {
    // London is UTC+1 in summer: 23:30 UTC on 30 June is 00:30 on 1 July.
    expect(dayIn('Europe/London', new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(dayIn('Europe/London', new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });

  it("falls back to the browser's zone when none is known", () => {
    const at = new Date('2026-03-15T12:00:00Z');
    expect(dayIn(null, at)).toBe(dayIn(Intl.DateTimeFormat().resolvedOptions().timeZone, at));
    expect(dayIn(undefined, at)).toMatch(/^2026-03-1[456]$/);
  });
});
