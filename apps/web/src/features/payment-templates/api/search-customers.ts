import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { CustomerChoice, OffsetPagination } from './types';

/** Customer results in the assignment flow are paged by 5 (spec §9). */
export const CUSTOMER_CHOICES_PAGE_SIZE = 5;

export const searchCustomers = (search: string, page: number, signal?: AbortSignal) =>
  api.get<{ data: CustomerChoice[]; pagination?: OffsetPagination }>('/registered-customers', {
    query: {
      limit: CUSTOMER_CHOICES_PAGE_SIZE,
      offset: (page - 1) * CUSTOMER_CHOICES_PAGE_SIZE,
      search_term: search || undefined,
      search_field: 'customer_name',
    },
    signal,
  });

export const customerChoicesQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: templateKeys.customerChoices(search, page),
    queryFn: ({ signal }) => searchCustomers(search, page, signal),
  });

export const useCustomerChoices = (search: string, page: number, enabled: boolean) =>
  useQuery({ ...customerChoicesQueryOptions(search, page), enabled, placeholderData: keepPreviousData });
