import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invoiceKeys } from './keys';
import { refreshAfterWrite } from '@/lib/query-client';

/** An organization reports that it paid an invoice; a super admin then marks it paid. */
export const submitPayment = (input: { payment_id: string; tx_hash: string }) => api.post<unknown>('/submit-payment', input);

export function useSubmitPayment() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: submitPayment, onSuccess: () => refreshAfterWrite(qc, { queryKey: invoiceKeys.all }) });
}
