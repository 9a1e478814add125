import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { ConsoleCreateInvoiceInput, ConsoleInvoice, ConsoleInvoiceStats } from './types';
import { useAdminMutation } from './use-admin-mutation';

// The console's Invoices tab: GET /admin/invoices (+ /stats), create, mark paid, delete.

export async function getConsoleInvoices(signal?: AbortSignal): Promise<ConsoleInvoice[]> {
  const reply = await api.get<{ data?: ConsoleInvoice[] } | ConsoleInvoice[] | null>('/admin/invoices', {
    query: { limit: 200, offset: 0 },
    signal,
  });
  return Array.isArray(reply) ? reply : (reply?.data ?? []);
}
export const consoleInvoicesQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.invoiceList(), queryFn: ({ signal }) => getConsoleInvoices(signal) });
export const useConsoleInvoices = () => useQuery(consoleInvoicesQueryOptions());

/** A failed stats load is only logged (spec §8). */
export async function getConsoleInvoiceStats(signal?: AbortSignal): Promise<ConsoleInvoiceStats | null> {
  try {
    return await api.get<ConsoleInvoiceStats>('/admin/invoices/stats', { signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.warn('Invoice stats could not be loaded', error);
    return null;
  }
}
export const consoleInvoiceStatsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.invoiceStats(), queryFn: ({ signal }) => getConsoleInvoiceStats(signal) });
export const useConsoleInvoiceStats = () => useQuery(consoleInvoiceStatsQueryOptions());

export const createConsoleInvoice = (input: ConsoleCreateInvoiceInput) => api.post<ConsoleInvoice>('/admin/invoices', input);
export const useCreateConsoleInvoice = () => useAdminMutation(createConsoleInvoice);

export const markInvoicePaid = (id: string) => api.put<ConsoleInvoice>(`/admin/invoices/${encodeURIComponent(id)}/status`, { status: 'paid' });
export const useMarkInvoicePaid = () => useAdminMutation(markInvoicePaid);

export const deleteConsoleInvoice = (id: string) => api.delete<{ message: string }>(`/admin/invoices/${encodeURIComponent(id)}`);
export const useDeleteConsoleInvoice = () => useAdminMutation(deleteConsoleInvoice);
