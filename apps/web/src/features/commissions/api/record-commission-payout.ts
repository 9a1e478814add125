import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { commissionKeys } from './keys';
import type { CommissionPayoutInput, CommissionPayoutReply } from './types';

/** POST /commissions/payouts (owners and admins): an agent's commission for a month that is over was paid. */
export const postCommissionPayout = (body: CommissionPayoutInput) => api.post<CommissionPayoutReply>('/commissions/payouts', body);

export function useRecordCommissionPayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postCommissionPayout,
    // The agent's row, the month's totals and their history changed.
    onSuccess: () => refreshAfterWrite(qc, { queryKey: commissionKeys.all }),
    // A 409 says the screen is behind the server (another admin paid the agent, the month's commission is 0 now): read it again.
    onError: (error) => (error instanceof ApiError && error.status === 409 ? refreshAfterWrite(qc, { queryKey: commissionKeys.all }) : undefined),
  });
}
