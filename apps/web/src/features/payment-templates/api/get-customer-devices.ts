import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomerItemsReply, Item } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';

/** The devices of the customer chosen in the assignment flow: a plan can be given to one of them alone. */
export const getCustomerDevices = async (customerId: number, signal?: AbortSignal): Promise<Item[]> => {
  const reply = await api.get<CustomerItemsReply | Item[]>(`/customers/${customerId}/items`, { signal });
  return Array.isArray(reply) ? reply : (reply?.data ?? []);
};

export const customerDevicesQueryOptions = (customerId: number) =>
  queryOptions({
    queryKey: templateKeys.customerDevices(customerId),
    queryFn: ({ signal }) => getCustomerDevices(customerId, signal),
  });

export const useCustomerDevices = (customerId: number | null) =>
  useQuery({ ...customerDevicesQueryOptions(customerId ?? 0), enabled: customerId !== null });
