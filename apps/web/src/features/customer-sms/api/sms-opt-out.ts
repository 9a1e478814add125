import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SmsOptOutReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/**
 * Records that a customer asked for no texts (any user), or lets texts
 * through again when they ask (owners and admins): what the customer does
 * themselves by texting STOP or START to the business line.
 */
export const setSmsOptOut = ({ customerId, optedOut }: { customerId: number; optedOut: boolean }) =>
  optedOut ? api.post<SmsOptOutReply>(`/customers/${customerId}/sms-opt-out`) : api.delete<SmsOptOutReply>(`/customers/${customerId}/sms-opt-out`);

export function useSetSmsOptOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setSmsOptOut,
    // The customer's page, Collections' rows and the customer lists carry it.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
