import type { MtnMomoInput, MtnMomoSettings } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mpesaExpressKeys } from '@/features/mpesa-express/api/keys';
import { api } from '@/lib/api-client';
import { mtnMomoKeys } from './keys';

/** A secret left out keeps its stored value: the form sends only the ones typed anew. 400 names the field it refuses. */
export const updateMtnMomoSettings = (input: MtnMomoInput) => api.put<MtnMomoSettings>('/settings/mtn-momo', input);

export function useUpdateMtnMomoSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateMtnMomoSettings,
    onSuccess: async (reply) => {
      qc.setQueryData(mtnMomoKeys.settings(), reply);
      // Ready or not, Ask to Pay offers what is saved now (and in its market's money).
      await qc.invalidateQueries({ queryKey: mpesaExpressKeys.providers() });
    },
  });
}
