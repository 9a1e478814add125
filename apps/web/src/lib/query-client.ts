import { QueryClient, type InvalidateQueryFilters } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** A 4xx will answer the same on a retry; only server and network failures are retried. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/**
 * After a write: every matching query is stale, and the ones on screen read
 * again. invalidateQueries alone is not enough for a query whose first fetch
 * is still in flight (a list that has just been searched, say): having no
 * data yet, it is not cancelled but joined, so the reply, read before the
 * write committed, would stay on screen as fresh (a deleted row still
 * listed). Cancelling in-flight fetches first makes every one of them read
 * again after the write.
 */
export async function refreshAfterWrite(qc: QueryClient, filters?: InvalidateQueryFilters): Promise<void> {
  await qc.cancelQueries(filters);
  await qc.invalidateQueries(filters);
}
