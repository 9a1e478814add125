import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { writeBase } from './access';
import { invoiceKeys } from './keys';
import type { Invoice, InvoiceStatus } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const updateInvoiceStatus = ({ admin, id, status }: { admin: boolean; id: string; status: InvoiceStatus }) =>
  api.put<Invoice>(`${writeBase(admin)}/${encodeURIComponent(id)}/status`, { status });

export function useUpdateInvoiceStatus() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateInvoiceStatus, onSuccess: () => refreshAfterWrite(qc, { queryKey: invoiceKeys.all }) });
}
