import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemDiscountInput, ItemDiscountReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Takes an amount off what is left to pay on a device: all of it pays the device off, with its unlock code. */
export const giveDiscount = (body: ItemDiscountInput) => api.post<ItemDiscountReply>('/items/discount', body);

export function useGiveDiscount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: giveDiscount,
    // The device (what is left to pay, its standing, its token log), its discounts, the customer's balance, Collections and
    // the dashboard changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
