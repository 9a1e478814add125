import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettingsInput, NotificationSettingsReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import type { NotificationSettings } from './get-notification-settings';
import { notificationKeys } from './keys';

/** PUT /me/notification-settings: the whole lists of kinds turned off ([] turns every kind on) and, when given, emailed. */
export const updateNotificationSettings = (input: NotificationSettingsInput): Promise<NotificationSettings> =>
  api.put<NotificationSettingsReply>('/me/notification-settings', input).then((reply) => reply.data);

/**
 * Saves at once, the switches showing the new list while it is on its way;
 * a refusal puts back the list as it was.
 */
export function useUpdateNotificationSettings() {
  const qc = useQueryClient();
  const key = notificationKeys.settings();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onMutate: async (input) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<NotificationSettings>(key);
      if (previous) {
        qc.setQueryData<NotificationSettings>(key, {
          ...previous,
          muted: [...input.muted],
          emailed: input.emailed ? [...input.emailed] : previous.emailed,
          daily_summary: input.daily_summary ?? previous.daily_summary,
        });
      }
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) qc.setQueryData(key, context.previous);
    },
    onSuccess: (reply) => {
      qc.setQueryData(key, reply);
    },
  });
}
