import type { PortalPaymentReply, PaymentRequestStatus } from '@kidogo/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { portalKeys } from './portal';

/** How often a payment still waiting for the customer's PIN is asked after. */
export const PORTAL_PAYMENT_POLL_MS = 3_000;

/** GET /portal/{token}/payments/{request_id}: a payment asked for from the page, and what came of it. */
export const getPortalPayment = (token: string, requestId: number, signal?: AbortSignal) =>
  api.get<PortalPaymentReply>(`/portal/${encodeURIComponent(token)}/payments/${requestId}`, { auth: false, signal });

export const portalPaymentQueryOptions = (token: string, requestId: number) =>
  queryOptions({
    queryKey: portalKeys.payment(token, requestId),
    queryFn: ({ signal }) => getPortalPayment(token, requestId, signal),
    // Every 3 s while the phone shows the prompt; never again once the customer (or the provider) has answered.
    refetchInterval: (q) => (q.state.data?.data.status === 'pending' ? PORTAL_PAYMENT_POLL_MS : false),
    // The POST's reply is the first state (seeded by useSendPortalPayment): the next read is the first poll's.
    staleTime: PORTAL_PAYMENT_POLL_MS,
    // The customer may switch to the SMS or the M-Pesa app and back while it waits.
    refetchIntervalInBackground: true,
  });

/**
 * One payment, followed until it ends (null: none asked for). When it ends paid, the page reads again: the device's
 * credit, what is left, the last payments and the new code.
 */
export function usePortalPayment(token: string, requestId: number | null) {
  const qc = useQueryClient();
  const query = useQuery({ ...portalPaymentQueryOptions(token, requestId ?? 0), enabled: requestId !== null });
  const status = query.data?.data.status;
  const seen = useRef<PaymentRequestStatus | undefined>(undefined);
  useEffect(() => {
    const before = seen.current;
    seen.current = status;
    if (status === 'paid' && before !== 'paid') void refreshAfterWrite(qc, { queryKey: portalKeys.view(token) });
  }, [qc, status, token]);
  return query;
}
