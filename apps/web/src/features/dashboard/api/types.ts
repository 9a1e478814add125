// The metrics shapes are the API's contract (packages/contracts/src/metrics.ts).
export type {
  CustomerMetrics,
  MetricsSummary,
  PaymentMetrics,
  RecentPayment,
  RevenueSeries,
  UsageMetrics,
  UsageRecentToken,
} from '@kidogo/contracts';

export type RevenueInterval = 'day' | 'week' | 'month';

/** A period of whole days, YYYY-MM-DD at both ends (inclusive). */
export interface DateRange {
  from: string;
  to: string;
}
