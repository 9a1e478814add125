import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { ticketKeys } from './keys';
import type { TicketHistoryReply } from './types';

export interface AddTicketNoteVariables {
  ticketId: number;
  note: string;
}

/** POST /tickets/{ticket_id}/notes: what was found or done, without moving the ticket on; answers the ticket's history. */
export const addTicketNote = ({ ticketId, note }: AddTicketNoteVariables): Promise<TicketHistoryReply> =>
  api.post<TicketHistoryReply>(`/tickets/${ticketId}/notes`, { note });

export function useAddTicketNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addTicketNote,
    // The reply is the history with the note last; the ticket moved (updated_at), so the lists read it again.
    onSuccess: (reply, { ticketId }) => {
      qc.setQueryData(ticketKeys.history(ticketId), reply.data);
      return Promise.all([refreshAfterWrite(qc, { queryKey: ticketKeys.lists() }), refreshAfterWrite(qc, { queryKey: ticketKeys.detail(ticketId) })]);
    },
  });
}
