import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PaymentOutcome } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

/** Gives an unmatched payment its device; the server then runs the rest of the pipeline (token, reply SMS). */
export const matchPayment = ({ paymentId, serialNumber }: { paymentId: number; serialNumber: string }) =>
  api.post<PaymentOutcome>(`/payments/${paymentId}/match`, { serial_number: serialNumber });

export function useMatchPayment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: matchPayment,
    // The payment, a token and an outgoing message now exist: devices, customers and metrics changed too.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
