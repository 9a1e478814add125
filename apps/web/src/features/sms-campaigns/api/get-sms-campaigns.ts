import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { smsCampaignKeys } from './keys';
import type { Campaign, CampaignsListQuery, CampaignsReply } from './types';

/** The API's default page: 20 bulk texts. */
export const CAMPAIGNS_PAGE_SIZE = 20;

/** While a bulk text of the page is still to go or going out, the list reads again this often: its counts move. */
export const CAMPAIGNS_POLL_MS = 10_000;

export interface CampaignsPage {
  data: Campaign[];
  total: number;
}

/** GET /sms-campaigns: newest first. */
export const getSmsCampaigns = (q: CampaignsListQuery, signal?: AbortSignal) =>
  suspendableList<CampaignsPage>(
    api
      .get<Partial<CampaignsReply> | null>('/sms-campaigns', { query: { page: q.page, limit: q.limit }, signal })
      .then((reply) => {
        const data = Array.isArray(reply?.data) ? reply.data : [];
        return { data, total: reply?.pagination?.total ?? data.length };
      }),
    { total: 0 },
  );

/** A bulk text whose texts are not all out yet: scheduled, or sending. */
export const isUnderway = (c: Pick<Campaign, 'status'>) => c.status === 'scheduled' || c.status === 'sending';

export const smsCampaignsQueryOptions = (q: CampaignsListQuery) =>
  queryOptions({ queryKey: smsCampaignKeys.list(q), queryFn: ({ signal }) => getSmsCampaigns(q, signal) });

/**
 * The previous page stays on screen while the next one loads, so the table
 * does not jump; the page reads again every CAMPAIGNS_POLL_MS while one of its
 * bulk texts is scheduled or sending, so its status and counts follow.
 */
export const useSmsCampaigns = (q: CampaignsListQuery) =>
  useQuery({
    ...smsCampaignsQueryOptions(q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some(isUnderway) ? CAMPAIGNS_POLL_MS : false),
  });
