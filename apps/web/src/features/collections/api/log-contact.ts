import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { collectionKeys } from './keys';
import type { Contact, ContactInput, ContactReply } from './types';

export interface LogContactVariables {
  itemId: number;
  input: ContactInput;
}

/** POST /collections/{item_id}/contacts: a call or visit about the device, logged as the signed-in user. */
export const logContact = ({ itemId, input }: LogContactVariables): Promise<Contact> =>
  api.post<ContactReply>(`/collections/${itemId}/contacts`, input).then((reply) => reply.data);

export function useLogContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: logContact,
    // The row's Last Contact and the device's history changed. One key reads the whole screen again,
    // the counts too: payments may have moved them since the page was opened.
    onSuccess: () => refreshAfterWrite(qc, { queryKey: collectionKeys.all }),
  });
}
