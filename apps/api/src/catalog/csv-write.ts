/**
 * CSV cells as spreadsheets read them back: quoted when they hold a comma,
 * quote, semicolon or line break, quotes doubled. A cell that a spreadsheet
 * would run as a formula (it starts with =, +, -, @, tab or carriage return)
 * gets a leading apostrophe, unless it is only a number or a phone number
 * like "+254712345678" or "-12.50", which cannot carry a formula. The
 * importers remove that apostrophe again (see stripFormulaGuard), so an
 * export imports back unchanged.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !/^[+-]?[\d\s.]*\d$/.test(s)) s = `'${s}`;
  return /[",;\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (values: readonly unknown[]): string => `${values.map(csvCell).join(',')}\r\n`;

/** The inverse of the apostrophe csvCell adds in front of formula-like text. */
export const stripFormulaGuard = (s: string): string => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

/** UTF-8 byte order mark: Excel opens a UTF-8 CSV with non-ASCII names correctly only with it. */
export const UTF8_BOM = '\uFEFF';
