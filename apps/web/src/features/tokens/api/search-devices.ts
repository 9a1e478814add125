import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenKeys } from './keys';
import type { DeviceSuggestion } from './types';

/** Up to 5 devices whose serial, product or maker matches: suggestions for the serial number box. */
export async function searchDevices(query: string, signal?: AbortSignal): Promise<DeviceSuggestion[]> {
  const reply = await api.post<{ data?: DeviceSuggestion[] } | DeviceSuggestion[]>('/items/search', { query, limit: 5, offset: 0 }, { signal });
  return Array.isArray(reply) ? reply : (reply?.data ?? []);
}

export const devicesQueryOptions = (query: string) =>
  queryOptions({ queryKey: tokenKeys.devices(query), queryFn: ({ signal }) => searchDevices(query, signal), retry: false, staleTime: 60_000 });

/** Suggestions are a convenience: when the search fails the box still takes any serial typed. */
export const useDeviceSuggestions = (query: string, enabled: boolean) =>
  useQuery({ ...devicesQueryOptions(query.trim()), enabled, placeholderData: keepPreviousData });
