import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { writeBase } from './access';
import { invoiceKeys } from './keys';

export const deleteInvoice = ({ admin, id }: { admin: boolean; id: string }) =>
  api.delete<{ message: string }>(`${writeBase(admin)}/${encodeURIComponent(id)}`);

export function useDeleteInvoice() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteInvoice, onSuccess: () => qc.invalidateQueries({ queryKey: invoiceKeys.all }) });
}
