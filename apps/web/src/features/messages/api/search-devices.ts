import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { messageKeys } from './keys';
import type { DeviceOption } from './types';

/** Devices to match a payment to: by serial number, product name or manufacturer. */
export async function searchDevices(query: string, signal?: AbortSignal): Promise<DeviceOption[]> {
  const reply = await api.post<{ data?: DeviceOption[] } | null>('/items/search', { query, limit: 10, offset: 0 }, { signal });
  return reply?.data ?? [];
}

export const deviceSearchQueryOptions = (query: string) =>
  queryOptions({ queryKey: messageKeys.devices(query), queryFn: ({ signal }) => searchDevices(query, signal) });

export const useDeviceSearch = (query: string, enabled: boolean) =>
  useQuery({ ...deviceSearchQueryOptions(query), enabled, placeholderData: keepPreviousData });
