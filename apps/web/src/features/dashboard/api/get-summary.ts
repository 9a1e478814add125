import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dashboardKeys } from './keys';
import type { DateRange, MetricsSummary } from './types';

export const getSummary = (range: DateRange, signal?: AbortSignal) =>
  api.get<MetricsSummary>('/metrics/summary', { query: { ...range }, signal });

export const summaryQueryOptions = (range: DateRange) =>
  queryOptions({ queryKey: dashboardKeys.summary(range), queryFn: ({ signal }) => getSummary(range, signal) });

export const useSummary = (range: DateRange) => useQuery({ ...summaryQueryOptions(range), placeholderData: keepPreviousData });
