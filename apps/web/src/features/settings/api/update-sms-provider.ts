import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { SmsProvider, SmsProviderInput } from './types';

export const updateSmsProvider = (input: SmsProviderInput) => api.put<SmsProvider>('/settings/sms-provider', input);

export function useUpdateSmsProvider() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateSmsProvider,
    onSuccess: (reply) => {
      qc.setQueryData(settingsKeys.smsProvider(), reply);
      // Whether reminders can be sent, and their language, follow the provider and the reply language.
      void qc.invalidateQueries({ queryKey: settingsKeys.reminders() });
    },
  });
}
