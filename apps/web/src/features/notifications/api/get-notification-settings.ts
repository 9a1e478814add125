import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationSettingsReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';

/** The kinds of notification the user has turned off (every other kind is on), those also emailed, and where to. */
export type NotificationSettings = NotificationSettingsReply['data'];

/** GET /me/notification-settings. */
export const getNotificationSettings = (signal?: AbortSignal): Promise<NotificationSettings> =>
  api.get<NotificationSettingsReply>('/me/notification-settings', { signal }).then((reply) => reply.data);

export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => getNotificationSettings(signal),
  });

export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions());
}
