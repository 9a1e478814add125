import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { commissionKeys } from './keys';
import type { CommissionMonth } from './types';

const NO_TOTALS: CommissionMonth['totals'] = { commission: '0.00', paid: '0.00', unpaid: '0.00', paid_count: 0, unpaid_count: 0 };

/** GET /commissions?month=YYYY-MM: every agent's commission for the month, the most first, and whether it was paid. */
export const getCommissionMonth = (month: string, signal?: AbortSignal) =>
  api.get<Partial<CommissionMonth> | null>('/commissions', { query: { month }, signal }).then(
    (reply): CommissionMonth => ({
      month: reply?.month ?? month,
      from: reply?.from ?? '',
      until: reply?.until ?? '',
      closed: reply?.closed ?? false,
      reckoned_at: reply?.reckoned_at ?? new Date().toISOString(),
      per_device: reply?.per_device ?? '0.00',
      percent: reply?.percent ?? '0.00',
      data: Array.isArray(reply?.data) ? reply.data : [],
      totals: reply?.totals ?? NO_TOTALS,
      voided: Array.isArray(reply?.voided) ? reply.voided : [],
    }),
  );

export const commissionMonthQueryOptions = (month: string) =>
  queryOptions({ queryKey: commissionKeys.month(month), queryFn: ({ signal }) => getCommissionMonth(month, signal) });

/** The month's commissions. Another month shows Loading, never the figures of the last one. */
export const useCommissionMonth = (month: string) => useQuery(commissionMonthQueryOptions(month));
