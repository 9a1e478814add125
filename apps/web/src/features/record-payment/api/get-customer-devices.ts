import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { recordPaymentKeys } from './keys';
import type { CustomerDevice, CustomerItemsReply } from './types';

/** The customer's devices, to choose which one a payment is for. */
export async function getCustomerDevices(customerId: number, signal?: AbortSignal): Promise<CustomerDevice[]> {
  const reply = await api.get<CustomerItemsReply | null>(`/customers/${customerId}/items`, { signal });
  return reply?.data ?? [];
}

export const customerDevicesQueryOptions = (customerId: number) =>
  queryOptions({ queryKey: recordPaymentKeys.customerDevices(customerId), queryFn: ({ signal }) => getCustomerDevices(customerId, signal) });

export const useCustomerDevices = (customerId: number | null) =>
  useQuery({ ...customerDevicesQueryOptions(customerId ?? 0), enabled: customerId !== null });
