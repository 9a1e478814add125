import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenKeys } from './keys';
import type { GenerateTokenByDaysInput, GenerateTokenInput, TokenReply } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const generateTokenByDays = (input: GenerateTokenByDaysInput) => api.post<TokenReply>('/generate-token-by-days', input);

/** A token of a chosen type (owners and admins): set time, unlock forever, counter sync. */
export const generateTypedToken = (input: GenerateTokenInput) => api.post<TokenReply>('/generate-token', input);

/** Days → POST /generate-token-by-days (the spec's call); a typed token → POST /generate-token. */
export function useGenerateToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: GenerateTokenByDaysInput | GenerateTokenInput) =>
      'number_of_days' in input ? generateTokenByDays(input) : generateTypedToken(input),
    onSuccess: () => refreshAfterWrite(qc, { queryKey: tokenKeys.all }),
  });
}
