import type { MpesaExpressInput, MpesaExpressSettings } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mpesaExpressKeys } from './keys';

/** A secret left out keeps its stored value: the form sends only the ones typed anew. */
export const updateMpesaExpressSettings = (input: MpesaExpressInput) => api.put<MpesaExpressSettings>('/settings/mpesa-express', input);

export function useUpdateMpesaExpressSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateMpesaExpressSettings,
    onSuccess: async (reply) => {
      qc.setQueryData(mpesaExpressKeys.settings(), reply);
      // Ready or not, Ask to Pay offers what is saved now.
      await qc.invalidateQueries({ queryKey: mpesaExpressKeys.providers() });
    },
  });
}
