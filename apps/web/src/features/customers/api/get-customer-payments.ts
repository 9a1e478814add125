import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { CustomerPayment, CustomerPaymentsReply } from './types';

/** Newest first; the reply may be a bare list or {data} (spec §7). */
export const getCustomerPayments = async (id: number, signal?: AbortSignal): Promise<CustomerPayment[]> => {
  const reply = await api.get<CustomerPaymentsReply | CustomerPayment[]>(`/customers/${id}/payments`, {
    query: { limit: 50 },
    signal,
  });
  return Array.isArray(reply) ? reply : (reply?.data ?? []);
};

export const customerPaymentsQueryOptions = (id: number) =>
  queryOptions({ queryKey: customerKeys.payments(id), queryFn: ({ signal }) => getCustomerPayments(id, signal) });

export function useCustomerPayments(id: number | null) {
  return useQuery({ ...customerPaymentsQueryOptions(id ?? 0), enabled: id !== null });
}
