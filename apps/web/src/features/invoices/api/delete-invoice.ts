import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { writeBase } from './access';
import { invoiceKeys } from './keys';
import { refreshAfterWrite } from '@/lib/query-client';

export const deleteInvoice = ({ admin, id }: { admin: boolean; id: string }) =>
  api.delete<{ message: string }>(`${writeBase(admin)}/${encodeURIComponent(id)}`);

export function useDeleteInvoice() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteInvoice, onSuccess: () => refreshAfterWrite(qc, { queryKey: invoiceKeys.all }) });
}
