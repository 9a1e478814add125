import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerSmsInput, CustomerSmsReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** Texts a customer through the organization's SMS provider (queued; the outbox sends it). */
export const sendCustomerSms = ({ customerId, ...body }: CustomerSmsInput & { customerId: number }) =>
  api.post<CustomerSmsReply>(`/customers/${customerId}/sms`, body);

export function useSendCustomerSms() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: sendCustomerSms,
    // Message History, the device's history and the outbox figures changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
