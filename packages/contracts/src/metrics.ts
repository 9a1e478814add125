import { z } from 'zod';
import { isCalendarDay, ZMoneySchema, zQueryInt } from './common.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HOUR_MS = 3_600_000;

/**
 * A date or date-time in a query string or body ("2026-01-31" or
 * "2026-01-31T12:00:00Z"). A bare date is a business day: a day in the
 * installation's time zone (TIME_ZONE, Africa/Nairobi unless set). As `from`
 * it starts at that day's midnight there, as `to` it covers the whole day:
 * ranges are from ≤ t < the start of the day after `to`. A date-time is
 * that instant.
 */
export const zPeriodDate = () =>
  z
    .string()
    .trim()
    .max(40)
    .refine((s) => (ISO_DATE.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && isCalendarDay(s) && !Number.isNaN(Date.parse(s)), {
      error: 'must be a date (YYYY-MM-DD) or an ISO date-time',
    });

/**
 * Whether a period's ends may be in order: `from` at or before the end of
 * `to`, which for a bare date is the last moment of that day (from
 * 2026-11-24T08:00:00Z to 2026-11-24 is a period). A bare date is a day in
 * a time zone the client does not know, so where one end is a bare date and
 * the other a date-time, this allows for every zone (UTC-12 to UTC+14) and
 * the API, which knows its zone, decides exactly.
 */
export const periodInOrder = (from: string | null | undefined, to: string | null | undefined): boolean => {
  if (!from || !to) return true;
  const [fromDay, toDay] = [ISO_DATE.test(from), ISO_DATE.test(to)];
  if (fromDay && toDay) return from <= to;
  const start = fromDay ? Date.parse(from) - 14 * HOUR_MS : Date.parse(from);
  const end = toDay ? Date.parse(to) + 36 * HOUR_MS - 1 : Date.parse(to);
  return start <= end;
};

/** Optional period; both ends optional, from must not be after to. */
export const ZDateRangeQuerySchema = z
  .object({
    from: zPeriodDate().optional(),
    to: zPeriodDate().optional(),
  })
  .refine((q) => periodInOrder(q.from, q.to), {
    error: 'must not be after to',
    path: ['from'],
  });
export type DateRangeQuery = z.infer<typeof ZDateRangeQuerySchema>;

/**
 * GET /metrics/summary. Over payments paid in the period (all time without one):
 * - total_revenue: sum of successful payments (status success or completed);
 * - average_transaction: total_revenue / number of successful payments ("0.00" when none);
 * - transaction_count: all payments, whatever their status;
 * - success_rate: successful / all, a fraction 0..1 (0 when there are none).
 */
export const ZMetricsSummarySchema = z.object({
  total_revenue: ZMoneySchema,
  average_transaction: ZMoneySchema,
  transaction_count: z.number().int(),
  success_rate: z.number().min(0).max(1),
});
export type MetricsSummary = z.infer<typeof ZMetricsSummarySchema>;

export const ZRecentCustomerSchema = z.object({
  customer_id: z.number().int(),
  customer_name: z.string(),
  phone_contact: z.string(),
  county: z.string().nullable(),
  status: z.string(),
  created_at: z.string(),
});

/** GET /metrics/customers: counts by status; new_this_week = created in the last 7 days (7 × 24 hours back from now); recent = the 3 newest. */
export const ZCustomerMetricsSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
  suspended: z.number().int(),
  new_this_week: z.number().int(),
  recent: z.array(ZRecentCustomerSchema),
});
export type CustomerMetrics = z.infer<typeof ZCustomerMetricsSchema>;

export const ZPaymentMetricsQuerySchema = z
  .object({
    limit: zQueryInt({ default: 5, min: 1, max: 100 }),
    from: zPeriodDate().optional(),
    to: zPeriodDate().optional(),
  })
  .refine((q) => periodInOrder(q.from, q.to), { error: 'must not be after to', path: ['from'] });
export type PaymentMetricsQuery = z.infer<typeof ZPaymentMetricsQuerySchema>;

export const ZRecentPaymentSchema = z.object({
  payment_id: z.number().int(),
  amount: ZMoneySchema,
  status: z.string(),
  customer_name: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  payment_method: z.string(),
  created_at: z.string(),
  paid_at: z.string(),
  serial_number: z.string().nullable(),
  transaction_code: z.string().nullable(),
});
export type RecentPayment = z.infer<typeof ZRecentPaymentSchema>;

/**
 * GET /metrics/payments: payments paid in the period; total_revenue over the
 * successful ones (success or completed); failed = every other status but
 * pending; recent = the last `limit` payments paid (default 5), newest paid_at
 * first (the order the period selects by, not the order they were recorded in).
 */
export const ZPaymentMetricsSchema = z.object({
  total_revenue: ZMoneySchema,
  total_payments: z.number().int(),
  successful: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  recent: z.array(ZRecentPaymentSchema),
});
export type PaymentMetrics = z.infer<typeof ZPaymentMetricsSchema>;

/**
 * GET /metrics/items: devices. assigned = is_assigned; available, maintenance
 * and retired count the status; by_product = the 10 product names with most devices.
 */
export const ZItemMetricsSchema = z.object({
  total: z.number().int(),
  assigned: z.number().int(),
  unassigned: z.number().int(),
  available: z.number().int(),
  maintenance: z.number().int(),
  retired: z.number().int(),
  assignment_rate: z.number().min(0).max(1),
  by_product: z.array(z.object({ product_name: z.string(), total: z.number().int(), assigned: z.number().int() })),
});
export type ItemMetrics = z.infer<typeof ZItemMetricsSchema>;

export const REVENUE_INTERVALS = ['day', 'week', 'month'] as const;
/** At most this many points in one series (3 years by day). */
export const MAX_REVENUE_POINTS = 1100;

export const ZRevenueQuerySchema = z
  .object({
    from: zPeriodDate().optional(),
    to: zPeriodDate().optional(),
    interval: z.enum(REVENUE_INTERVALS).default('day'),
  })
  .refine((q) => periodInOrder(q.from, q.to), { error: 'must not be after to', path: ['from'] });
export type RevenueQuery = z.infer<typeof ZRevenueQuerySchema>;

/**
 * GET /metrics/revenue: successful payments per period (business days, ISO
 * weeks starting Monday, or months, in the installation's TIME_ZONE), every
 * period of the range present (zeros in the gaps). Default range: the last 30
 * days ending today. period is the first day of the period (YYYY-MM-DD);
 * from and to are the first and last day of the range.
 */
export const ZRevenueSeriesSchema = z.object({
  interval: z.enum(REVENUE_INTERVALS),
  from: z.string(),
  to: z.string(),
  total_revenue: ZMoneySchema,
  points: z.array(z.object({ period: z.string(), revenue: ZMoneySchema, count: z.number().int() })),
});
export type RevenueSeries = z.infer<typeof ZRevenueSeriesSchema>;

export const ZUsageRecentTokenSchema = z.object({
  id: z.number().int(),
  token: z.string(),
  serial_number: z.string(),
  customer_name: z.string().nullable(),
  token_type: z.string(),
  days: z.number(),
  status: z.string(),
  is_valid: z.boolean(),
  created_at: z.string(),
});
export type UsageRecentToken = z.infer<typeof ZUsageRecentTokenSchema>;

/**
 * GET /metrics/usage: tokens generated in the period (all time without one).
 * tokens_active = still valid (is_valid), tokens_expired = no longer valid;
 * days_generated = days of use those tokens bought; by_type per token type;
 * active_devices = assigned devices whose credit runs until now or later,
 * expired_devices = assigned devices whose credit has run out (now, not in the period;
 * on a portfolio where counting them takes more than 200 ms, about 100,000
 * devices and more, counted at most 5 minutes ago);
 * recent = the 3 newest tokens.
 */
export const ZUsageMetricsSchema = z.object({
  tokens_total: z.number().int(),
  tokens_active: z.number().int(),
  tokens_expired: z.number().int(),
  days_generated: z.number(),
  by_type: z.array(z.object({ token_type: z.string(), count: z.number().int(), days: z.number() })),
  active_devices: z.number().int(),
  expired_devices: z.number().int(),
  recent: z.array(ZUsageRecentTokenSchema),
});
export type UsageMetrics = z.infer<typeof ZUsageMetricsSchema>;

/**
 * GET /metrics/performance (current state of the portfolio):
 * - collection_rate: over assigned devices whose customer has an active
 *   template, money collected / money due, where due = min(payoff price,
 *   deposit + daily price × whole days since the device was assigned) and
 *   collected = what was paid on the device, capped at due. 0..1; 0 when nothing is due yet.
 * - average_days_between_payments: mean gap in days between consecutive
 *   successful payments of the same device over the last 365 days (devices
 *   with 2+ payments); 0 when none.
 * - paid_off_devices: devices paid in full (paid_off_at set).
 * - portfolio_at_risk: assigned, not paid-off devices whose credit ran out
 *   more than 7 days ago, divided by assigned devices (0..1).
 * - as_of: when these figures were computed. For a portfolio whose figures
 *   take more than 200 ms to compute (about 50,000 devices and more), they
 *   are kept and served up to 5 minutes old while a fresh set is computed in
 *   the background; otherwise they are computed for each request and as_of
 *   is now.
 */
export const ZPerformanceMetricsSchema = z.object({
  collection_rate: z.number().min(0).max(1),
  amount_due: ZMoneySchema,
  amount_collected: ZMoneySchema,
  average_days_between_payments: z.number(),
  paid_off_devices: z.number().int(),
  assigned_devices: z.number().int(),
  devices_at_risk: z.number().int(),
  portfolio_at_risk: z.number().min(0).max(1),
  as_of: z.string(),
});
export type PerformanceMetrics = z.infer<typeof ZPerformanceMetricsSchema>;
