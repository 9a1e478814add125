import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { recordPaymentKeys } from './keys';
import type { CashCollectorsReply } from './types';

/** GET /cash/collectors: whom a cash payment can be recorded as collected by (the organization's active users). */
export async function getCashCollectors(signal?: AbortSignal): Promise<string[]> {
  const reply = await api.get<Partial<CashCollectorsReply> | null>('/cash/collectors', { signal });
  return (reply?.data ?? []).map((u) => u.username);
}

export const cashCollectorsQueryOptions = () =>
  queryOptions({ queryKey: recordPaymentKeys.cashCollectors(), queryFn: ({ signal }) => getCashCollectors(signal), staleTime: 5 * 60_000 });

/** Read only while the payment is in cash: no other payment has a collector. */
export const useCashCollectors = (enabled: boolean) => useQuery({ ...cashCollectorsQueryOptions(), enabled });
