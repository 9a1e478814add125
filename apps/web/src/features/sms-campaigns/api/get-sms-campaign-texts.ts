import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { CAMPAIGNS_POLL_MS, isUnderway } from './get-sms-campaigns';
import { smsCampaignKeys } from './keys';
import type { Campaign, CampaignText, CampaignTextsListQuery, CampaignTextsReply } from './types';

/** The API's default page: 20 texts. */
export const CAMPAIGN_TEXTS_PAGE_SIZE = 20;

export interface CampaignTextsPage {
  data: CampaignText[];
  total: number;
}

/** GET /sms-campaigns/{id}/texts: its texts in the order they were queued; one status, or all. */
export const getSmsCampaignTexts = (campaignId: number, q: CampaignTextsListQuery, signal?: AbortSignal) =>
  suspendableList<CampaignTextsPage>(
    api
      .get<Partial<CampaignTextsReply> | null>(`/sms-campaigns/${campaignId}/texts`, {
        query: { page: q.page, limit: q.limit, status: q.status },
        signal,
      })
      .then((reply) => {
        const data = Array.isArray(reply?.data) ? reply.data : [];
        return { data, total: reply?.pagination?.total ?? data.length };
      }),
    { total: 0 },
  );

export const smsCampaignTextsQueryOptions = (campaignId: number, q: CampaignTextsListQuery) =>
  queryOptions({ queryKey: smsCampaignKeys.textsPage(campaignId, q), queryFn: ({ signal }) => getSmsCampaignTexts(campaignId, q, signal) });

/**
 * The texts of `campaign`, read only while one is chosen. Its previous page
 * stays on screen while the next one loads (the same campaign and status:
 * another filter shows Loading, not the texts of the last); the page reads
 * again every CAMPAIGNS_POLL_MS while the bulk SMS is scheduled or sending,
 * as the list does, so the statuses follow.
 */
export function useSmsCampaignTexts(campaign: Pick<Campaign, 'campaign_id' | 'status'> | null, q: CampaignTextsListQuery) {
  const id = campaign?.campaign_id ?? 0;
  return useQuery({
    ...smsCampaignTextsQueryOptions(id, q),
    enabled: campaign !== null,
    placeholderData: (previous, previousQuery) => {
      const key = previousQuery?.queryKey as ReturnType<typeof smsCampaignKeys.textsPage> | undefined;
      return key && key[2] === id && key[3].status === q.status && key[3].limit === q.limit ? previous : undefined;
    },
    refetchInterval: campaign && isUnderway(campaign) ? CAMPAIGNS_POLL_MS : false,
  });
}
