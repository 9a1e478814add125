// The API's contract (packages/contracts/src/sms-campaigns.ts), plus what only this screen needs.
import type { CampaignTextStatus } from '@kidogo/contracts';

export type {
  Campaign,
  CampaignAudience,
  CampaignCancelReply,
  CampaignCustomerGroup,
  CampaignInput,
  CampaignReply,
  CampaignsReply,
  CampaignStatus,
  CampaignText,
  CampaignTextsReply,
  CampaignTextStatus,
  RepaymentStanding,
} from '@kidogo/contracts';

/** What the list asks GET /sms-campaigns for: one page, newest first. */
export interface CampaignsListQuery {
  page: number;
  limit: number;
}

/** What the drawer asks GET /sms-campaigns/{id}/texts for: one page, in the order queued; all statuses when status is absent. */
export interface CampaignTextsListQuery {
  page: number;
  limit: number;
  status?: CampaignTextStatus;
}
