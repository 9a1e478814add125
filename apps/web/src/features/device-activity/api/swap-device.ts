import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemSwapInput, ItemSwapReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Replaces a customer's faulty device with one from stock: the account moves to the replacement, the old device is locked and taken back. */
export const swapDevice = (body: ItemSwapInput) => api.post<ItemSwapReply>('/items/swap', body);

export function useSwapDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: swapDevice,
    // Both devices, the customer, the stock, the token log, the swaps and the dashboard changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
