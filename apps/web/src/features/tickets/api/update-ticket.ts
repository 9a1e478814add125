import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { ticketKeys } from './keys';
import type { Ticket, TicketReply, TicketUpdate } from './types';

export interface UpdateTicketVariables {
  ticketId: number;
  input: TicketUpdate;
}

/** PATCH /tickets/{ticket_id}: move it on, hand it to someone else, correct its category, say how it was resolved. */
export const updateTicket = ({ ticketId, input }: UpdateTicketVariables): Promise<Ticket> =>
  api.patch<TicketReply>(`/tickets/${ticketId}`, input).then((reply) => reply.data);

export function useUpdateTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateTicket,
    // A status change moves the ticket between tabs and their counts; the device page's card shows it too.
    onSuccess: () => refreshAfterWrite(qc, { queryKey: ticketKeys.lists() }),
  });
}
