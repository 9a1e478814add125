import { z } from 'zod';
import { zPeriodDate } from './metrics.js';

export const REPORT_KINDS = ['revenue', 'customers', 'tokens'] as const;
export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;

/**
 * POST /reports/page.
 * - revenue: successful payments per calendar month (UTC) in the period, zero months included;
 * - customers: customers registered in the period, with their device count,
 *   total paid (successful payments, all time), remaining (payoff price − paid,
 *   never negative; payoff = the active template's free_code_price, else the
 *   sum of their devices' prices) and status;
 * - tokens: tokens generated per day and token type, with counts and days.
 * format json (default) answers the ZReportSchema shape; csv and pdf answer a
 * download (`{report}-report-YYYY-MM-DD.csv|pdf`).
 */
export const ZReportRequestSchema = z
  .object({
    report: z.enum(REPORT_KINDS),
    from: zPeriodDate().nullish(),
    to: zPeriodDate().nullish(),
    format: z.enum(REPORT_FORMATS).default('json'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: 'must not be after to', path: ['from'] });
export type ReportRequest = z.infer<typeof ZReportRequestSchema>;

export const ZReportColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** money cells are "123.45" strings; number cells are numbers. */
  type: z.enum(['text', 'money', 'number', 'date']),
});
export type ReportColumn = z.infer<typeof ZReportColumnSchema>;

const ZCell = z.union([z.string(), z.number(), z.null()]);

export const ZReportSchema = z.object({
  report: z.enum(REPORT_KINDS),
  from: z.string().nullable(),
  to: z.string().nullable(),
  generated_at: z.string(),
  columns: z.array(ZReportColumnSchema),
  rows: z.array(z.record(z.string(), ZCell)),
  /** Sums of the money and number columns, plus `rows` (the row count). */
  totals: z.record(z.string(), ZCell),
});
export type Report = z.infer<typeof ZReportSchema>;
