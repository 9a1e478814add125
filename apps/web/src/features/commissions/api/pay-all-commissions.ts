import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { commissionKeys } from './keys';
import type { CommissionPayAllInput, CommissionPayAllReply } from './types';

/** POST /commissions/payouts/all (owners and admins): every agent still owed for a month that is over was paid, at once. */
export const postPayAllCommissions = (body: CommissionPayAllInput) => api.post<CommissionPayAllReply>('/commissions/payouts/all', body);

export function usePayAllCommissions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postPayAllCommissions,
    // Every paid agent's row, the month's totals and their histories changed.
    onSuccess: () => refreshAfterWrite(qc, { queryKey: commissionKeys.all }),
    // A 409 says the month owes another total now (a payment came in, an agent was paid meanwhile): read it again.
    onError: (error) => (error instanceof ApiError && error.status === 409 ? refreshAfterWrite(qc, { queryKey: commissionKeys.all }) : undefined),
  });
}
