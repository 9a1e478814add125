import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ticketKeys } from './keys';
import type { TicketAssignee, TicketAssigneesReply } from './types';

/** GET /tickets/assignees: the organization's active users, whom a ticket can be given to. */
export const getTicketAssignees = (signal?: AbortSignal): Promise<TicketAssignee[]> =>
  api.get<Partial<TicketAssigneesReply> | null>('/tickets/assignees', { signal }).then((reply) => reply?.data ?? []);

export const ticketAssigneesQueryOptions = () =>
  queryOptions({
    queryKey: ticketKeys.assignees(),
    queryFn: ({ signal }) => getTicketAssignees(signal),
    // The team changes seldom: one read serves every ticket opened or updated for a while.
    staleTime: 5 * 60_000,
  });

/** `enabled: false` until a form that offers the list is open. */
export const useTicketAssignees = (enabled = true) => useQuery({ ...ticketAssigneesQueryOptions(), enabled });
