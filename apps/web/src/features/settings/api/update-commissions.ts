import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from '@/features/reports/api/keys';
import { settingsKeys } from './keys';
import type { CommissionSettings, CommissionSettingsInput } from './types';

export const updateCommissions = (input: CommissionSettingsInput) => api.put<CommissionSettings>('/settings/commissions', input);

export function useUpdateCommissions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateCommissions,
    onSuccess: (reply) => {
      qc.setQueryData(settingsKeys.commissions(), reply);
      // The Agent report's Commission column is reckoned with them.
      void qc.invalidateQueries({ queryKey: reportKeys.all });
    },
  });
}
