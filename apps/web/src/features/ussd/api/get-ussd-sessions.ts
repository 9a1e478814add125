import type { UssdSessionsReply } from '@kidogo/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ussdKeys } from './keys';
import type { UssdSessionsPageQuery } from './types';

/** The table reads this many at a time (Load Older). */
export const USSD_SESSIONS_PAGE_SIZE = 20;

/** GET /settings/ussd/sessions: the menu's sessions, newest first; `before` pages back. */
export const getUssdSessions = ({ limit, before }: UssdSessionsPageQuery, signal?: AbortSignal) =>
  api.get<UssdSessionsReply>('/settings/ussd/sessions', { query: { limit, before }, signal });

/** GET /customers/{id}/ussd-sessions: one customer's sessions, newest first (any user). */
export const getCustomerUssdSessions = (customerId: number, { limit, before }: UssdSessionsPageQuery, signal?: AbortSignal) =>
  api.get<UssdSessionsReply>(`/customers/${customerId}/ussd-sessions`, { query: { limit, before }, signal });

/** A page at a time, each older page from the last one's next_before: every session, or one customer's. */
export const ussdSessionsQueryOptions = (customerId?: number) =>
  infiniteQueryOptions({
    queryKey: customerId === undefined ? ussdKeys.sessions() : ussdKeys.customerSessions(customerId),
    queryFn: ({ signal, pageParam }) => {
      const page = { limit: USSD_SESSIONS_PAGE_SIZE, before: pageParam ?? undefined };
      return customerId === undefined ? getUssdSessions(page, signal) : getCustomerUssdSessions(customerId, page, signal);
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before,
  });

export const useUssdSessions = (customerId?: number) => useInfiniteQuery(ussdSessionsQueryOptions(customerId));
