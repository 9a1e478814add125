import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productKeys } from './keys';
import type { Item, ItemInput } from './types';

export const addProduct = (input: ItemInput) => api.post<Item>('/items/add', input);

export function useAddProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addProduct,
    onSuccess: () => qc.invalidateQueries({ queryKey: productKeys.all }),
  });
}
