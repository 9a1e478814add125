import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ONBOARDING_PAGE_SIZE } from './constants';
import { onboardingKeys } from './keys';
import type { ItemOption, OffsetPagination, OptionPage } from './types';

/**
 * POST /items/search over serial number, product name and manufacturer. Only
 * devices nobody has yet: an assigned one would be refused anyway.
 */
export async function searchItems(query: string, page: number, signal?: AbortSignal): Promise<OptionPage<ItemOption>> {
  const reply = await api.post<{ data?: ItemOption[]; pagination?: Partial<OffsetPagination> } | null>(
    '/items/search',
    { query, limit: ONBOARDING_PAGE_SIZE, offset: (page - 1) * ONBOARDING_PAGE_SIZE, is_assigned: false },
    { signal },
  );
  const data = reply?.data ?? [];
  return { data, total: reply?.pagination?.total ?? data.length };
}

export const itemOptionsQueryOptions = (query: string, page: number) =>
  queryOptions({
    queryKey: onboardingKeys.items(query, page),
    queryFn: ({ signal }) => searchItems(query, page, signal),
  });

export const useItemOptions = (query: string, page: number) =>
  useQuery({ ...itemOptionsQueryOptions(query, page), placeholderData: keepPreviousData });
