import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from '@/features/customers/api/keys';
import { settingsKeys } from './keys';
import type { PhoneCountry, PhoneCountryInput, PhoneCountryUpdate } from './types';

export const updatePhoneCountry = (input: PhoneCountryInput) => api.put<PhoneCountryUpdate>('/settings/phone-country', input);

export function useUpdatePhoneCountry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updatePhoneCountry,
    onSuccess: ({ customers_updated: _count, ...setting }) => {
      qc.setQueryData<PhoneCountry>(settingsKeys.phoneCountry(), setting);
      // A search by phone now reads numbers with the new country.
      void qc.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}
