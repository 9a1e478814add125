import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BandSmsInput, BandSmsReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { collectionKeys } from './keys';
import type { CollectionBucketFilter } from './types';

/** One text to every customer of a band, filled in for each device; dry_run previews it. */
export const textBand = (body: BandSmsInput) => api.post<BandSmsReply>('/collections/sms', body);

/** The preview of a text to the band: how many it reaches and the first few as they go out (nothing is queued). */
export function useBandSmsPreview(bucket: CollectionBucketFilter, text: string, enabled: boolean) {
  return useQuery({
    queryKey: [...collectionKeys.all, 'sms-preview', bucket, text] as const,
    queryFn: () => textBand({ bucket, text, dry_run: true }),
    enabled: enabled && text.trim().length > 0,
    retry: false,
    staleTime: 30_000,
  });
}

export function useTextBand() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { bucket: CollectionBucketFilter; text: string }) => textBand({ ...body, dry_run: false }),
    // Message History, each device's history and the outbox figures changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
