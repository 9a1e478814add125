import type { PaymentRequestsListQuery } from './types';

/**
 * Query keys of the M-Pesa Express feature. Sending a request refreshes
 * `lists` (the device's Payment Requests); a request that ends paid refreshes
 * everything cached, as a recorded payment does.
 */
export const mpesaExpressKeys = {
  all: ['mpesa-express'] as const,
  settings: () => [...mpesaExpressKeys.all, 'settings'] as const,
  requests: () => [...mpesaExpressKeys.all, 'requests'] as const,
  lists: () => [...mpesaExpressKeys.requests(), 'list'] as const,
  list: (q: PaymentRequestsListQuery) => [...mpesaExpressKeys.lists(), q] as const,
  detail: (id: number) => [...mpesaExpressKeys.requests(), 'detail', id] as const,
};
