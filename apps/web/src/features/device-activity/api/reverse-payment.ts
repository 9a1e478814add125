import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReversePaymentReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Takes a payment off the device it was applied to by mistake; it is held for matching to the right one. */
export const reversePayment = ({ paymentId, reason }: { paymentId: number; reason: string }) =>
  api.post<ReversePaymentReply>(`/payments/${paymentId}/reverse`, { reason });

export function useReversePayment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: reversePayment,
    // The device's account, its history, the held payments, the payment figures and the dashboard changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
