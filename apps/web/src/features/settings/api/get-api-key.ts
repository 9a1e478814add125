import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { ApiKeyReply } from './types';

/** The receiver key; the server creates one on the first read. */
export const getApiKey = (signal?: AbortSignal) => api.get<ApiKeyReply>('/settings/api-key', { signal });

export const apiKeyQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.apiKey(), queryFn: ({ signal }) => getApiKey(signal), staleTime: Infinity });

export const useApiKey = (enabled: boolean) => useQuery({ ...apiKeyQueryOptions(), enabled });
