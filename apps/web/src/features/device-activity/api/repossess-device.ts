import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemRepossessInput, ItemRepossessReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Takes a device back from a customer who stopped paying: locked, off the customer, the rest written off. */
export const repossessDevice = (body: ItemRepossessInput) => api.post<ItemRepossessReply>('/items/repossess', body);

export function useRepossessDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: repossessDevice,
    // The device, the customer, Collections, the token log and the dashboard changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
