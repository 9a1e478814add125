import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { AdminTokenLog, AdminTokenLogQuery } from './types';

/** Token logs are listed 100 at a time (spec §9). */
export const TOKEN_LOG_PAGE_SIZE = 100;

export async function getTokenLogs(q: AdminTokenLogQuery, signal?: AbortSignal) {
  const reply = await api.get<{ data?: { items?: AdminTokenLog[]; total?: number } } | null>('/admin/metrics/token-logs', {
    query: { limit: q.limit, offset: q.offset, organization_id: q.organization_id, status_filter: q.status_filter },
    signal,
  });
  const items = reply?.data?.items ?? [];
  return { data: items, total: reply?.data?.total ?? items.length };
}
export const tokenLogsQueryOptions = (q: AdminTokenLogQuery) =>
  queryOptions({ queryKey: adminKeys.tokenLogs(q), queryFn: ({ signal }) => getTokenLogs(q, signal) });
export const useTokenLogs = (q: AdminTokenLogQuery) => useQuery({ ...tokenLogsQueryOptions(q), placeholderData: keepPreviousData });
