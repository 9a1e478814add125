import { useMutation, useQueryClient, type MutationFunction } from '@tanstack/react-query';
import { settingsKeys } from './keys';
import { refreshAfterWrite } from '@/lib/query-client';

/** A change to the team: every page of the list is stale afterwards (a new user, a changed role, a deletion move rows between pages). */
export function useTeamMutation<TData, TVariables>(mutationFn: MutationFunction<TData, TVariables>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => refreshAfterWrite(qc, { queryKey: settingsKeys.team() }) });
}
