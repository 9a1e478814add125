import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
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

/** One list as it reads once `ids` (or, none given, all) are read and `unread` are left. */
function markedIn(list: MyNotifications, ids: number[] | undefined, unread: number, readAt: string): MyNotifications {
  return {
    ...list,
    unread,
    items: list.items.map((n) => (n.read_at === null && (!ids || ids.includes(n.id)) ? { ...n, read_at: readAt } : n)),
  };
}

export function useMarkNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: async ({ unread }, { ids }) => {
      // The bell's count and the bold lines (the bell's and the page's) change at once, from the reply; the read again then brings what else changed.
      const readAt = new Date().toISOString();
      qc.setQueriesData<MyNotifications>({ queryKey: notificationKeys.latest() }, (old) => (old ? markedIn(old, ids, unread, readAt) : old));
      qc.setQueriesData<InfiniteData<MyNotifications>>({ queryKey: notificationKeys.pages() }, (old) =>
        old ? { ...old, pages: old.pages.map((page) => markedIn(page, ids, unread, readAt)) } : old,
      );
      await refreshAfterWrite(qc, { queryKey: notificationKeys.mine() });
    },
  });
}
