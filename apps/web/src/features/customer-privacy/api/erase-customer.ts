import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EraseCustomerInput, EraseCustomerReply } from '@kidogo/contracts';
import { customerKeys } from '@/features/customers/api/keys';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/**
 * Erases a customer's personal data at their request (owners and admins):
 * refused (409) while they still pay for a device, or when it was already done.
 */
export const eraseCustomer = ({ customerId, ...body }: EraseCustomerInput & { customerId: number }) =>
  api.post<EraseCustomerReply>(`/customers/${customerId}/erase`, body);

export function useEraseCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: eraseCustomer,
    onSuccess: (reply, { customerId }) => {
      qc.setQueryData(customerKeys.detail(customerId), reply.customer);
      // Not the customer alone: their payments, texts, collection contacts and activity entries lost their name and
      // phone too, so every list that showed them reads again.
      return refreshAfterWrite(qc);
    },
  });
}
