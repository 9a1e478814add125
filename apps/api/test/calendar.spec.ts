import { describe, expect, it } from '@jest/globals';
import { Calendar, dayNumber, isTimeZone } from '../src/common/calendar.js';
import { isoDayOf } from '../src/metrics/period.js';

const HOUR = 3_600_000;
const day = (c: Calendar, t: string) => isoDayOf(c.dayOf(new Date(t)));
const start = (c: Calendar, d: string) => c.startOf(dayNumber(d)).toISOString();

describe('the business calendar', () => {
  it('counts Nairobi days from 21:00 UTC', () => {
    const c = new Calendar('Africa/Nairobi');
    expect(day(c, '2026-09-30T20:59:59.999Z')).toBe('2026-09-30');
    expect(day(c, '2026-09-30T21:00:00Z')).toBe('2026-10-01');
    expect(day(c, '2026-09-30T22:00:00Z')).toBe('2026-10-01'); // 01:00 EAT on 1 October
    expect(start(c, '2026-10-01')).toBe('2026-09-30T21:00:00.000Z');
    expect(c.ceil(new Date('2026-09-30T21:00:00Z')).day).toBe(dayNumber('2026-10-01'));
    expect(c.ceil(new Date('2026-09-30T21:00:00.001Z')).start.toISOString()).toBe('2026-10-01T21:00:00.000Z');
  });

  it('is plain UTC for UTC', () => {
    const c = new Calendar('UTC');
    expect(day(c, '2026-09-30T23:59:59.999Z')).toBe('2026-09-30');
    expect(start(c, '2026-10-01')).toBe('2026-10-01T00:00:00.000Z');
  });

  it("reads a local clock's time as the instant it is in the zone", () => {
    const at = (zone: string, local: string) => new Calendar(zone).instantAt(local)?.toISOString() ?? null;
    expect(at('Africa/Nairobi', '2024-06-05T10:15:00')).toBe('2024-06-05T07:15:00.000Z');
    expect(at('Africa/Lusaka', '2024-06-05T10:15:00')).toBe('2024-06-05T08:15:00.000Z');
    expect(at('Africa/Lagos', '2024-06-05T00:05')).toBe('2024-06-04T23:05:00.000Z');
    expect(at('UTC', '2024-02-29T23:59:59')).toBe('2024-02-29T23:59:59.000Z');
    // London: summer time, a time skipped when the clock moves forward (read with the offset before the jump),
    // and one that comes twice when it moves back (its first occurrence).
    expect(at('Europe/London', '2026-07-15T12:00:00')).toBe('2026-07-15T11:00:00.000Z');
    expect(at('Europe/London', '2026-03-29T01:30:00')).toBe('2026-03-29T01:30:00.000Z');
    expect(at('Europe/London', '2026-10-25T01:30:00')).toBe('2026-10-25T00:30:00.000Z');
    for (const bad of ['2024-06-05', '2024-06-05 10:15', 'yesterday', '2024-06-05T10:15:00+03:00']) expect(at('Africa/Nairobi', bad)).toBeNull();
  });

  it('follows daylight saving, a skipped midnight and a repeated one', () => {
    const london = new Calendar('Europe/London');
    expect(start(london, '2026-01-15')).toBe('2026-01-15T00:00:00.000Z');
    expect(start(london, '2026-07-15')).toBe('2026-07-14T23:00:00.000Z');
    const ny = new Calendar('America/New_York');
    expect(start(ny, '2024-03-10')).toBe('2024-03-10T05:00:00.000Z');
    expect(start(ny, '2024-03-11')).toBe('2024-03-11T04:00:00.000Z'); // a 23-hour day before it
    // Santiago moved its clocks from 00:00 to 01:00 on 2022-09-11: the day starts at the jump.
    const santiago = new Calendar('America/Santiago');
    expect(start(santiago, '2022-09-11')).toBe('2022-09-11T04:00:00.000Z');
    expect(day(santiago, '2022-09-11T03:59:59Z')).toBe('2022-09-10');
    // Havana moved them from 01:00 back to 00:00 on 2022-11-06: the day starts at the first of its two midnights.
    const havana = new Calendar('America/Havana');
    expect(start(havana, '2022-11-06')).toBe('2022-11-06T04:00:00.000Z');
    expect(day(havana, '2022-11-06T04:30:00Z')).toBe('2022-11-06');
    expect(day(havana, '2022-11-06T03:59:59Z')).toBe('2022-11-05');
  });

  it('starts every day at the first instant that is on it, in zones east, west and with daylight saving', () => {
    for (const zone of ['Africa/Nairobi', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin', 'America/Santiago', 'America/Havana', 'Australia/Lord_Howe', 'Asia/Kolkata']) {
      const c = new Calendar(zone);
      const wrong: string[] = [];
      for (let d = dayNumber('2022-01-01'); d <= dayNumber('2023-12-31'); d++) {
        const s = c.startOf(d).getTime();
        if (c.dayOf(s) !== d || c.dayOf(s - 1) !== d - 1) wrong.push(`${zone} ${isoDayOf(d)}`);
        const length = c.startOf(d + 1).getTime() - s;
        if (length < 22 * HOUR || length > 26 * HOUR) wrong.push(`${zone} ${isoDayOf(d)} lasts ${length / HOUR} h`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
  });

  it('takes IANA names only', () => {
    expect(['Africa/Nairobi', 'Africa/Kampala', 'UTC', 'Etc/GMT-3', 'America/Argentina/Buenos_Aires'].map(isTimeZone)).toEqual([true, true, true, true, true]);
    expect(['', 'EAT', '+03:00', 'Nairobi', 'Mars/Olympus', "Africa/Nairobi'; DROP TABLE payments; --", 'EST5EDT'].map(isTimeZone)).toEqual([
      false, false, false, false, false, false, false,
    ]);
  });
});
