import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { messageKeys } from './keys';
import type { MessageStats } from './types';

export async function getMessageStats(signal?: AbortSignal): Promise<MessageStats | null> {
  try {
    return (await api.get<MessageStats | null>('/messages/stats', { signal })) ?? null;
  } catch (error) {
    if (error instanceof ServiceBlockedError) return null;
    throw error;
  }
}

export const messageStatsQueryOptions = () =>
  queryOptions({ queryKey: messageKeys.stats(), queryFn: ({ signal }) => getMessageStats(signal), refetchInterval: 30_000 });

export const useMessageStats = () => useQuery(messageStatsQueryOptions());
