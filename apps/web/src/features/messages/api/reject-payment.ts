import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RejectPaymentReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Rejects a held payment staff will not apply (refunded, sent to the wrong business, a fake confirmation). */
export const rejectPayment = ({ paymentId, reason }: { paymentId: number; reason: string }) =>
  api.post<RejectPaymentReply>(`/payments/${paymentId}/reject`, { reason });

export function useRejectPayment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rejectPayment,
    // The payment left the pending ones: held payments, messages, payment figures and the dashboard changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
