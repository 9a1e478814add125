import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dashboardKeys } from './keys';
import type { DateRange, RevenueInterval, RevenueSeries } from './types';

const DAY_MS = 86_400_000;

/** Days for ranges up to about two months, weeks up to a year, months beyond: a readable number of points. */
export function intervalFor(range: DateRange): RevenueInterval {
  const days = Math.round((Date.parse(range.to) - Date.parse(range.from)) / DAY_MS) + 1;
  if (days <= 62) return 'day';
  if (days <= 366) return 'week';
  return 'month';
}

export const getRevenue = (range: DateRange, interval: RevenueInterval, signal?: AbortSignal) =>
  api.get<RevenueSeries>('/metrics/revenue', { query: { ...range, interval }, signal });

export const revenueQueryOptions = (range: DateRange, interval = intervalFor(range)) =>
  queryOptions({ queryKey: dashboardKeys.revenue(range, interval), queryFn: ({ signal }) => getRevenue(range, interval, signal) });

export const useRevenue = (range: DateRange) => useQuery({ ...revenueQueryOptions(range), placeholderData: keepPreviousData });
