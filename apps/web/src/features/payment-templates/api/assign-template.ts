import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { TemplateAssignInput, TemplateAssignReply } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const assignTemplate = (input: TemplateAssignInput) => api.post<TemplateAssignReply>('/payments/templates/assign', input);

export function useAssignTemplate() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: assignTemplate, onSuccess: () => refreshAfterWrite(qc, { queryKey: templateKeys.all }) });
}
