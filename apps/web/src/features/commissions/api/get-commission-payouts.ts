import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { commissionKeys } from './keys';
import type { CommissionPayoutList, CommissionPayoutsPage } from './types';

/** The API's default page: 25 payouts. */
export const COMMISSION_PAYOUTS_PAGE_SIZE = 25;

/** GET /commissions/payouts?agent=: the agent's payouts across months, newest month first, the voided ones too. */
export const getCommissionPayouts = (agent: string, q: CommissionPayoutsPage, signal?: AbortSignal) =>
  api
    .get<Partial<CommissionPayoutList> | null>('/commissions/payouts', { query: { agent, page: q.page, limit: q.limit }, signal })
    .then(
      (reply): CommissionPayoutList => ({
        data: Array.isArray(reply?.data) ? reply.data : [],
        total_paid: reply?.total_paid ?? '0.00',
        pagination: reply?.pagination ?? { total: reply?.data?.length ?? 0, total_pages: 1, page: q.page, limit: q.limit },
      }),
    );

export const commissionPayoutsQueryOptions = (agent: string, q: CommissionPayoutsPage) =>
  queryOptions({ queryKey: commissionKeys.payoutsPage(agent, q), queryFn: ({ signal }) => getCommissionPayouts(agent, q, signal) });

/**
 * The payouts of `agent`, read only while one is chosen. The previous page
 * stays on screen while the next one loads (the same agent: another agent
 * shows Loading, not the payouts of the last).
 */
export function useCommissionPayouts(agent: string | null, q: CommissionPayoutsPage) {
  return useQuery({
    ...commissionPayoutsQueryOptions(agent ?? '', q),
    enabled: agent !== null,
    placeholderData: (previous, previousQuery) => {
      const key = previousQuery?.queryKey as ReturnType<typeof commissionKeys.payoutsPage> | undefined;
      return key && key[2] === agent && key[3].limit === q.limit ? previous : undefined;
    },
  });
}
