import type { InvoiceEmailInput } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { writeBase } from './access';
import { invoiceKeys } from './keys';
import type { Invoice } from './types';

/** POST /invoices/{id}/email (the console's /admin/invoices/{id}/email): the PDF, emailed; a draft or pending invoice becomes sent. */
export const emailInvoice = ({ admin, id, body }: { admin: boolean; id: string; body: InvoiceEmailInput }) =>
  api.post<Invoice>(`${writeBase(admin)}/${encodeURIComponent(id)}/email`, body);

export function useEmailInvoice() {
  const qc = useQueryClient();
  // The console's invoice lists have keys of their own: a super admin's send refreshes every query.
  return useMutation({
    mutationFn: emailInvoice,
    onSuccess: (_sent, { admin }) => refreshAfterWrite(qc, admin ? undefined : { queryKey: invoiceKeys.all }),
  });
}
