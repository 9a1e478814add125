// The API's contract (packages/contracts/src/sms-campaigns.ts), plus what only this screen needs.
export type {
  Campaign,
  CampaignAudience,
  CampaignCancelReply,
  CampaignCustomerGroup,
  CampaignInput,
  CampaignReply,
  CampaignsReply,
  CampaignStatus,
  RepaymentStanding,
} from '@kidogo/contracts';

/** What the list asks GET /sms-campaigns for: one page, newest first. */
export interface CampaignsListQuery {
  page: number;
  limit: number;
}
