import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WarrantySettings, WarrantySettingsInput } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { deviceActivityKeys } from '@/features/device-activity/api/keys';
import { warrantyKeys } from './keys';

/** PUT /settings/warranties: the whole list, replacing the one before (an empty list sets none). */
export const updateWarrantySettings = (input: WarrantySettingsInput) => api.put<WarrantySettings>('/settings/warranties', input);

export function useUpdateWarrantySettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateWarrantySettings,
    onSuccess: (reply) => {
      qc.setQueryData(warrantyKeys.settings(), reply);
      // A device's page says whether it is in warranty; a swap keeps the warranty of its day, so the swaps stay as they are.
      void qc.invalidateQueries({ queryKey: deviceActivityKeys.all });
    },
  });
}
