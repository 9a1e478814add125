import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ItemAssignInput, ItemAssignReply } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

/** organization_id goes as '' as the spec says: the server takes the organization from the token. */
export const assignProduct = (input: Omit<ItemAssignInput, 'organization_id'>) =>
  api.post<ItemAssignReply>('/items/assign', { ...input, organization_id: '' });

export function useAssignProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: assignProduct,
    // A device change shows on other screens too (customers, activity, dashboard): everything cached is stale.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
