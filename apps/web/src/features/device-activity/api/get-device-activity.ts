import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceActivityKeys } from './keys';
import type { DeviceActivity, HistoryPage } from './types';

/** Every history is paged 20 at a time (spec §9). */
export const ACTIVITY_PAGE_SIZE = 20;

const pageOf = <T>(p: Partial<HistoryPage<T>> | T[] | undefined): HistoryPage<T> => {
  if (Array.isArray(p)) return { items: p, total: p.length };
  const items = p?.items ?? [];
  return { items, total: p?.total ?? items.length };
};

export async function getDeviceActivity(serial: string, page: number, signal?: AbortSignal) {
  const reply = await api.get<Partial<DeviceActivity> | null>(`/devices/${encodeURIComponent(serial)}/activity`, {
    query: { page, limit: ACTIVITY_PAGE_SIZE },
    signal,
  });
  const data = reply?.data;
  if (!data?.device_info) throw new Error('Failed to fetch device activity');
  return {
    device: data.device_info,
    tokens: pageOf(data.token_history),
    payments: pageOf(data.payment_history),
    messages: pageOf(data.message_history),
  };
}

export type DeviceActivityView = Awaited<ReturnType<typeof getDeviceActivity>>;

export const deviceActivityQueryOptions = (serial: string, page: number) =>
  queryOptions({
    queryKey: deviceActivityKeys.page(serial, page),
    queryFn: ({ signal }) => getDeviceActivity(serial, page, signal),
    // Payments, tokens and messages arrive all the time: always check on opening.
    staleTime: 0,
  });

export const useDeviceActivity = (serial: string, page: number) =>
  useQuery({ ...deviceActivityQueryOptions(serial, page), placeholderData: keepPreviousData });
