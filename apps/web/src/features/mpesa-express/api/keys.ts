import type { PaymentRequestsListQuery } from './types';

/**
 * Query keys of the payment requests (M-Pesa Express, MTN MoMo and Airtel Money).
 * Sending a request refreshes `lists` (the device's Payment Requests); a request that
 * ends paid refreshes everything cached, as a recorded payment does. Saving a
 * provider's settings refreshes `providers` (what Ask to Pay offers).
 */
export const mpesaExpressKeys = {
  all: ['mpesa-express'] as const,
  settings: () => [...mpesaExpressKeys.all, 'settings'] as const,
  providers: () => [...mpesaExpressKeys.all, 'providers'] as const,
  requests: () => [...mpesaExpressKeys.all, 'requests'] as const,
  lists: () => [...mpesaExpressKeys.requests(), 'list'] as const,
  list: (q: PaymentRequestsListQuery) => [...mpesaExpressKeys.lists(), q] as const,
  detail: (id: number) => [...mpesaExpressKeys.requests(), 'detail', id] as const,
};
