import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { commissionKeys } from './keys';
import type { CommissionPayoutReply } from './types';

/** POST /commissions/payouts/{payout_id}/void (owners and admins): a payout recorded by mistake; the commission shows as unpaid again. */
export const postVoidCommissionPayout = ({ payoutId, reason }: { payoutId: number; reason: string }) =>
  api.post<CommissionPayoutReply>(`/commissions/payouts/${payoutId}/void`, { reason });

export function useVoidCommissionPayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postVoidCommissionPayout,
    onSuccess: () => refreshAfterWrite(qc, { queryKey: commissionKeys.all }),
  });
}
