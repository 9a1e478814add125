import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productKeys } from './keys';
import type { ItemAssignInput, ItemAssignReply } from './types';

/** organization_id goes as '' as the spec says: the server takes the organization from the token. */
export const assignProduct = (input: Omit<ItemAssignInput, 'organization_id'>) =>
  api.post<ItemAssignReply>('/items/assign', { ...input, organization_id: '' });

export function useAssignProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: assignProduct,
    onSuccess: () => qc.invalidateQueries({ queryKey: productKeys.all }),
  });
}
