import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { notificationKeys } from './keys';

// Not in @kidogo/contracts yet: the shape GET /payg/notifications is being built to.
export interface AppNotification {
  id: string | number;
  message: string;
  level: 'info' | 'success' | 'warning' | 'error' | (string & {});
  created_by: string | null;
  created_at: string;
}

export interface NotificationsReply {
  data: AppNotification[];
}

export const getNotifications = (signal?: AbortSignal) =>
  suspendableList(api.get<NotificationsReply>('/notifications', { signal }));

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => getNotifications(signal),
    refetchInterval: 60_000,
  });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
