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

/**
 * What the progress bar counts: the payoff prices less what is left on them.
 * Not total_paid, which also holds money paid beyond a device's price, on a
 * device without a price, or on one given back; in cents, so no float error.
 */
export const paidTowardsPayoff = (summary: { free_code_price: string; remaining_balance: string }) => {
  const cents = (s: string) => Math.round(Number(s) * 100);
  return ((cents(summary.free_code_price) - cents(summary.remaining_balance)) / 100).toFixed(2);
};
