import { Prisma } from '../generated/prisma/client.js';
import { Errors } from '../common/errors.js';
import { dayNumber, type Calendar } from '../common/calendar.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** 10000-01-01: a day PostgreSQL cannot be sent as an ISO date, so an end that late is no end. */
const YEAR_10000 = dayNumber('9999-12-31') + 1;

/** A period as the SQL sees it: from ≤ t < until; either end may be open. */
export interface Period {
  from: Date | null;
  until: Date | null;
}

/**
 * The query's from/to as a half-open range of instants. A bare date is a
 * business day (the calendar's time zone): as `from` it starts at that day's
 * first instant, as `to` it covers the whole day, so
 * ?from=2026-01-01&to=2026-01-31 is all of January in TIME_ZONE. A date and
 * time keeps its instant (`to` includes it).
 */
export function toPeriod(from: string | null | undefined, to: string | null | undefined, calendar: Calendar): Period {
  const f = from ? (DATE_ONLY.test(from) ? calendar.startOf(dayNumber(from)) : new Date(from)) : null;
  let u: Date | null = null;
  if (to && DATE_ONLY.test(to)) {
    const next = dayNumber(to) + 1;
    u = next >= YEAR_10000 ? null : calendar.startOf(next);
  } else if (to) u = new Date(Date.parse(to) + 1);
  if (u && u.getUTCFullYear() > 9999) u = null;
  if (f && u && f >= u) throw Errors.badRequest('from', 'must not be after to');
  return { from: f, until: u };
}

/** `AND col >= from AND col < until` for the ends that are set (a plain range keeps the index usable). */
export function periodSql(column: Prisma.Sql, p: Period): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (p.from) parts.push(Prisma.sql` AND ${column} >= ${p.from.toISOString()}::timestamptz`);
  if (p.until) parts.push(Prisma.sql` AND ${column} < ${p.until.toISOString()}::timestamptz`);
  return parts.length ? Prisma.join(parts, '') : Prisma.empty;
}

/** "YYYY-MM-DD" of a DATE column's value (PostgreSQL's dates come back at UTC midnight). */
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** The day of `d` counted from 1970-01-01 in UTC: for DATE values; an instant's business day is Calendar.dayOf. */
export const unixDay = (d: Date) => Math.floor(d.getTime() / DAY_MS);

/**
 * "YYYY-MM-DD" of a day counted from 1970-01-01, by integer arithmetic on the
 * proleptic Gregorian calendar: years taken to start on 1 March (so a leap
 * day is a year's last), counted in 400-year eras of 146,097 days. A tenth
 * of the cost of `new Date(..).toISOString()`, which a year of daily points
 * calls 366 times per request.
 */
export function isoDayOf(day: number): string {
  const z = day + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0);
  return `${year}-${month < 10 ? '0' : ''}${month}-${dayOfMonth < 10 ? '0' : ''}${dayOfMonth}`;
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Decimal (or numeric text) → "123.45". */
export function money(v: { toFixed(n: number): string } | string | number | null | undefined): string {
  if (v === null || v === undefined) return '0.00';
  if (typeof v === 'string') return Number(v).toFixed(2);
  return v.toFixed(2);
}

/** A ratio 0..1 rounded to 4 decimals; 0 when the denominator is 0. */
export const ratio = (num: number, den: number) => (den > 0 ? Math.min(1, Math.max(0, Math.round((num / den) * 10_000) / 10_000)) : 0);

export const SUCCESSFUL = Prisma.sql`('success', 'completed')`;
