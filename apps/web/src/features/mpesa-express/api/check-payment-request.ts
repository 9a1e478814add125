import type { PaymentRequest, PaymentRequestReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { mpesaExpressKeys } from './keys';

/**
 * POST /payment-requests/{id}/check: the request's provider (M-Pesa, MTN MoMo or Airtel Money) is asked what became of
 * a request whose result has not come. The reply's message says what it answered (still waiting, cancelled, paid); 409
 * when it has answered already, 502 when it could not say.
 */
export const checkPaymentRequest = (id: number) => api.post<PaymentRequestReply>(`/payment-requests/${id}/check`);

/**
 * A request worth asking its provider about: still waiting or expired (its result never came), or paid by the
 * provider's word with no receipt yet (checking again looks for the payment that brought it).
 */
export const isCheckable = (r: PaymentRequest) =>
  r.status === 'pending' || r.status === 'expired' || (r.status === 'paid' && r.answered_by === 'check' && r.receipt === null);

export function useCheckPaymentRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: checkPaymentRequest,
    onSuccess: async (reply, id) => {
      qc.setQueryData(mpesaExpressKeys.detail(id), { data: reply.data });
      // Paid: a payment may now be on the device, as after any payment; otherwise only the lists of requests changed.
      await (reply.data.status === 'paid' ? refreshAfterWrite(qc) : refreshAfterWrite(qc, { queryKey: mpesaExpressKeys.lists() }));
    },
  });
}
