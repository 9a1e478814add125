import type { UssdSettingsReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ussdKeys } from './keys';

/** POST /settings/ussd/rotate: a new address; the old one stops answering at once, until the gateway is given the new one. */
export const rotateUssdAddress = () => api.post<UssdSettingsReply>('/settings/ussd/rotate');

export function useRotateUssdAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rotateUssdAddress,
    onSuccess: (reply) => qc.setQueryData(ussdKeys.settings(), { data: reply.data }),
  });
}
