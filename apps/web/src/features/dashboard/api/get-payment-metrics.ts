import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dashboardKeys } from './keys';
import type { DateRange, PaymentMetrics } from './types';

/** Recent Transactions shows up to 5 (spec §9); the Payment Analytics card the first 3 of them. */
export const RECENT_TRANSACTIONS = 5;

export const getPaymentMetrics = (range: DateRange, signal?: AbortSignal) =>
  api.get<PaymentMetrics>('/metrics/payments', { query: { ...range, limit: RECENT_TRANSACTIONS }, signal });

export const paymentMetricsQueryOptions = (range: DateRange) =>
  queryOptions({ queryKey: dashboardKeys.payments(range), queryFn: ({ signal }) => getPaymentMetrics(range, signal) });

export const usePaymentMetrics = (range: DateRange) =>
  useQuery({ ...paymentMetricsQueryOptions(range), placeholderData: keepPreviousData });
