import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { collectionKeys } from './keys';
import type { CollectionAgentsReply } from './types';

export interface CollectionAgents {
  /** The sales agents with open accounts, by name; NO_AGENT last when some customers have none. */
  agents: string[];
  /** More agents have open accounts than the server lists (MAX_AGENTS_LISTED): the first are listed. */
  truncated: boolean;
}

/** GET /collections/agents: whom the agent filter offers. */
export async function getCollectionAgents(signal?: AbortSignal): Promise<CollectionAgents> {
  try {
    const reply = await api.get<Partial<CollectionAgentsReply> | null>('/collections/agents', { signal });
    return { agents: reply?.data?.agents ?? [], truncated: reply?.data?.truncated ?? false };
  } catch (error) {
    // A blocked organization sees no agents; the banner and toast say why.
    if (error instanceof ServiceBlockedError) return { agents: [], truncated: false };
    throw error;
  }
}

export const collectionAgentsQueryOptions = () =>
  queryOptions({ queryKey: collectionKeys.agents(), queryFn: ({ signal }) => getCollectionAgents(signal) });

export const useCollectionAgents = () => useQuery(collectionAgentsQueryOptions());
