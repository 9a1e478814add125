import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FollowOnSettings, FollowOnSettingsInput } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { creditCheckKeys } from './keys';

export const getFollowOnSettings = (signal?: AbortSignal) => api.get<FollowOnSettings>('/settings/follow-on-sales', { signal });
export const updateFollowOnSettings = (input: FollowOnSettingsInput) => api.put<FollowOnSettings>('/settings/follow-on-sales', input);

export const followOnSettingsQueryOptions = () =>
  queryOptions({ queryKey: creditCheckKeys.rule(), queryFn: ({ signal }) => getFollowOnSettings(signal) });

export const useFollowOnSettings = () => useQuery(followOnSettingsQueryOptions());

export function useUpdateFollowOnSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateFollowOnSettings,
    onSuccess: (reply) => {
      // Every customer's check is read against the rule.
      void qc.invalidateQueries({ queryKey: creditCheckKeys.all });
      qc.setQueryData(creditCheckKeys.rule(), reply);
    },
  });
}
