import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Item, ItemInput } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const addProduct = (input: ItemInput) => api.post<Item>('/items/add', input);

export function useAddProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addProduct,
    // A device change shows on other screens too (customers, activity, dashboard): everything cached is stale.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
