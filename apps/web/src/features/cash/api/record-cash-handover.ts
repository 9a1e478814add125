import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { cashKeys } from './keys';
import type { CashHandoverInput, CashHandoverReply } from './types';

/** POST /cash/handovers (owners and admins): cash a collector handed over, counted at the office or a bank deposit slip. */
export const postCashHandover = (body: CashHandoverInput) => api.post<CashHandoverReply>('/cash/handovers', body);

export function useRecordCashHandover() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postCashHandover,
    // The collector's row, the totals and their ledger changed.
    onSuccess: () => refreshAfterWrite(qc, { queryKey: cashKeys.all }),
  });
}
