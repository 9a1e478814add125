import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productKeys } from './keys';
import type { ItemReply, ItemUpdate } from './types';

export const updateProduct = ({ serialNumber, changes }: { serialNumber: string; changes: ItemUpdate }) =>
  api.put<ItemReply>(`/items/${encodeURIComponent(serialNumber)}`, changes);

export function useUpdateProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => qc.invalidateQueries({ queryKey: productKeys.all }),
  });
}
