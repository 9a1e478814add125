import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ticketKeys } from './keys';
import type { TicketHistoryEntry, TicketHistoryReply } from './types';

/** GET /tickets/{ticket_id}/history: who opened, moved on, assigned and resolved the ticket, oldest first. */
export const getTicketHistory = (ticketId: number, signal?: AbortSignal): Promise<TicketHistoryEntry[]> =>
  api.get<Partial<TicketHistoryReply> | null>(`/tickets/${ticketId}/history`, { signal }).then((reply) => reply?.data ?? []);

export const ticketHistoryQueryOptions = (ticketId: number) =>
  queryOptions({ queryKey: ticketKeys.history(ticketId), queryFn: ({ signal }) => getTicketHistory(ticketId, signal) });

export const useTicketHistory = (ticketId: number) => useQuery(ticketHistoryQueryOptions(ticketId));
