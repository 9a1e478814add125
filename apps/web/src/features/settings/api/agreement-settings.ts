import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgreementSettings, AgreementSettingsInput } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';

/** GET /settings/agreement: what the PAYG agreement says of the organization besides its name. */
export const agreementSettingsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.agreement(), queryFn: ({ signal }) => api.get<AgreementSettings>('/settings/agreement', { signal }) });

export const useAgreementSettings = () => useQuery(agreementSettingsQueryOptions());

export function useUpdateAgreementSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AgreementSettingsInput) => api.put<AgreementSettings>('/settings/agreement', input),
    onSuccess: (reply) => qc.setQueryData(settingsKeys.agreement(), reply),
  });
}
