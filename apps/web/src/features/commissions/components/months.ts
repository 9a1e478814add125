import { formatDate } from '@/components/ui/date-text';

/**
 * Calendar months as the API names them ("2026-11"). The arithmetic is on
 * the year and month numbers, never on instants: a month has no time zone.
 */

/** The first month the API takes. */
export const FIRST_MONTH = '2000-01';

/** A month the API takes: YYYY-MM, 2000-01 or later. */
export const isMonth = (value: string | null | undefined): value is string =>
  !!value && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) && value >= FIRST_MONTH;

const parts = (month: string) => [Number(month.slice(0, 4)), Number(month.slice(5, 7))] as const;

/** `month` moved by `by` months: shiftMonth('2026-01', -1) is '2025-12'. */
export function shiftMonth(month: string, by: number): string {
  const [year, m] = parts(month);
  const index = year * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The month a business day ("2026-12-06") falls in. */
export const monthOf = (day: string) => day.slice(0, 7);

/** "November 2026". */
export function monthLabel(month: string): string {
  const [year, m] = parts(month);
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }).format(new Date(year, m - 1, 1));
}

/** The day after the month ends, as dates are shown: "Dec 1, 2026" for '2026-11'. A local date, so no time zone moves it a day. */
export function dayAfter(month: string): string {
  const [year, m] = parts(month);
  return formatDate(new Date(year, m, 1));
}
