import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { CampaignCancelReply } from './types';

/** POST /sms-campaigns/{id}/cancel: the texts not sent yet are taken off the queue; those sent stay sent. */
export const cancelSmsCampaign = (campaignId: number) => api.post<CampaignCancelReply>(`/sms-campaigns/${campaignId}/cancel`);

export function useCancelSmsCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelSmsCampaign,
    // The list and the outbox figures changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
