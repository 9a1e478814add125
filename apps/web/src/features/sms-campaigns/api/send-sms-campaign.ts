import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { CampaignInput, CampaignReply } from './types';

/** POST /sms-campaigns: one text to a group of customers, now or at send_at; dry_run counts them and fills in the first three, queueing nothing. */
export const postSmsCampaign = (body: CampaignInput) => api.post<CampaignReply>('/sms-campaigns', body);

/** The preview (dry_run): whom it reaches, whom it passes over, and the first three texts as they go out. Nothing changes. */
export const useSmsCampaignPreview = () =>
  useMutation({ mutationFn: (body: Omit<CampaignInput, 'dry_run'>) => postSmsCampaign({ ...body, dry_run: true }) });

export function useSendSmsCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<CampaignInput, 'dry_run'>) => postSmsCampaign({ ...body, dry_run: false }),
    // The list of bulk texts, Message History and the outbox figures changed.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
