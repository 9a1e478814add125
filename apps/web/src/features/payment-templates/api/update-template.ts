import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { PaymentTemplate, TemplateInput } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const updateTemplate = ({ id, changes }: { id: number; changes: Partial<TemplateInput> }) =>
  api.put<PaymentTemplate>(`/payments/templates/${id}`, changes);

export function useUpdateTemplate() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateTemplate, onSuccess: () => refreshAfterWrite(qc, { queryKey: templateKeys.all }) });
}
