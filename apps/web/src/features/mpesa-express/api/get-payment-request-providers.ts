import type { PaymentRequestProvidersReply } from '@kidogo/contracts';
import { queryOptions, usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mpesaExpressKeys } from './keys';

/** GET /payment-requests/providers (any user): M-Pesa Express, MTN MoMo and Airtel Money, each ready or why not, with its money and limits. */
export const getPaymentRequestProviders = (signal?: AbortSignal) => api.get<PaymentRequestProvidersReply>('/payment-requests/providers', { signal });

export const paymentRequestProvidersQueryOptions = () =>
  queryOptions({ queryKey: mpesaExpressKeys.providers(), queryFn: ({ signal }) => getPaymentRequestProviders(signal), select: (reply) => reply.data });

export const usePaymentRequestProviders = () => useQuery(paymentRequestProvidersQueryOptions());

/** Read ahead by a page that offers Ask to Pay, so the dialog opens on its form rather than on a loader. */
export const usePrefetchPaymentRequestProviders = () => usePrefetchQuery(paymentRequestProvidersQueryOptions());
