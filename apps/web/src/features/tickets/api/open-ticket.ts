import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { ticketKeys } from './keys';
import type { Ticket, TicketInput, TicketReply } from './types';

/** POST /tickets: a ticket for a device, by its serial number, opened by the signed-in user. */
export const openTicket = (input: TicketInput): Promise<Ticket> => api.post<TicketReply>('/tickets', input).then((reply) => reply.data);

export function useOpenTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: openTicket,
    // The lists and their counts changed, the device and customer pages' cards too.
    onSuccess: () => refreshAfterWrite(qc, { queryKey: ticketKeys.lists() }),
  });
}
