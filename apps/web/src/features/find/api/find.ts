import { FIND_MIN_LENGTH, type FindReply } from '@kidogo/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { findKeys } from './keys';

/** Whether a term is long enough for the API to search with (it refuses a shorter one with 400). */
export const isSearchable = (q: string) => q.trim().length >= FIND_MIN_LENGTH;

export async function find(q: string, signal?: AbortSignal): Promise<FindReply> {
  const reply = await api.get<Partial<FindReply> | null>('/find', { query: { q }, signal });
  return {
    q: reply?.q ?? q,
    customers: reply?.customers ?? [],
    devices: reply?.devices ?? [],
    payments: reply?.payments ?? [],
  };
}

export const findQueryOptions = (q: string) =>
  queryOptions({
    queryKey: findKeys.term(q),
    queryFn: ({ signal }) => find(q, signal),
    // A lookup is made to act on now: a customer registered a moment ago must be found, not a cached miss.
    staleTime: 0,
  });

/**
 * The answer for `q` (trimmed by the caller); nothing is asked under
 * FIND_MIN_LENGTH characters. The last answer stays while the next loads,
 * so the list does not flicker as the user types.
 */
export const useFind = (q: string) =>
  useQuery({ ...findQueryOptions(q), enabled: isSearchable(q), placeholderData: keepPreviousData });
