import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DiscountVoidReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Voids a discount given by mistake: what it took off is back on what the customer has left to pay. */
export const voidDiscount = ({ discountId, reason }: { discountId: number; reason: string }) =>
  api.post<DiscountVoidReply>(`/items/discounts/${discountId}/void`, { reason });

export function useVoidDiscount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: voidDiscount,
    // The device's balance and standing, its discounts, the customer's balance, Collections and the reports changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
