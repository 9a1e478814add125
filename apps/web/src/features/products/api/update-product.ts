import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Item, ItemUpdate } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const updateProduct = ({ serialNumber, changes }: { serialNumber: string; changes: ItemUpdate }) =>
  api.put<Item>(`/items/${encodeURIComponent(serialNumber)}`, changes);

export function useUpdateProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    // A device change shows on other screens too (customers, activity, dashboard): everything cached is stale.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
