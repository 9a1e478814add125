import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productKeys } from './keys';
import type { UpdateTokenCountInput, UpdateTokenCountReply } from './types';

export const updateTokenCount = (input: UpdateTokenCountInput) =>
  api.post<UpdateTokenCountReply>('/update-token-count', input);

export function useUpdateTokenCount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateTokenCount,
    onSuccess: () => qc.invalidateQueries({ queryKey: productKeys.all }),
  });
}
