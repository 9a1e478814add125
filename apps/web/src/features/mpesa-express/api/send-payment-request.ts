import type { PaymentRequestInput, PaymentRequestReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { mpesaExpressKeys } from './keys';

/**
 * POST /payment-requests: the provider chosen (M-Pesa Express, MTN MoMo or
 * Airtel Money) prompts the customer's phone. 409 says why it cannot be sent (no customer,
 * the provider not set up, one still waiting), 502 what the provider
 * answered when it refused.
 */
export const sendPaymentRequest = (input: PaymentRequestInput) => api.post<PaymentRequestReply>('/payment-requests', input);

export function useSendPaymentRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: sendPaymentRequest,
    onSuccess: async (reply) => {
      // The modal follows the request from here without asking for it again first.
      qc.setQueryData(mpesaExpressKeys.detail(reply.data.request_id), { data: reply.data });
      await refreshAfterWrite(qc, { queryKey: mpesaExpressKeys.lists() });
    },
  });
}
