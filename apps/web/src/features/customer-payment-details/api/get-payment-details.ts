import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { paymentDetailsKeys } from './keys';
import type { CustomerPaymentDetails } from './types';

export const FAILED_TEXT = 'Failed to fetch customer payment details';

export async function getPaymentDetails(customerId: string, signal?: AbortSignal) {
  const reply = await api.get<Partial<CustomerPaymentDetails> | null>(
    `/customers/${encodeURIComponent(customerId)}/payment-details`,
    { signal },
  );
  const data = reply?.data;
  if (!data?.customer_info || !data.payment_summary) throw new Error(FAILED_TEXT);
  return { ...data, payment_history: data.payment_history ?? [], payment_template: data.payment_template ?? null };
}

export const paymentDetailsQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: paymentDetailsKeys.detail(customerId),
    queryFn: ({ signal }) => getPaymentDetails(customerId, signal),
    staleTime: 0,
  });

export const usePaymentDetails = (customerId: string) => useQuery(paymentDetailsQueryOptions(customerId));

/** The bar never goes past 100 percent, whatever was overpaid. */
export const clampProgress = (p: number) => (Number.isFinite(p) ? Math.min(Math.max(p, 0), 100) : 0);
