/**
 * The business calendar: which day an instant belongs to in the
 * installation's time zone (TIME_ZONE), and when a day starts. Days are
 * numbered from 1970-01-01 (day 0), as the revenue series counts them, and
 * named YYYY-MM-DD with isoDayOf. PostgreSQL's kidogo_day() (created by
 * database/business-day.ts with the same zone) files the running totals under
 * the same days, so a period's whole days can come from the totals and only
 * its partial days from the rows.
 *
 * Offsets come from Intl (the zone's rules, daylight saving included), never
 * from a fixed number of hours.
 */

export const DEFAULT_TIME_ZONE = 'Africa/Nairobi';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** IANA names only ("Africa/Nairobi", "Etc/GMT-3", "UTC"): abbreviations and POSIX rules mean different things to Intl and PostgreSQL. */
const ZONE_NAME = /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+)$/;
/** Starts kept per calendar; a period's ends and today are a handful of days. */
const KEPT_STARTS = 4096;

/** Whether `zone` is an IANA time zone name that this runtime's Intl knows. */
export function isTimeZone(zone: string): boolean {
  if (!ZONE_NAME.test(zone)) return false;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone.length > 0;
  } catch {
    return false;
  }
}

/** The day number of "YYYY-MM-DD" (a calendar date, no time zone involved). */
export function dayNumber(isoDate: string): number {
  const m = DATE_ONLY.exec(isoDate);
  if (!m) throw new Error(`not a date: ${isoDate}`);
  return Math.floor(utc(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
}

/** Date.UTC without its reading of years 0-99 as 1900-1999. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

export class Calendar {
  private readonly format: Intl.DateTimeFormat | null;
  private readonly starts = new Map<number, number>();
  /** The offset last read, for a first guess at an instant's day. */
  private guess = 0;

  constructor(readonly zone: string) {
    if (!isTimeZone(zone)) throw new RangeError(`${zone} is not an IANA time zone name`);
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.format = format.resolvedOptions().timeZone === 'UTC' ? null : format;
  }

  /** The business day of an instant. */
  dayOf(t: Date | number): number {
    const ms = typeof t === 'number' ? t : t.getTime();
    let day = Math.floor((ms + this.guess) / DAY_MS);
    while (this.startOf(day).getTime() > ms) day--;
    while (this.startOf(day + 1).getTime() <= ms) day++;
    return day;
  }

  /** Today's business day. */
  today(now: Date | number = Date.now()): number {
    return this.dayOf(now);
  }

  /**
   * The first instant of a business day: its local midnight, or where
   * midnight is skipped (a clock moved forward over it), the first moment
   * after the jump; where midnight comes twice (moved back over it), the
   * first of the two.
   */
  startOf(day: number): Date {
    let start = this.starts.get(day);
    if (start === undefined) {
      start = this.findStart(day);
      if (this.starts.size >= KEPT_STARTS) this.starts.clear();
      this.starts.set(day, start);
    }
    return new Date(start);
  }

  /** The first instant of the day after the one `t` is in (t itself when it starts a day). */
  ceil(t: Date): { day: number; start: Date } {
    const day = this.dayOf(t);
    const start = this.startOf(day);
    return start.getTime() === t.getTime() ? { day, start } : { day: day + 1, start: this.startOf(day + 1) };
  }

  /**
   * The instant a clock in this zone reads "YYYY-MM-DDTHH:MM:SS" (a local
   * time written without its offset), or null if that is no date-time.
   * A time skipped by a clock moved forward is read with the offset before
   * the jump; a time that comes twice, as its first occurrence.
   */
  instantAt(local: string): Date | null {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
    if (!m) return null;
    const wall = utc(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
    if (Number.isNaN(wall)) return null;
    // Earliest first: the offset a day before, then a day after; the first whose clock reads `wall`.
    for (const probe of [wall - DAY_MS, wall + DAY_MS]) {
      const t = wall - this.offsetAt(probe);
      if (t + this.offsetAt(t) === wall) return new Date(t);
    }
    return new Date(wall - this.offsetAt(wall - DAY_MS));
  }

  /** The zone's offset from UTC at instant `t`, in ms (east positive). */
  offsetAt(t: number): number {
    if (!this.format) return 0;
    let year = 0;
    let month = 0;
    let day = 0;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let bc = false;
    for (const p of this.format.formatToParts(t)) {
      if (p.type === 'year') year = Number(p.value);
      else if (p.type === 'month') month = Number(p.value);
      else if (p.type === 'day') day = Number(p.value);
      else if (p.type === 'hour') hour = Number(p.value);
      else if (p.type === 'minute') minute = Number(p.value);
      else if (p.type === 'second') second = Number(p.value);
      else if (p.type === 'era') bc = p.value === 'BC' || p.value === 'B';
    }
    const offset = utc(bc ? 1 - year : year, month - 1, day, hour, minute, second) - Math.floor(t / 1000) * 1000;
    this.guess = offset;
    return offset;
  }

  private findStart(day: number): number {
    const midnight = day * DAY_MS;
    // Local midnight under the offsets in force a day before and a day after:
    // real when the clock there reads midnight; the earlier one when both do.
    const real = [midnight - this.offsetAt(midnight - DAY_MS), midnight - this.offsetAt(midnight + DAY_MS)].filter(
      (t) => t + this.offsetAt(t) === midnight,
    );
    if (real.length) return Math.min(...real);
    // Midnight skipped: the first instant whose local time is on `day` or later.
    // Offsets lie within -12 h and +14 h, so `lo` is before the day and `hi` in it.
    let lo = midnight - 15 * HOUR_MS;
    let hi = midnight + 13 * HOUR_MS;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (mid + this.offsetAt(mid) >= midnight) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}
