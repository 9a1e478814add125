import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

export const deleteProduct = (serialNumber: string) =>
  api.delete<{ message: string }>(`/items/${encodeURIComponent(serialNumber)}`);

export function useDeleteProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    // A device change shows on other screens too (customers, activity, dashboard): everything cached is stale.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
