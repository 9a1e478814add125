// Mirrors packages/contracts/src/metrics.ts of the API worktree
// (feat/api-console) until that contract is merged into main; then these
// become re-exports from @kidogo/contracts.

/** Over payments paid in the period: revenue and average over successful ones; success_rate a fraction 0..1. */
export interface MetricsSummary {
  total_revenue: string;
  average_transaction: string;
  transaction_count: number;
  success_rate: number;
}

export interface RecentCustomer {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  county: string | null;
  status: string;
  created_at: string;
}

export interface CustomerMetrics {
  total: number;
  active: number;
  inactive: number;
  suspended: number;
  new_this_week: number;
  recent: RecentCustomer[];
}

export interface RecentPayment {
  payment_id: number;
  amount: string;
  status: string;
  customer_name: string | null;
  customer_id: number | null;
  payment_method: string;
  created_at: string;
  paid_at: string;
  serial_number: string | null;
  transaction_code: string | null;
}

export interface PaymentMetrics {
  total_revenue: string;
  total_payments: number;
  successful: number;
  pending: number;
  failed: number;
  recent: RecentPayment[];
}

export type RevenueInterval = 'day' | 'week' | 'month';

export interface RevenueSeries {
  interval: RevenueInterval;
  from: string;
  to: string;
  total_revenue: string;
  points: { period: string; revenue: string; count: number }[];
}

export interface UsageRecentToken {
  id: number;
  token: string;
  serial_number: string;
  customer_name: string | null;
  token_type: string;
  days: number;
  status: string;
  is_valid: boolean;
  created_at: string;
}

export interface UsageMetrics {
  tokens_total: number;
  tokens_active: number;
  tokens_expired: number;
  days_generated: number;
  by_type: { token_type: string; count: number; days: number }[];
  active_devices: number;
  expired_devices: number;
  recent: UsageRecentToken[];
}

/** A period of whole days, YYYY-MM-DD at both ends (inclusive). */
export interface DateRange {
  from: string;
  to: string;
}
