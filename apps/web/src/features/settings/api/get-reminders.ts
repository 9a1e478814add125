import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { ReminderSettings } from './types';

export const getReminders = (signal?: AbortSignal) => api.get<ReminderSettings>('/settings/reminders', { signal });

export const remindersQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.reminders(), queryFn: ({ signal }) => getReminders(signal) });

export const useReminders = () => useQuery(remindersQueryOptions());
