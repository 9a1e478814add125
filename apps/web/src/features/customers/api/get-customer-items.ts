import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { CustomerItem, CustomerItemsReply } from './types';

/** The reply may be a bare list or {data} (spec §7); both become a list. */
export const getCustomerItems = async (id: number, signal?: AbortSignal): Promise<CustomerItem[]> => {
  const reply = await api.get<CustomerItemsReply | CustomerItem[]>(`/customers/${id}/items`, { signal });
  return Array.isArray(reply) ? reply : (reply?.data ?? []);
};

export const customerItemsQueryOptions = (id: number) =>
  queryOptions({ queryKey: customerKeys.items(id), queryFn: ({ signal }) => getCustomerItems(id, signal) });

export function useCustomerItems(id: number | null) {
  return useQuery({ ...customerItemsQueryOptions(id ?? 0), enabled: id !== null });
}
