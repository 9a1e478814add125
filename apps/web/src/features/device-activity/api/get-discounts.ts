import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceDiscountList } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { deviceActivityKeys } from './keys';

/** A discount list as the API sends it, with an empty list and 0.00 for what is missing. */
const fetchDiscounts = async (path: string, signal?: AbortSignal): Promise<DeviceDiscountList> => {
  const reply = await api.get<Partial<DeviceDiscountList> | null>(path, { signal });
  return { data: Array.isArray(reply?.data) ? reply.data : [], total: reply?.total ?? '0.00' };
};

/** GET /items/{serial}/discounts: every discount given on the device, newest first, and the total on its present account. */
export const getDeviceDiscounts = (serial: string, signal?: AbortSignal) => fetchDiscounts(`/items/${encodeURIComponent(serial)}/discounts`, signal);

export const deviceDiscountsQueryOptions = (serial: string) =>
  queryOptions({ queryKey: deviceActivityKeys.discounts(serial), queryFn: ({ signal }) => getDeviceDiscounts(serial, signal) });

export const useDeviceDiscounts = (serial: string, enabled = true) => useQuery({ ...deviceDiscountsQueryOptions(serial), enabled });

/** GET /customers/{id}/discounts: the customer's discounts across their devices, and the total on the accounts they hold now. */
export const getCustomerDiscounts = (customerId: number, signal?: AbortSignal) => fetchDiscounts(`/customers/${customerId}/discounts`, signal);

export const useCustomerDiscounts = (customerId: number, enabled = true) =>
  useQuery({ queryKey: deviceActivityKeys.customerDiscounts(customerId), queryFn: ({ signal }) => getCustomerDiscounts(customerId, signal), enabled });
