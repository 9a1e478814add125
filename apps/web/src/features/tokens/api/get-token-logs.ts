import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { tokenKeys } from './keys';
import type { TokenLog, TokenLogList, TokenLogQuery } from './types';

/** Token page size (spec §9). */
export const TOKENS_PAGE_SIZE = 10;

export interface TokenLogPage {
  items: TokenLog[];
  total: number;
  /** The organization is disabled or suspended: an empty list, not an error (the toast says why). */
  suspended: boolean;
}

/** The paged reply is {items, total}, possibly under data (spec §7). */
export async function getTokenLogs(q: TokenLogQuery, signal?: AbortSignal): Promise<TokenLogPage> {
  try {
    const reply = await api.get<TokenLogList | TokenLogList['data']>('/metrics/token-generation-logs', { query: { ...q }, signal });
    const page = reply && 'data' in reply ? reply.data : reply;
    return { items: page?.items ?? [], total: page?.total ?? 0, suspended: false };
  } catch (error) {
    if (error instanceof ServiceBlockedError) return { items: [], total: 0, suspended: true };
    throw error;
  }
}

export const tokenLogsQueryOptions = (q: TokenLogQuery) =>
  queryOptions({ queryKey: tokenKeys.logs(q), queryFn: ({ signal }) => getTokenLogs(q, signal) });

export const useTokenLogs = (q: TokenLogQuery) => useQuery({ ...tokenLogsQueryOptions(q), placeholderData: keepPreviousData });
