import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceActivityKeys } from '@/features/device-activity/api/keys';
import { tokenKeys } from '@/features/tokens/api/keys';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { ticketKeys } from './keys';
import type { TicketReply, TicketUpdate } from './types';

export interface UpdateTicketVariables {
  ticketId: number;
  input: TicketUpdate;
}

/**
 * PATCH /tickets/{ticket_id}: move it on, hand it to someone else, correct its category, say how it was resolved.
 * The reply's `token` is the code of the free days given with the resolution (compensation_days).
 */
export const updateTicket = ({ ticketId, input }: UpdateTicketVariables): Promise<TicketReply> => api.patch<TicketReply>(`/tickets/${ticketId}`, input);

export function useUpdateTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateTicket,
    // A status change moves the ticket between tabs and their counts; the device and customer pages' cards show it too.
    // The change is a new line of the ticket's history, and the ticket as a link opened it is not what it was.
    // Free days are a new code: the device's Token History and days left, and the Tokens page's log.
    onSuccess: (reply, { ticketId }) =>
      Promise.all([
        refreshAfterWrite(qc, { queryKey: ticketKeys.lists() }),
        refreshAfterWrite(qc, { queryKey: ticketKeys.history(ticketId) }),
        refreshAfterWrite(qc, { queryKey: ticketKeys.detail(ticketId) }),
        ...(reply.token ? [refreshAfterWrite(qc, { queryKey: deviceActivityKeys.all }), refreshAfterWrite(qc, { queryKey: tokenKeys.all })] : []),
      ]),
  });
}
