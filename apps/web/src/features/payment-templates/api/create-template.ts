import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { TemplateInput as ContractTemplateInput } from '@kidogo/contracts';
import type { PaymentTemplate, TemplateInput } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const createTemplate = (input: TemplateInput) =>
  api.post<PaymentTemplate>('/payments/templates/create', input satisfies ContractTemplateInput);

export function useCreateTemplate() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createTemplate, onSuccess: () => refreshAfterWrite(qc, { queryKey: templateKeys.all }) });
}
