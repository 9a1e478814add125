import type { SecuritySettings, SecuritySettingsInput } from '@kidogo/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '@/features/settings/api/keys';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** GET /settings/security (owners and admins): whether every user must use two-factor sign-in, and how many do not yet. */
export const securitySettingsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.security(), queryFn: ({ signal }) => api.get<SecuritySettings>('/settings/security', { signal }) });

/** `enabled` false for staff, whom the server refuses. */
export const useSecuritySettings = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...securitySettingsQueryOptions(), enabled });

/**
 * Requires two-factor sign-in of everyone, or stops. The reply is the new
 * state; the team list reads again too (its 2FA badges are what the count is
 * about, and the users it asks to set it up are listed there).
 */
export function useUpdateSecuritySettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SecuritySettingsInput) => api.put<SecuritySettings>('/settings/security', body),
    onSuccess: async (reply) => {
      qc.setQueryData(settingsKeys.security(), reply);
      await Promise.all([refreshAfterWrite(qc, { queryKey: settingsKeys.security() }), refreshAfterWrite(qc, { queryKey: settingsKeys.team() })]);
    },
  });
}
