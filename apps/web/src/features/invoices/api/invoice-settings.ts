import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invoiceKeys } from './keys';
import type { GlobalInvoiceSettings, OrgInvoiceSettings } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export type InvoiceSettingsView =
  | { scope: 'global'; settings: GlobalInvoiceSettings }
  | { scope: 'organization'; settings: OrgInvoiceSettings };

/** A super admin edits the platform's settings; an owner edits their organization's billing preferences. */
export async function getInvoiceSettings(admin: boolean, signal?: AbortSignal): Promise<InvoiceSettingsView> {
  if (admin) return { scope: 'global', settings: await api.get<GlobalInvoiceSettings>('/admin/settings/invoices', { signal }) };
  return { scope: 'organization', settings: await api.get<OrgInvoiceSettings>('/update-invoice-settings', { signal }) };
}

export const invoiceSettingsQueryOptions = (admin: boolean) =>
  queryOptions({ queryKey: invoiceKeys.settings(admin), queryFn: ({ signal }) => getInvoiceSettings(admin, signal), staleTime: 0 });

export const useInvoiceSettings = (admin: boolean, enabled: boolean) => useQuery({ ...invoiceSettingsQueryOptions(admin), enabled });

export type InvoiceSettingsUpdate =
  | { scope: 'global'; changes: Partial<Omit<GlobalInvoiceSettings, 'updated_at'>> }
  | { scope: 'organization'; changes: Partial<Omit<OrgInvoiceSettings, 'organization_id' | 'updated_at'>> };

export const updateInvoiceSettings = (update: InvoiceSettingsUpdate): Promise<GlobalInvoiceSettings | OrgInvoiceSettings> =>
  update.scope === 'global'
    ? api.put<GlobalInvoiceSettings>('/admin/settings/invoices', update.changes)
    : api.put<OrgInvoiceSettings>('/update-invoice-settings', update.changes);

export function useUpdateInvoiceSettings() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateInvoiceSettings, onSuccess: () => refreshAfterWrite(qc, { queryKey: invoiceKeys.all }) });
}
