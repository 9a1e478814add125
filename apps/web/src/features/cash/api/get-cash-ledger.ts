import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { cashKeys } from './keys';
import type { CashLedgerListQuery, CashLedgerReply } from './types';

/** The API's default page: 25 entries. */
export const CASH_LEDGER_PAGE_SIZE = 25;

/** GET /cash/{username}/ledger: their cash payments and handovers, newest first, with their balances. */
export const getCashLedger = (username: string, q: CashLedgerListQuery, signal?: AbortSignal) =>
  api
    .get<Partial<CashLedgerReply> | null>(`/cash/${encodeURIComponent(username)}/ledger`, {
      query: { page: q.page, limit: q.limit, currency: q.currency },
      signal,
    })
    .then(
      (reply): CashLedgerReply => ({
        username: reply?.username ?? username,
        balances: Array.isArray(reply?.balances) ? reply.balances : [],
        data: Array.isArray(reply?.data) ? reply.data : [],
        pagination: reply?.pagination ?? { total: reply?.data?.length ?? 0, total_pages: 1, page: q.page, limit: q.limit },
      }),
    );

export const cashLedgerQueryOptions = (username: string, q: CashLedgerListQuery) =>
  queryOptions({ queryKey: cashKeys.ledgerPage(username, q), queryFn: ({ signal }) => getCashLedger(username, q, signal) });

/**
 * The ledger of `username`, read only while one is chosen. Its previous page
 * stays on screen while the next one loads (the same collector and currency:
 * another collector shows Loading, not the entries of the last).
 */
export function useCashLedger(username: string | null, q: CashLedgerListQuery) {
  return useQuery({
    ...cashLedgerQueryOptions(username ?? '', q),
    enabled: username !== null,
    placeholderData: (previous, previousQuery) => {
      const key = previousQuery?.queryKey as ReturnType<typeof cashKeys.ledgerPage> | undefined;
      return key && key[2] === username && key[3].currency === q.currency && key[3].limit === q.limit ? previous : undefined;
    },
  });
}
