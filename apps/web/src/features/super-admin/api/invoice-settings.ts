import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { GlobalInvoiceSettings } from './types';
import { useAdminMutation } from './use-admin-mutation';

export const getInvoiceSettings = (signal?: AbortSignal) => api.get<GlobalInvoiceSettings>('/admin/settings/invoices', { signal });
export const invoiceSettingsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.invoiceSettings(), queryFn: ({ signal }) => getInvoiceSettings(signal), staleTime: 0 });
export const useInvoiceSettings = () => useQuery(invoiceSettingsQueryOptions());

export type InvoiceSettingsUpdate = Pick<GlobalInvoiceSettings, 'default_tax_rate' | 'default_currency' | 'invoice_prefix' | 'template_html'>;
export const updateInvoiceSettings = (changes: InvoiceSettingsUpdate) => api.put<GlobalInvoiceSettings>('/admin/settings/invoices', changes);
export const useUpdateInvoiceSettings = () => useAdminMutation(updateInvoiceSettings);
