import type { UssdSettingsInput, UssdSettingsReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ussdKeys } from './keys';

/**
 * PUT /settings/ussd: on (the first time, the address is made) or off (customers who dial are told it is not
 * available). Turned on again, the menu keeps the address it had.
 */
export const updateUssdSettings = (input: UssdSettingsInput) => api.put<UssdSettingsReply>('/settings/ussd', input);

export function useUpdateUssdSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUssdSettings,
    // The reply is the settings as they are now; its message is for the toast, not the cache.
    onSuccess: (reply) => qc.setQueryData(ussdKeys.settings(), { data: reply.data }),
  });
}
