import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { ReminderSettings, ReminderSettingsInput } from './types';

export const updateReminders = (input: ReminderSettingsInput) => api.put<ReminderSettings>('/settings/reminders', input);

export function useUpdateReminders() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateReminders,
    onSuccess: (reply) => qc.setQueryData(settingsKeys.reminders(), reply),
  });
}
