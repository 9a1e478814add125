import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dashboardKeys } from './keys';
import type { DateRange, UsageMetrics } from './types';

/** Tokens generated in the period: total, still valid, expired, the 3 newest. */
export const getUsageMetrics = (range: DateRange, signal?: AbortSignal) =>
  api.get<UsageMetrics>('/metrics/usage', { query: { ...range }, signal });

export const usageMetricsQueryOptions = (range: DateRange) =>
  queryOptions({ queryKey: dashboardKeys.usage(range), queryFn: ({ signal }) => getUsageMetrics(range, signal) });

export const useUsageMetrics = (range: DateRange) =>
  useQuery({ ...usageMetricsQueryOptions(range), placeholderData: keepPreviousData });
