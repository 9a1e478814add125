import type { Health } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';

/** The Online / Connected badges are the live answer of GET /health. */
export const getHealth = (signal?: AbortSignal) => api.get<Health>('/health', { signal });

export const healthQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.health(), queryFn: ({ signal }) => getHealth(signal), retry: false, refetchInterval: 60_000 });

export const useHealth = () => useQuery(healthQueryOptions());
