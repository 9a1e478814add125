import type { Health } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { dashboardKeys } from './keys';

export const getHealth = (signal?: AbortSignal) => api.get<Health>('/health', { signal });

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.health(),
    queryFn: ({ signal }) => getHealth(signal),
    retry: false,
    staleTime: 15_000,
  });

export const useHealth = () => useQuery(healthQueryOptions());
