import type { PortalPayInput, PortalPaymentReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { portalKeys } from './portal';

/**
 * POST /portal/{token}/payments: the customer's own phone (the one on file) is prompted to pay for one of their
 * devices. No sign-in: the link's token is the key. 400 a wrong amount, 404 a link that no longer works, 409 why it
 * cannot be sent now (one still waiting, paid off, the provider not ready), 429 too many in an hour, 502 the
 * provider's refusal: each with its message.
 */
export const sendPortalPayment = (token: string, input: PortalPayInput) =>
  api.post<PortalPaymentReply>(`/portal/${encodeURIComponent(token)}/payments`, input, { auth: false });

export function useSendPortalPayment(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: PortalPayInput) => sendPortalPayment(token, input),
    // The reply is the request's first state: the page follows it from there without asking for it again first.
    onSuccess: (reply) => qc.setQueryData(portalKeys.payment(token, reply.data.request_id), reply),
  });
}
