import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invoiceKeys } from './keys';
import type { InvoiceStats } from './types';

/** Spec §8: a failed stats load is only logged; the cards are simply not shown. */
export async function getInvoiceStats(admin: boolean, signal?: AbortSignal): Promise<InvoiceStats | null> {
  try {
    return (await api.get<InvoiceStats | null>(admin ? '/admin/invoices/stats' : '/invoices/stats', { signal })) ?? null;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.warn('Invoice stats could not be loaded', error);
    return null;
  }
}

export const invoiceStatsQueryOptions = (admin: boolean) =>
  queryOptions({ queryKey: invoiceKeys.stats(admin), queryFn: ({ signal }) => getInvoiceStats(admin, signal) });

export const useInvoiceStats = (admin: boolean) => useQuery(invoiceStatsQueryOptions(admin));
