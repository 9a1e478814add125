import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { CustomerStatusReply } from './types';

/** Totals and the remaining balance across the customer's devices. */
export const getCustomerStatus = (id: number, signal?: AbortSignal) =>
  api.get<CustomerStatusReply>(`/customers/${id}/status`, { signal });

export const customerStatusQueryOptions = (id: number) =>
  queryOptions({ queryKey: customerKeys.status(id), queryFn: ({ signal }) => getCustomerStatus(id, signal) });

export function useCustomerStatus(id: number | null) {
  return useQuery({ ...customerStatusQueryOptions(id ?? 0), enabled: id !== null });
}
