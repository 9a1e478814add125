import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { cashKeys } from './keys';
import type { CashHandoverReply } from './types';

/** POST /cash/handovers/{id}/void (owners and admins): a handover recorded by mistake; the cash counts as held again. */
export const postVoidCashHandover = ({ handoverId, reason }: { handoverId: number; reason: string }) =>
  api.post<CashHandoverReply>(`/cash/handovers/${handoverId}/void`, { reason });

export function useVoidCashHandover() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postVoidCashHandover,
    onSuccess: () => refreshAfterWrite(qc, { queryKey: cashKeys.all }),
  });
}
