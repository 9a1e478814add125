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

export const useDeviceDiscounts = (serial: string, enabled = true) => useQuery({ ...deviceDiscountsQueryOptions(serial), enabled });

/** GET /customers/{id}/discounts: the customer's discounts across their devices, and the total on the accounts they hold now. */
export async function getCustomerDiscounts(customerId: number, signal?: AbortSignal): Promise<DeviceDiscountList> {
  const reply = await api.get<Partial<DeviceDiscountList> | null>(`/customers/${customerId}/discounts`, { signal });
  return { data: Array.isArray(reply?.data) ? reply.data : [], total: reply?.total ?? '0.00' };
}

export const useCustomerDiscounts = (customerId: number, enabled = true) =>
  useQuery({ queryKey: deviceActivityKeys.customerDiscounts(customerId), queryFn: ({ signal }) => getCustomerDiscounts(customerId, signal), enabled });
