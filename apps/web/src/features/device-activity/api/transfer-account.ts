import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemTransferInput, ItemTransferReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Another customer takes over the payments of a device: its account passes to them as it is, and no code is issued. */
export const transferAccount = (body: ItemTransferInput) => api.post<ItemTransferReply>('/items/transfer', body);

export function useTransferAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: transferAccount,
    // The device, both customers (their devices, totals and standing), Collections and the dashboard changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
