import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ticketKeys } from './keys';
import type { Ticket, TicketReply } from './types';

/** GET /tickets/{ticket_id}: one ticket, as a link to it (a notification's) opens it. 404: not one of the organization's. */
export const getTicket = (ticketId: number, signal?: AbortSignal): Promise<Ticket> =>
  api.get<TicketReply>(`/tickets/${ticketId}`, { signal }).then((reply) => reply.data);

export const ticketQueryOptions = (ticketId: number) =>
  queryOptions({ queryKey: ticketKeys.detail(ticketId), queryFn: ({ signal }) => getTicket(ticketId, signal) });

/** Nothing is asked while `ticketId` is null. */
export const useTicket = (ticketId: number | null) =>
  useQuery({ ...ticketQueryOptions(ticketId ?? 0), enabled: ticketId !== null });
