import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { Customer } from './types';

export const getCustomer = (id: number, signal?: AbortSignal) => api.get<Customer>(`/customers/${id}`, { signal });

export const customerQueryOptions = (id: number) =>
  queryOptions({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => getCustomer(id, signal) });

export function useCustomer(id: number | null, initialData?: Customer) {
  return useQuery({
    ...customerQueryOptions(id ?? 0),
    enabled: id !== null,
    // The row the user clicked is shown at once; the fresh copy replaces it.
    placeholderData: initialData,
  });
}
