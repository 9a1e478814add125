import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BandSmsInput, BandSmsReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { collectionKeys } from './keys';
import type { AgentFilter, CollectionBucketFilter } from './types';

/** Whom a text to a band goes to: the band's devices, of one sales agent's customers when `agent` is set. */
export interface BandTarget {
  bucket: CollectionBucketFilter;
  agent: AgentFilter;
}

/** One text to every customer of a band (of one agent), filled in for each device; dry_run previews it. */
export const textBand = (body: BandSmsInput) => api.post<BandSmsReply>('/collections/sms', body);

/** The request's body: `agent` only when one is chosen (the API reads its absence as every agent's). */
const bodyOf = ({ bucket, agent }: BandTarget, text: string, dryRun: boolean): BandSmsInput =>
  agent === null ? { bucket, text, dry_run: dryRun } : { bucket, agent, text, dry_run: dryRun };

/** The preview of a text to the band: how many it reaches and the first few as they go out (nothing is queued). */
export function useBandSmsPreview(target: BandTarget, text: string, enabled: boolean) {
  return useQuery({
    queryKey: [...collectionKeys.all, 'sms-preview', target.bucket, target.agent, text] as const,
    queryFn: () => textBand(bodyOf(target, text, true)),
    enabled: enabled && text.trim().length > 0,
    retry: false,
    staleTime: 30_000,
  });
}

export function useTextBand() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ text, ...target }: BandTarget & { text: string }) => textBand(bodyOf(target, text, false)),
    // Message History, each device's history and the outbox figures changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
