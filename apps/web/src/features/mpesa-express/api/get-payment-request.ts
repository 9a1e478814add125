import type { PaymentRequestReply, PaymentRequestStatus } from '@kidogo/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { mpesaExpressKeys } from './keys';

/** How often a request still waiting for its customer is asked after. */
export const PAYMENT_REQUEST_POLL_MS = 3_000;

export const getPaymentRequest = (id: number, signal?: AbortSignal) => api.get<PaymentRequestReply>(`/payment-requests/${id}`, { signal });

export const paymentRequestQueryOptions = (id: number) =>
  queryOptions({
    queryKey: mpesaExpressKeys.detail(id),
    queryFn: ({ signal }) => getPaymentRequest(id, signal),
    // Asked again every 3 s while the customer has the prompt; never again once M-Pesa, MTN or Airtel has answered.
    refetchInterval: (q) => (q.state.data?.data.status === 'pending' ? PAYMENT_REQUEST_POLL_MS : false),
    // The POST's reply is the first state (seeded by useSendPaymentRequest): the next read is the first poll's.
    staleTime: PAYMENT_REQUEST_POLL_MS,
    refetchIntervalInBackground: true,
  });

/**
 * One request, followed until it ends. When it ends the lists of requests
 * read again; when it ends paid, everything on screen does (the payment went
 * through the pipeline: the device's history, its credit, Collections).
 */
export function usePaymentRequest(id: number | null) {
  const qc = useQueryClient();
  const query = useQuery({ ...paymentRequestQueryOptions(id ?? 0), enabled: id !== null });
  const status = query.data?.data.status;
  const seen = useRef<PaymentRequestStatus | undefined>(undefined);
  useEffect(() => {
    const before = seen.current;
    seen.current = status;
    if (before !== 'pending' || !status || status === 'pending') return;
    void (status === 'paid' ? refreshAfterWrite(qc) : refreshAfterWrite(qc, { queryKey: mpesaExpressKeys.lists() }));
  }, [qc, status]);
  return query;
}
