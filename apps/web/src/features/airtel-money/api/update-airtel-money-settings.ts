import type { AirtelMoneyInput, AirtelMoneySettings } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mpesaExpressKeys } from '@/features/mpesa-express/api/keys';
import { api } from '@/lib/api-client';
import { airtelMoneyKeys } from './keys';

/** A client secret left out keeps its stored value: the form sends it only when typed anew. 400 names the field it refuses. */
export const updateAirtelMoneySettings = (input: AirtelMoneyInput) => api.put<AirtelMoneySettings>('/settings/airtel-money', input);

export function useUpdateAirtelMoneySettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateAirtelMoneySettings,
    onSuccess: async (reply) => {
      qc.setQueryData(airtelMoneyKeys.settings(), reply);
      // Ready or not, Ask to Pay offers what is saved now (and in its market's money).
      await qc.invalidateQueries({ queryKey: mpesaExpressKeys.providers() });
    },
  });
}
