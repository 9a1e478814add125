import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceDiscountList } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { deviceActivityKeys } from './keys';

/** GET /items/{serial}/discounts: every discount given on the device, newest first, and the total on its present account. */
export async function getDeviceDiscounts(serial: string, signal?: AbortSignal): Promise<DeviceDiscountList> {
  const reply = await api.get<Partial<DeviceDiscountList> | null>(`/items/${encodeURIComponent(serial)}/discounts`, { signal });
  return { data: Array.isArray(reply?.data) ? reply.data : [], total: reply?.total ?? '0.00' };
}

export const deviceDiscountsQueryOptions = (serial: string) =>
  queryOptions({ queryKey: deviceActivityKeys.discounts(serial), queryFn: ({ signal }) => getDeviceDiscounts(serial, signal) });

export const useDeviceDiscounts = (serial: string) => useQuery(deviceDiscountsQueryOptions(serial));
