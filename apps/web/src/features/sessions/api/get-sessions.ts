import type { SessionList } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessionKeys } from './keys';

/** Where the signed-in user is signed in, most recently active first; `current` marks this browser's. */
export const getSessions = (signal?: AbortSignal) => api.get<SessionList>('/auth/sessions', { signal });

export const sessionsQueryOptions = () => queryOptions({ queryKey: sessionKeys.list(), queryFn: ({ signal }) => getSessions(signal) });

export const useSessions = () => useQuery(sessionsQueryOptions());
