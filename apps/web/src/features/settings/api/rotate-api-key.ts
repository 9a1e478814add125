import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { ApiKeyReply } from './types';

/** A new key; the old one stops working at once. */
export const rotateApiKey = () => api.post<ApiKeyReply>('/settings/api-key/rotate');

export function useRotateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rotateApiKey,
    onSuccess: (reply) => qc.setQueryData(settingsKeys.apiKey(), reply),
  });
}
