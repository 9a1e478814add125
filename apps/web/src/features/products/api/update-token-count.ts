import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { UpdateTokenCountInput, UpdateTokenCountReply } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const updateTokenCount = (input: UpdateTokenCountInput) =>
  api.post<UpdateTokenCountReply>('/update-token-count', input);

export function useUpdateTokenCount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateTokenCount,
    // A device change shows on other screens too (customers, activity, dashboard): everything cached is stale.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
