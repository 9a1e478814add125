import { z } from 'zod';
import { isCalendarDay, zMoneyInput, ZMoneySchema } from './common.js';
import { zOptionalText, zRequiredText } from './fields.js';
import { ZCsvImportReportSchema } from './imports.js';

/**
 * Accounts brought over from another system (README "Bringing accounts over"):
 * POST /items/accounts/import, a CSV of the devices already out with
 * customers, each with the day its account began, what was paid on it before
 * and until when its credit runs. The customers and the devices (with the
 * count of the last code each took) are imported first, with their own CSVs.
 */
export const ACCOUNT_IMPORT_COLUMNS = ['serial_number', 'id_number', 'template', 'start_date', 'paid', 'credit_until'] as const;
export const ACCOUNT_IMPORT_REQUIRED = ['serial_number', 'id_number', 'start_date'] as const;
/** The multipart field of the file. */
export const ACCOUNT_IMPORT_FIELD = 'file';
/**
 * GET /items/accounts/export (accounts.csv): every device given to a customer now, in the import's columns (so the
 * file brings the book into another organization or installation as it is), then the customer's name and phone for
 * the reader (the import passes over them).
 */
export const ACCOUNT_EXPORT_COLUMNS = [...ACCOUNT_IMPORT_COLUMNS, 'customer_name', 'phone_contact'] as const;
export const ACCOUNT_EXPORT_FILE_NAME = 'accounts.csv';

const DAY_FIRST = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/;
const ISO_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const pad = (n: string) => n.padStart(2, '0');

/** "2025-03-01", "1/3/2025" or "01.03.2025" (day first, as East Africa writes dates) → "2025-03-01"; null for anything else. */
export function importDay(text: string): string | null {
  const s = text.trim();
  const iso = ISO_DAY.exec(s);
  const dmy = DAY_FIRST.exec(s);
  const day = iso ? `${iso[1]}-${pad(iso[2]!)}-${pad(iso[3]!)}` : dmy ? `${dmy[3]}-${pad(dmy[2]!)}-${pad(dmy[1]!)}` : null;
  return day && isCalendarDay(day) && day >= '2000-01-01' ? day : null;
}

const DAY_MESSAGE = 'must be a date: YYYY-MM-DD or DD/MM/YYYY';

const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), schema.optional());

/** One row of the file, as read: dates as "YYYY-MM-DD", credit_until with its time when one is given. */
export const ZAccountImportRowSchema = z.object({
  /** The device, as imported with the devices' CSV (any spelling: upper or lower case, spaces, dashes). */
  serial_number: zRequiredText(100),
  /** The customer's ID number, as imported with the customers' CSV. */
  id_number: zRequiredText(100),
  /** The payment template's name (or number) the account is paid on; left out, the customer's plan, if any. */
  template: zOptionalText(200),
  /** The day the account began in the other system (the sale): what the plan expects by today counts from it. */
  start_date: zRequiredText(20).transform((v, ctx) => {
    const day = importDay(v);
    if (!day) ctx.addIssue({ code: 'custom', message: DAY_MESSAGE });
    return day ?? '';
  }),
  /**
   * Everything the customer paid on the device before it came over; left out, 0. Thousands may be grouped with
   * commas or spaces, as spreadsheets write them ("4,500.00").
   */
  paid: blankIsAbsent(z.preprocess((v) => (typeof v === 'string' ? v.trim().replace(/(?<=\d)[,\s](?=\d{3}(?:\D|$))/g, '') : v), zMoneyInput({ min: 0 }))).transform(
    (v) => v ?? 0,
  ),
  /**
   * When the credit the customer bought runs out: a day (to its end, in the installation's time zone) or a day and
   * time ("2026-12-01 18:00"). Left out, worked out from what was paid, as Kidogo would have: the days it bought on
   * its plan from the start day, with the plan's grace days; without a plan, none.
   */
  credit_until: blankIsAbsent(
    z.string().transform((v, ctx) => {
      const s = v.trim();
      const timed = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
      if (timed) {
        const [h, m, sec] = [Number(timed[2]), Number(timed[3]), Number(timed[4] ?? 0)];
        if (isCalendarDay(timed[1]!) && h < 24 && m < 60 && sec < 60) {
          return `${timed[1]}T${timed[2]}:${timed[3]}:${pad(String(sec))}`;
        }
      }
      const day = importDay(s);
      if (!day) ctx.addIssue({ code: 'custom', message: 'must be a date (YYYY-MM-DD or DD/MM/YYYY) or a date and time (YYYY-MM-DD HH:MM)' });
      return day ?? '';
    }),
  ),
});
export type AccountImportRow = z.output<typeof ZAccountImportRowSchema>;

/** The query of POST /items/accounts/import: `dry_run=true` checks every row as the import would, and keeps nothing. */
export const ZAccountsImportQuerySchema = z.object({
  dry_run: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

/**
 * The reply: the CSV import report (a row is imported, skipped as already brought over, or reported in `errors`),
 * with what was brought over. A dry run keeps no job (`job_id` null) and says what the import would do.
 */
export const ZAccountsImportReportSchema = ZCsvImportReportSchema.extend({
  job_id: z.string().nullable(),
  dry_run: z.boolean(),
  /** Of the accounts imported, those already paid off, and those whose credit runs on today. */
  paid_off: z.number().int(),
  in_credit: z.number().int(),
  /** What the imported accounts' customers had paid before, added up (per currency of their plans; "" for no plan). */
  paid_before: z.array(z.object({ currency: z.string(), amount: ZMoneySchema })),
});
export type AccountsImportReport = z.infer<typeof ZAccountsImportReportSchema>;

/** A device's account brought over from another system (README "Bringing accounts over"); on the device's page. */
export const ZBroughtOverSchema = z.object({
  /** What its customer had paid on it before it came over (part of the device's total paid). */
  paid: ZMoneySchema,
  /** The day the account began in the other system. */
  started_at: z.string(),
  imported_at: z.string(),
  imported_by: z.string().nullable(),
});
export type BroughtOver = z.infer<typeof ZBroughtOverSchema>;
