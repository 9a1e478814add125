import type { CampaignsListQuery, CampaignTextsListQuery } from './types';

/**
 * Query keys of Bulk SMS. A bulk text sent or cancelled refreshes everything
 * cached (refreshAfterWrite): Message History and the outbox figures change
 * with it, and this list too.
 */
export const smsCampaignKeys = {
  all: ['sms-campaigns'] as const,
  lists: () => [...smsCampaignKeys.all, 'list'] as const,
  list: (q: CampaignsListQuery) => [...smsCampaignKeys.lists(), q] as const,
  /** The texts of one bulk SMS. */
  texts: (campaignId: number) => [...smsCampaignKeys.all, 'texts', campaignId] as const,
  textsPage: (campaignId: number, q: CampaignTextsListQuery) => [...smsCampaignKeys.texts(campaignId), q] as const,
};
