import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkNotificationsReadReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { MyNotifications } from './get-my-notifications';
import { notificationKeys } from './keys';

export type MarkedRead = MarkNotificationsReadReply['data'];

/** Which to mark read: these ids (1 to MARK_READ_MAX_IDS of them), or, left out, every one. */
export interface MarkReadInput {
  ids?: number[];
}

/** POST /me/notifications/read: these of the signed-in user's notifications, or (no ids) all of them, read. */
export const markNotificationsRead = (input: MarkReadInput): Promise<MarkedRead> =>
  api.post<MarkNotificationsReadReply>('/me/notifications/read', input).then((reply) => reply.data);

export function useMarkNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: async ({ unread }, { ids }) => {
      // The bell's count and bold lines change at once, from the reply; the read again then brings what else changed.
      const readAt = new Date().toISOString();
      qc.setQueriesData<MyNotifications>({ queryKey: notificationKeys.mine() }, (old) =>
        old
          ? {
              ...old,
              unread,
              items: old.items.map((n) => (n.read_at === null && (!ids || ids.includes(n.id)) ? { ...n, read_at: readAt } : n)),
            }
          : old,
      );
      await refreshAfterWrite(qc, { queryKey: notificationKeys.mine() });
    },
  });
}
