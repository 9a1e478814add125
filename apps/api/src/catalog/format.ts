import { likePattern } from '../common/pagination.js';

/** Something with toFixed, like Prisma's Decimal. */
interface DecimalLike {
  toFixed(digits: number): string;
}

/** Decimal → "1500.00". */
export const money = (value: DecimalLike | number): string => value.toFixed(2);

export const moneyOrNull = (value: DecimalLike | number | null | undefined): string | null =>
  value === null || value === undefined ? null : value.toFixed(2);

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** A DATE column (midnight UTC) → "YYYY-MM-DD". */
export const dateOnly = (d: Date | null | undefined): string | null => (d ? d.toISOString().slice(0, 10) : null);

/** "YYYY-MM-DD" → the Date Prisma stores in a DATE column. */
export const toDbDate = (s: string | null | undefined): Date | null | undefined =>
  s === undefined ? undefined : s === null ? null : new Date(`${s}T00:00:00.000Z`);

/**
 * Prisma filter for a case-insensitive partial match (ILIKE '%term%', which
 * the trigram indexes serve). Prisma passes % and _ through as wildcards, so
 * they are escaped to match literally.
 */
export const containsText = (term: string) => ({ contains: likePattern(term).slice(1, -1), mode: 'insensitive' as const });
