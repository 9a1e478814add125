import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ONBOARDING_PAGE_SIZE } from './constants';
import { onboardingKeys } from './keys';
import type { CustomerOption, OffsetPagination, OptionPage } from './types';

export async function searchCustomers(search: string, page: number, signal?: AbortSignal): Promise<OptionPage<CustomerOption>> {
  const reply = await api.get<{ data?: CustomerOption[]; pagination?: Partial<OffsetPagination> } | CustomerOption[] | null>(
    '/registered-customers',
    {
      query: {
        limit: ONBOARDING_PAGE_SIZE,
        offset: (page - 1) * ONBOARDING_PAGE_SIZE,
        search_term: search || undefined,
        search_field: 'customer_name',
      },
      signal,
    },
  );
  if (Array.isArray(reply)) return { data: reply, total: reply.length };
  const data = reply?.data ?? [];
  return { data, total: reply?.pagination?.total ?? data.length };
}

export const customerOptionsQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: onboardingKeys.customers(search, page),
    queryFn: ({ signal }) => searchCustomers(search, page, signal),
  });

export const useCustomerOptions = (search: string, page: number) =>
  useQuery({ ...customerOptionsQueryOptions(search, page), placeholderData: keepPreviousData });
