import type { ApiTokenCreated, ApiTokenCreateInput, ApiTokenListReply } from '@kidogo/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const apiTokenKeys = { all: ['api-tokens'] as const };

/** The caller's API tokens; an owner's or admin's, every token of the organization. */
export const useApiTokens = () => useQuery({ queryKey: apiTokenKeys.all, queryFn: ({ signal }) => api.get<ApiTokenListReply>('/auth/api-tokens', { signal }) });

function useTokenMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: apiTokenKeys.all }) });
}

export const useCreateApiToken = () => useTokenMutation((body: ApiTokenCreateInput) => api.post<ApiTokenCreated>('/auth/api-tokens', body));
export const useRevokeApiToken = () => useTokenMutation((id: number) => api.delete<{ message: string }>(`/auth/api-tokens/${id}`));
