import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { cashKeys } from './keys';
import { CASH_OVERDUE_DAYS, type CashSummary } from './types';

/** GET /cash: what every collector holds, the most first (staff get only their own). */
export const getCashSummary = (signal?: AbortSignal) =>
  suspendableList<CashSummary>(
    api.get<Partial<CashSummary> | null>('/cash', { signal }).then((reply) => ({
      data: Array.isArray(reply?.data) ? reply.data : [],
      totals: Array.isArray(reply?.totals) ? reply.totals : [],
      overdue_days: reply?.overdue_days ?? CASH_OVERDUE_DAYS,
    })),
    { totals: [], overdue_days: CASH_OVERDUE_DAYS },
  );

export const cashSummaryQueryOptions = () => queryOptions({ queryKey: cashKeys.summary(), queryFn: ({ signal }) => getCashSummary(signal) });

export const useCashSummary = () => useQuery(cashSummaryQueryOptions());
