import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { MyNotificationsReply, UserNotification } from '@kidogo/contracts';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { notificationKeys } from './keys';

export type { UserNotification };
export type MyNotifications = MyNotificationsReply['data'];

/** The bell lists this many of the newest; the count is of every unread one. */
export const MY_NOTIFICATIONS_LIMIT = 10;
/** The Notifications page reads this many at a time (Load Older). */
export const MY_NOTIFICATIONS_PAGE_SIZE = 20;

const NONE: MyNotifications = { items: [], unread: 0, next_before: null };

export interface MyNotificationsParams {
  limit: number;
  /** Only the unread ones. */
  unread?: boolean;
  /** Only those older than this id (the previous page's next_before). */
  before?: number;
}

/** GET /me/notifications: the signed-in user's own notifications, newest first, with how many are unread in all. */
export const getMyNotifications = ({ limit, unread, before }: MyNotificationsParams, signal?: AbortSignal): Promise<MyNotifications> =>
  api
    .get<Partial<MyNotificationsReply> | null>('/me/notifications', { query: { limit, unread: unread || undefined, before }, signal })
    .then((reply) => ({ ...NONE, ...reply?.data }))
    // A blocked organization is told once, by the session (the event); the bell just stays empty meanwhile.
    .catch((error: unknown) => {
      if (error instanceof ServiceBlockedError) return NONE;
      throw error;
    });

export const myNotificationsQueryOptions = (limit = MY_NOTIFICATIONS_LIMIT) =>
  queryOptions({
    queryKey: notificationKeys.myList(limit),
    queryFn: ({ signal }) => getMyNotifications({ limit }, signal),
    refetchInterval: 60_000,
  });

export function useMyNotifications(limit = MY_NOTIFICATIONS_LIMIT) {
  return useQuery(myNotificationsQueryOptions(limit));
}

/** The Notifications page: all of them (or only the unread), a page at a time, each older page from the last one's next_before. */
export const myNotificationPagesQueryOptions = (unread: boolean) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.myPages(unread),
    queryFn: ({ signal, pageParam }) => getMyNotifications({ limit: MY_NOTIFICATIONS_PAGE_SIZE, unread, before: pageParam ?? undefined }, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before,
  });

export function useMyNotificationPages(unread: boolean) {
  return useInfiniteQuery(myNotificationPagesQueryOptions(unread));
}
