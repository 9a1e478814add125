import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { deviceSwapKeys } from './keys';
import type { DeviceSwap, DeviceSwapsListQuery, DeviceSwapsReply } from './types';

/** Swaps are rare: a page of 10 holds a device's or a customer's for years. */
export const DEVICE_SWAPS_PAGE_SIZE = 10;

export interface DeviceSwapsPage {
  data: DeviceSwap[];
  total: number;
}

/** GET /device-swaps: newest first; one device's (either side of the swap) or one customer's. */
export const getDeviceSwaps = (q: DeviceSwapsListQuery, signal?: AbortSignal) =>
  suspendableList<DeviceSwapsPage>(
    api
      .get<Partial<DeviceSwapsReply> | null>('/device-swaps', {
        query: { page: q.page, limit: q.limit, serial_number: q.serial_number, customer_id: q.customer_id },
        signal,
      })
      .then((reply) => {
        const data = Array.isArray(reply?.data) ? reply.data : [];
        return { data, total: reply?.pagination?.total ?? data.length };
      }),
    { total: 0 },
  );

export const deviceSwapsQueryOptions = (q: DeviceSwapsListQuery) =>
  queryOptions({ queryKey: deviceSwapKeys.list(q), queryFn: ({ signal }) => getDeviceSwaps(q, signal) });

/** The previous page stays on screen while the next one loads, so the table does not jump. */
export const useDeviceSwaps = (q: DeviceSwapsListQuery) => useQuery({ ...deviceSwapsQueryOptions(q), placeholderData: keepPreviousData });
