import { queryOptions, useQuery } from '@tanstack/react-query';
import { PROMISE_STATUSES } from '@kidogo/contracts';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { collectionKeys } from './keys';
import type { PromisesSummaryReply, PromiseStatus } from './types';

export interface PromisesSummary {
  /** Promises per status; a status the reply left out counts 0. */
  counts: Record<PromiseStatus, number>;
  /** Every promise in the list: the sum of the counts. */
  total: number;
  /** Percent of the settled promises (kept, paid late, broken) that were kept; null when none are settled. */
  keptRate: number | null;
  /** The server's business day (YYYY-MM-DD). */
  today: string | null;
  /** The oldest promised day the list counts (YYYY-MM-DD). */
  from: string | null;
}

export function summarizePromises(data: Partial<PromisesSummaryReply['data']> | undefined): PromisesSummary {
  const counts = Object.fromEntries(PROMISE_STATUSES.map((s) => [s, data?.counts?.[s] ?? 0])) as Record<PromiseStatus, number>;
  return {
    counts,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    keptRate: data?.kept_rate ?? null,
    today: data?.today ?? null,
    from: data?.from ?? null,
  };
}

/** GET /collections/promises/summary. */
export async function getPromisesSummary(signal?: AbortSignal): Promise<PromisesSummary> {
  try {
    const reply = await api.get<Partial<PromisesSummaryReply> | null>('/collections/promises/summary', { signal });
    return summarizePromises(reply?.data);
  } catch (error) {
    // A blocked organization sees zeros; the banner and toast say why.
    if (error instanceof ServiceBlockedError) return summarizePromises(undefined);
    throw error;
  }
}

export const promisesSummaryQueryOptions = () =>
  queryOptions({ queryKey: collectionKeys.promisesSummary(), queryFn: ({ signal }) => getPromisesSummary(signal) });

/** `enabled: false` reads what is cached without asking the server. */
export const usePromisesSummary = (enabled = true) => useQuery({ ...promisesSummaryQueryOptions(), enabled });
