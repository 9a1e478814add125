import { z } from 'zod';
import { MAX_OFFSET, zWholeNumber as wholeNumber } from './common.js';
import { zAgentFilter } from './collections.js';
import { periodInOrder, zPeriodDate } from './metrics.js';
import { REPAYMENT_STANDINGS } from './repayment.js';

export const REPORT_KINDS = ['revenue', 'customers', 'tokens', 'repossessions', 'agents', 'tickets', 'portfolio', 'documents', 'payment_requests', 'swaps', 'discounts'] as const;
export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;

/**
 * POST /reports/page.
 * - revenue: successful payments per calendar month (of the installation's TIME_ZONE) in the period, zero months included;
 * - customers: customers registered in the period, with their device count,
 *   total paid (successful payments, all time), remaining (the balance of GET
 *   /customers/{id}/status: per device, its payoff price − its total paid,
 *   never negative, summed over the customer's devices) and status, and the repayment standing (ZRepaymentSchema,
 *   README "Repayment standing"): what the plans of the customer's devices expect paid by today, what was paid
 *   towards it, the share repaid and the standing (Paid off, On track, Behind, Far behind; empty without a plan);
 *   its totals carry the share repaid over all of them;
 * - tokens: tokens generated per business day (TIME_ZONE) and token type, with counts and days;
 * - repossessions: devices taken back in the period (POST /items/repossess), newest first, with the customer, what
 *   they had paid on the device and what was left to pay, written off;
 * - agents: each sales agent (the customers' agent_id; "(no agent)" for customers without one), most revenue first:
 *   customers registered and devices given in the period, payments and revenue from their customers in the period,
 *   the agent's commission for the period (GET /settings/commissions: per device given, plus a percentage of the
 *   revenue), and their customers' devices out of credit now and out of credit for over 30 days now (what
 *   collections are reckoned on).
 * - tickets: service tickets opened in the period (GET /tickets), newest first: the device, the customer, category,
 *   status, who has it, when it was resolved, whole days from opening to resolving (null while open) and the free days
 *   given with it; totals add up the tickets and the free days.
 * - portfolio: the devices given to customers in the period, by the business month they were given in (the sales
 *   cohort), oldest first: how many, their contract value (each account's payoff price; paid plus written off for one
 *   ended by a repossession), what they have collected, the share of the contract value repaid (each account counting
 *   at most its contract), the share repaid within 3, 6 and 12 months of each account's opening (null for a cohort
 *   not that old yet: the vintage curves a lender compares cohorts by), the accounts paid off, PAR30 (the share of
 *   what is left to pay on the cohort's open accounts that sits on devices out of credit for over 30 days), and the
 *   accounts repossessed with what was written off. Its totals are the same figures over every cohort of the period. With `agent`, only the
 *   accounts of that sales agent's customers (the customers' agent_id as the Agent report shows it, trimmed; "(no
 *   agent)" for the customers without one): whether an agent's sales repay like the rest.
 * - documents: the devices given in the period (as the Agent report counts them), by sales agent, and how many of
 *   their customers' files are complete: both sides of the ID card, a photo of the customer, the signed agreement
 *   (README "Customer documents"); complete is the ID card's two sides and the agreement; the least complete agent
 *   first. Customers whose personal data was erased are left out. Its totals are the sums, and the share complete
 *   over all of them.
 * - payment_requests: the M-Pesa Express requests sent in the period (Ask to Pay), by who sent them, the most money
 *   collected first: requests, paid (and the money), cancelled by the customer, failed (wrong PIN, too little
 *   balance, phone off, refused), still without an answer, and the share paid; totals are the sums and the share paid
 *   over all of them.
 * - swaps: the devices swapped in the period (POST /items/swap, README "Device swaps"), newest first: the faulty device
 *   with its product and maker, its replacement, the customer, the days of credit moved, why and who; what a
 *   warranty claim to the maker lists. Totals add up the swaps and the days moved.
 * - discounts: the discounts given in the period (POST /items/discount, README "Discounts"), newest first: the device,
 *   the customer, the amount, what was left to pay before and after, whether it paid the device off, why and who;
 *   what the business gave away. Totals add up the discounts and their amounts.
 * format json (default) answers the ZReportSchema shape; csv and pdf answer a
 * download (`{report}-report-YYYY-MM-DD.csv|pdf`).
 *
 * With `limit` (json only) the reply's rows are one page of the report, from
 * `offset`, while its totals (and `totals.rows`, the row count) still cover
 * the whole report: how a screen shows a customer report of a million rows
 * (206 MB of JSON as a whole) a page at a time.
 */
export const REPORT_PAGE_MAX = 1000;
export const ZReportRequestSchema = z
  .object({
    report: z.enum(REPORT_KINDS),
    from: zPeriodDate().nullish(),
    to: zPeriodDate().nullish(),
    format: z.enum(REPORT_FORMATS).default('json'),
    limit: wholeNumber(1, REPORT_PAGE_MAX).optional(),
    offset: wholeNumber(0, MAX_OFFSET).optional(),
    /** The portfolio report of one sales agent's customers (NO_AGENT: the customers without one). */
    agent: zAgentFilter(),
    /**
     * The customer report of the customers of these repayment standings only (README "Repayment standing"): Paid off
     * and On track are the customers to offer a second product to; rows and totals both.
     */
    standing: z.array(z.enum(REPAYMENT_STANDINGS)).min(1).max(REPAYMENT_STANDINGS.length).optional(),
  })
  .refine((q) => q.format === 'json' || q.limit === undefined, { error: 'only with format json', path: ['limit'] })
  .refine((q) => q.limit !== undefined || q.offset === undefined, { error: 'only with limit', path: ['offset'] })
  .refine((q) => periodInOrder(q.from, q.to), { error: 'must not be after to', path: ['from'] })
  .refine((q) => q.agent === undefined || q.report === 'portfolio', { error: 'only with the portfolio report', path: ['agent'] })
  .refine((q) => q.standing === undefined || q.report === 'customers', { error: 'only with the customer report', path: ['standing'] });
export type ReportRequest = z.infer<typeof ZReportRequestSchema>;

export const ZReportColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** money cells are "123.45" strings; number cells are numbers; percent cells are numbers of percent (12.5 is 12.5%) or null. */
  type: z.enum(['text', 'money', 'number', 'date', 'percent']),
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
  /**
   * What the figures rest on, when the report has such a line: the agent report's commission rates, or when a large
   * organization's portfolio report was worked out (it is kept up to 10 minutes).
   */
  note: z.string().nullable().optional(),
});
export type Report = z.infer<typeof ZReportSchema>;
