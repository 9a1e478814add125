import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TemplateAssignmentEndReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { templateKeys } from './keys';

/** Ends a device's own plan: its customer's plan covers the device again. */
export const endAssignment = (assignmentId: number) =>
  api.post<TemplateAssignmentEndReply>(`/payments/templates/assignments/${assignmentId}/end`);

export function useEndAssignment() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: endAssignment, onSuccess: () => refreshAfterWrite(qc, { queryKey: templateKeys.all }) });
}
