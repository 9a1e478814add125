import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenKeys } from './keys';
import type { GenerateTokenByDaysInput, TokenReply } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const generateTokenByDays = (input: GenerateTokenByDaysInput) => api.post<TokenReply>('/generate-token-by-days', input);

export function useGenerateToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: generateTokenByDays,
    onSuccess: () => refreshAfterWrite(qc, { queryKey: tokenKeys.all }),
  });
}
