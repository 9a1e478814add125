import { z } from 'zod';
import { isCalendarDay } from './common.js';

// Building blocks for the customer, device and template forms. Not exported
// from the package index: the web uses the finished schemas, not these.

/** Text from a form, a JSON client or a CSV cell: numbers are taken as their digits ("12345678"). */
const textError = (iss: { input?: unknown }) => (iss.input === undefined ? 'is required' : 'must be text');
const zLooseString = z.union([z.string({ error: textError }), z.number().finite().transform(String)], {
  error: textError,
});

/** Required text: trimmed, not empty, at most `max` characters. */
export const zRequiredText = (max: number) =>
  zLooseString.pipe(
    z
      .string()
      .trim()
      .min(1, { error: 'is required' })
      .max(max, { error: `must be at most ${max} characters` }),
  );

/**
 * Optional text: trimmed; empty or null becomes null. Absent stays absent
 * (undefined), so a partial update leaves the field alone while "" or null
 * clears it.
 */
export const zOptionalText = (max: number) =>
  z
    .union([zLooseString, z.null()], { error: 'must be text' })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v === null ? '' : v.trim();
      if (s.length > max) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${max} characters` });
        return z.NEVER;
      }
      return s === '' ? null : s;
    })
    .meta({ type: 'string', nullable: true, maxLength: max });

/**
 * One of a fixed list, matched without regard to case ("male" → "Male");
 * empty or null becomes null; absent stays absent.
 */
export const zOptionalChoice = <T extends string>(values: readonly T[]) =>
  z
    .union([z.string({ error: `must be one of ${values.join(', ')}` }), z.null()], {
      error: `must be one of ${values.join(', ')}`,
    })
    .optional()
    .transform((v, ctx): T | null | undefined => {
      if (v === undefined) return undefined;
      const s = (v ?? '').trim();
      if (s === '') return null;
      const hit = values.find((x) => x.toLowerCase() === s.toLowerCase());
      if (!hit) {
        ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
        return z.NEVER;
      }
      return hit;
    })
    .meta({ type: 'string', nullable: true, enum: [...values] });

/** Calendar date from "YYYY-MM-DD", "DD/MM/YYYY" or an ISO date-time; null when it is not a real date. */
export function toDateOnly(raw: string): string | null {
  const s = raw.trim();
  if (!s) return null;
  const valid = (y: number, m: number, d: number) => {
    if (y < 1800 || y > 2200) return null;
    const day = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    return isCalendarDay(day) ? day : null;
  };
  // The calendar date as written, before any time zone can shift it.
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[T\s])/.exec(s);
  if (m) return valid(Number(m[1]), Number(m[2]), Number(m[3]));
  // Day first, as written in Kenya and most of Africa; month first when that is the only reading.
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) return valid(Number(m[3]), Number(m[2]), Number(m[1])) ?? valid(Number(m[3]), Number(m[1]), Number(m[2]));
  // "15 May 1990", "May 15, 1990": anything else Date understands that names a 4-digit year.
  if (!/\b\d{4}\b/.test(s) || !/[a-z]/i.test(s)) return null;
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  const d = new Date(t);
  return valid(d.getFullYear(), d.getMonth() + 1, d.getDate());
}

/** A date that may be unparsable: kept as YYYY-MM-DD, or null (never an error). Absent stays absent. */
export const zLenientDate = z
  .union([z.string(), z.null()], { error: 'must be a date (YYYY-MM-DD)' })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === null ? null : toDateOnly(v)))
  .meta({ type: 'string', format: 'date', nullable: true });

/** A date that must be valid when given: YYYY-MM-DD (or DD/MM/YYYY); empty or null becomes null. */
export const zStrictDate = z
  .union([z.string(), z.null()], { error: 'must be a date (YYYY-MM-DD)' })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (v === null || v.trim() === '') return null;
    const d = toDateOnly(v);
    if (!d) {
      ctx.addIssue({ code: 'custom', message: 'must be a date (YYYY-MM-DD)' });
      return z.NEVER;
    }
    return d;
  })
  .meta({ type: 'string', format: 'date', nullable: true });

/** A database id in a body: a positive whole number, also accepted as a numeric string. */
export const zIdInput = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'must be a positive whole number' })
    .int({ error: 'must be a positive whole number' })
    .min(1, { error: 'must be a positive whole number' })
    .max(2_147_483_647, { error: 'must be a positive whole number' }),
);

/** A free-text search term from a query string: trimmed; empty means no search. */
export const zSearchTerm = z
  .string({ error: 'must be text' })
  .trim()
  .max(200, { error: 'must be at most 200 characters' })
  .optional()
  .transform((v) => (v ? v : undefined));

/** A query-string choice from a fixed list, with a default when absent or empty. */
export const zQueryChoice = <T extends string>(values: readonly [T, ...T[]], fallback: T) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : v), z.enum(values));

/** A query-string boolean: true/false/1/0. */
export const zQueryBool = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean({ error: 'must be true or false' }).optional(),
);
