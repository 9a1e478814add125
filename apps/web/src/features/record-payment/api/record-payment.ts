import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { ManualPaymentInput, PaymentOutcome } from './types';

/** POST /payments: money collected by staff runs the same pipeline as a received M-Pesa message (rules, tokens, reply SMS). */
export const recordPayment = (input: ManualPaymentInput) => api.post<PaymentOutcome>('/payments', input);

export function useRecordPayment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: recordPayment,
    // A payment, its tokens and the reply SMS now exist: the device's activity, the customer's payment
    // details, the dashboard, reports and messages all changed. Whatever is on screen reads again.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
