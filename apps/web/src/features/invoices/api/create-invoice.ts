import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { writeBase } from './access';
import { invoiceKeys } from './keys';
import type { CreateInvoiceInput, Invoice } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const createInvoice = ({ admin, input }: { admin: boolean; input: CreateInvoiceInput }) =>
  api.post<Invoice>(writeBase(admin), input);

export function useCreateInvoice() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createInvoice, onSuccess: () => refreshAfterWrite(qc, { queryKey: invoiceKeys.all }) });
}
