import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { collectionKeys } from './keys';
import type { AgentFilter, CollectionBucket, CollectionsSummaryReply } from './types';

export interface CollectionsSummary {
  openAccounts: number;
  outOfCredit: number;
  /** Devices per bucket; a bucket the reply left out counts 0. */
  devices: Record<CollectionBucket, number>;
  /** Left to pay per bucket ("0.00" when the reply has none). */
  outstanding: Record<CollectionBucket, string>;
  /** Left to pay on all open accounts; null from a server that does not say. */
  outstandingTotal: string | null;
  /** Portfolio at risk over 30 days, in percent; null from a server that does not say. */
  par30: number | null;
  /** Percent of open accounts out of credit, 0 when there are none. */
  outOfCreditRate: number;
  /** When the server counted (it may keep a large organization's counts up to a minute). */
  asOf: string | null;
  /** The server's business day (YYYY-MM-DD): the first day a promise may name. null from a server that does not say. */
  today: string | null;
}

export function summarize(data: Partial<CollectionsSummaryReply['data']> | undefined): CollectionsSummary {
  const devices: Record<CollectionBucket, number> = { '0-7': 0, '8-30': 0, '31-90': 0, 'over-90': 0 };
  const outstanding: Record<CollectionBucket, string> = { '0-7': '0.00', '8-30': '0.00', '31-90': '0.00', 'over-90': '0.00' };
  for (const b of data?.buckets ?? []) {
    if (!(b.bucket in devices)) continue;
    devices[b.bucket] = b.devices;
    if (b.outstanding !== undefined) outstanding[b.bucket] = b.outstanding;
  }
  const openAccounts = data?.open_accounts ?? 0;
  const outOfCredit = data?.out_of_credit ?? Object.values(devices).reduce((a, b) => a + b, 0);
  return {
    openAccounts,
    outOfCredit,
    devices,
    outstanding,
    outstandingTotal: data?.outstanding ?? null,
    par30: typeof data?.portfolio_at_risk_30 === 'number' ? data.portfolio_at_risk_30 * 100 : null,
    outOfCreditRate: openAccounts > 0 ? (outOfCredit / openAccounts) * 100 : 0,
    asOf: data?.as_of ?? null,
    today: data?.today ?? null,
  };
}

/** GET /collections/summary: the whole organization's counts, or one sales agent's (`agent`). */
export async function getCollectionsSummary(agent: AgentFilter, signal?: AbortSignal): Promise<CollectionsSummary> {
  try {
    const reply = await api.get<Partial<CollectionsSummaryReply> | null>('/collections/summary', { query: { agent }, signal });
    return summarize(reply?.data);
  } catch (error) {
    // A blocked organization sees zeros; the banner and toast say why.
    if (error instanceof ServiceBlockedError) return summarize(undefined);
    throw error;
  }
}

export const collectionsSummaryQueryOptions = (agent: AgentFilter = null) =>
  queryOptions({ queryKey: collectionKeys.summary(agent), queryFn: ({ signal }) => getCollectionsSummary(agent, signal) });

/** The counts of every agent's devices (agent null) or one agent's; `enabled: false` reads what is cached without asking the server. */
export const useCollectionsSummary = (agent: AgentFilter = null, enabled = true) => useQuery({ ...collectionsSummaryQueryOptions(agent), enabled });
