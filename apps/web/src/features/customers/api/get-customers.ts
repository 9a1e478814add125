import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { CustomerListQuery, CustomerListReply } from './types';

/** Customers page size (spec §9). */
export const CUSTOMERS_PAGE_SIZE = 10;

export const getCustomers = (q: CustomerListQuery, signal?: AbortSignal) =>
  suspendableList(api.get<CustomerListReply>('/registered-customers', { query: { ...q }, signal }), {
    pagination: { total: 0, total_pages: 0, limit: q.limit, offset: q.offset },
  });

export const customersQueryOptions = (q: CustomerListQuery) =>
  queryOptions({ queryKey: customerKeys.list(q), queryFn: ({ signal }) => getCustomers(q, signal) });

export function useCustomers(q: CustomerListQuery) {
  return useQuery({ ...customersQueryOptions(q), placeholderData: keepPreviousData });
}
