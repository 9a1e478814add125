/**
 * Local date-times as written by M-Pesa (East Africa Time, UTC+3 all year, no
 * daylight saving) turned into ISO 8601 strings that carry the offset, so they
 * sort, compare and convert without guessing: "2024-06-05T10:15:00+03:00".
 */

export const EAT_OFFSET = '+03:00';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A valid calendar date as "YYYY-MM-DD", or null. Two-digit years are 20YY. */
export function isoDate(day: number, month: number, year: number): string | null {
  const y = year < 100 ? 2000 + year : year;
  if (!Number.isInteger(day) || !Number.isInteger(month) || !Number.isInteger(y)) return null;
  if (y < 2000 || y > 2099 || month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(y, month)) return null;
  return `${pad(y, 4)}-${pad(month)}-${pad(day)}`;
}

/**
 * A 24-hour "HH:MM:SS" from a written time, or null if impossible.
 * With a meridiem ("AM"/"PM"), the hour must be 1-12 (12 AM is midnight, 12 PM is noon).
 */
export function isoTime(hour: number, minute: number, second = 0, meridiem?: 'AM' | 'PM'): string | null {
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || !Number.isInteger(second)) return null;
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  let h = hour;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    h = hour % 12 + (meridiem === 'PM' ? 12 : 0);
  } else if (hour < 0 || hour > 23) {
    return null;
  }
  return `${pad(h)}:${pad(minute)}:${pad(second)}`;
}

/** Join a date and an optional time into the EAT ISO form; date only when time is null. */
export function eatIso(date: string, time: string | null): string {
  return time === null ? date : `${date}T${time}${EAT_OFFSET}`;
}

/** Daraja's "YYYYMMDDHHmmss" (EAT) to ISO 8601, or null. */
export function parseCompactEat(raw: unknown): string | null {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const date = isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  const time = isoTime(Number(m[4]), Number(m[5]), Number(m[6]));
  return date && time ? eatIso(date, time) : null;
}

/**
 * Statement times (EAT): "2024-06-05 10:15:00", "2024-06-05T10:15", "05/06/2024 10:15:00",
 * "5/6/24 10:15 AM" (day first). ISO 8601, date only if no time, or null.
 */
export function parseStatementTime(raw: string): string | null {
  const s = raw.trim();
  let date: string | null = null;
  let rest = '';
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(.*)$/.exec(s);
  if (m) {
    date = isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
    rest = m[4]!;
  } else {
    m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(.*)$/.exec(s);
    if (m) {
      date = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
      rest = m[4]!;
    }
  }
  if (date === null) return null;
  rest = rest.trim().replace(/^T/i, '');
  if (rest === '') return eatIso(date, null);
  const t = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp])?\.?\s*(?:[Mm]\.?)?$/.exec(rest);
  if (!t) return null;
  const meridiem = t[4] ? (t[4].toUpperCase() === 'P' ? 'PM' : 'AM') : undefined;
  const time = isoTime(Number(t[1]), Number(t[2]), t[3] ? Number(t[3]) : 0, meridiem);
  return time === null ? null : eatIso(date, time);
}
