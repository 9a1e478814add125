import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyNotificationsReply, UserNotification } from '@kidogo/contracts';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { notificationKeys } from './keys';

export type { UserNotification };
export type MyNotifications = MyNotificationsReply['data'];

/** The bell lists this many of the newest; the count is of every unread one. */
export const MY_NOTIFICATIONS_LIMIT = 10;

const NONE: MyNotifications = { items: [], unread: 0, next_before: null };

/** GET /me/notifications: the signed-in user's own notifications, newest first, with how many are unread in all. */
export const getMyNotifications = (limit: number, signal?: AbortSignal): Promise<MyNotifications> =>
  api
    .get<Partial<MyNotificationsReply> | null>('/me/notifications', { query: { limit }, signal })
    .then((reply) => ({ ...NONE, ...reply?.data }))
    // A blocked organization is told once, by the session (the event); the bell just stays empty meanwhile.
    .catch((error: unknown) => {
      if (error instanceof ServiceBlockedError) return NONE;
      throw error;
    });

export const myNotificationsQueryOptions = (limit = MY_NOTIFICATIONS_LIMIT) =>
  queryOptions({
    queryKey: notificationKeys.myList(limit),
    queryFn: ({ signal }) => getMyNotifications(limit, signal),
    refetchInterval: 60_000,
  });

export function useMyNotifications(limit = MY_NOTIFICATIONS_LIMIT) {
  return useQuery(myNotificationsQueryOptions(limit));
}
