import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dashboardKeys } from './keys';
import type { CustomerMetrics } from './types';

/** Customers now (not per period): totals by status, new this week, the 3 newest. */
export const getCustomerMetrics = (signal?: AbortSignal) => api.get<CustomerMetrics>('/metrics/customers', { signal });

export const customerMetricsQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.customers(), queryFn: ({ signal }) => getCustomerMetrics(signal) });

export const useCustomerMetrics = () => useQuery(customerMetricsQueryOptions());
