import { useMutation, useQueryClient, type MutationFunction } from '@tanstack/react-query';
import { adminKeys } from './keys';
import { refreshAfterWrite } from '@/lib/query-client';

/**
 * A console action: on success every console list is stale (an organization's
 * status changes its user's lists, a new user changes the user counts, ...).
 */
export function useAdminMutation<TData, TVariables>(mutationFn: MutationFunction<TData, TVariables>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => refreshAfterWrite(qc, { queryKey: adminKeys.all }) });
}
