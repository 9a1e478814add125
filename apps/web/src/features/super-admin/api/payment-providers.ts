import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { PaymentProvider, PaymentProviderInput } from './types';
import { useAdminMutation } from './use-admin-mutation';

export async function getPaymentProviders(org: string, signal?: AbortSignal): Promise<PaymentProvider[]> {
  const reply = await api.get<{ data?: PaymentProvider[] } | null>('/admin/payment-providers', {
    query: { organization_id: org || undefined },
    signal,
  });
  return reply?.data ?? [];
}
export const paymentProvidersQueryOptions = (org: string) =>
  queryOptions({ queryKey: adminKeys.paymentProviders(org), queryFn: ({ signal }) => getPaymentProviders(org, signal) });
export const usePaymentProviders = (org: string) => useQuery(paymentProvidersQueryOptions(org));

/** POST creates; PUT with an id updates (config values sent back masked keep what is stored). */
export const savePaymentProvider = ({ id, input }: { id: number | null; input: PaymentProviderInput }) =>
  id === null
    ? api.post<PaymentProvider>('/admin/payment-providers', input)
    : api.put<PaymentProvider>(`/admin/payment-providers/${id}`, { provider: input.provider, config: input.config, is_active: input.is_active });
export const useSavePaymentProvider = () => useAdminMutation(savePaymentProvider);

export const deletePaymentProvider = (id: number) => api.delete<{ message: string }>(`/admin/payment-providers/${id}`);
export const useDeletePaymentProvider = () => useAdminMutation(deletePaymentProvider);
