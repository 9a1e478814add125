import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productKeys } from './keys';
import type { CustomerListReply, CustomerSummary } from './types';

/** The assign dialog looks customers up by name, 50 at a time (spec §9). */
export const CUSTOMER_SEARCH_LIMIT = 50;

export async function searchCustomers(term: string, signal?: AbortSignal): Promise<CustomerSummary[]> {
  const reply = await api.get<Partial<CustomerListReply> | CustomerSummary[] | null>('/registered-customers', {
    query: { limit: CUSTOMER_SEARCH_LIMIT, offset: 0, search_term: term, search_field: 'customer_name' },
    signal,
  });
  if (Array.isArray(reply)) return reply;
  return reply?.data ?? [];
}

export const customerSearchQueryOptions = (term: string) =>
  queryOptions({
    queryKey: productKeys.customerSearch(term),
    queryFn: ({ signal }) => searchCustomers(term, signal),
    staleTime: 0,
  });

/** Runs when a term has been submitted (the Search button or Enter), not on every keystroke. */
export const useCustomerSearch = (term: string | null) =>
  useQuery({ ...customerSearchQueryOptions(term ?? ''), enabled: term !== null && term !== '' });
