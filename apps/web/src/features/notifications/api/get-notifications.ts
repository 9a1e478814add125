import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import type { NotificationList, OrgNotification } from '@kidogo/contracts';
import { notificationKeys } from './keys';

export type AppNotification = OrgNotification;

export const getNotifications = (signal?: AbortSignal) =>
  suspendableList(api.get<NotificationList>('/notifications', { signal }));

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => getNotifications(signal),
    refetchInterval: 60_000,
  });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
