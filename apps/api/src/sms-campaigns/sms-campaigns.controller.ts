import { Controller, Get, Module, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CAMPAIGN_SMS_PLACEHOLDERS,
  MAX_CAMPAIGN_DAYS_AHEAD,
  MAX_CAMPAIGN_RECIPIENTS,
  ZCampaignCancelReplySchema,
  ZCampaignInputSchema,
  ZCampaignReplySchema,
  ZCampaignSchema,
  ZCampaignsQuerySchema,
  ZCampaignsReplySchema,
  ZCampaignTextsQuerySchema,
  ZCampaignTextsReplySchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { SettingsModule } from '../settings/settings.module.js';
import { SmsCampaignsService } from './sms-campaigns.service.js';

const ZCampaignParams = zPathId('campaign_id');
type CampaignParams = z.output<typeof ZCampaignParams>;

/** Bulk SMS, for owners and admins (README "Bulk SMS"). */
@ApiTags('sms-campaigns')
@Controller('sms-campaigns')
@Roles('owner', 'admin', 'super_admin')
export class SmsCampaignsController {
  constructor(private readonly campaigns: SmsCampaignsService) {}

  @Post()
  @Endpoint({
    summary: 'Text a group of customers (all, with or without a device; by repayment standing, product, county, sales agent), now or at send_at; dry_run to preview',
    description:
      `Placeholders: ${Object.entries(CAMPAIGN_SMS_PLACEHOLDERS)
        .map(([k, what]) => `{${k}} (${what})`)
        .join(', ')}. One SMS per phone number, each at most 3 SMS once filled in; customers who texted STOP or have no phone number ` +
      `are passed over and counted. At most ${MAX_CAMPAIGN_RECIPIENTS} customers at once; send_at up to ${MAX_CAMPAIGN_DAYS_AHEAD} days ahead. ` +
      'The texts are queued and sent through the organization’s SMS provider after the payment replies due. Audited (sms_campaign.sent). ' +
      'dry_run: true counts and shows the first three, queueing nothing.',
    body: ZCampaignInputSchema,
    response: ZCampaignReplySchema,
    errors: {
      400: 'A bad audience, text (empty, an unknown placeholder, too long once filled in) or send_at, named; or nobody in the group to text',
      403: 'Not an owner or admin',
      409: `No SMS provider is set up, or more than ${MAX_CAMPAIGN_RECIPIENTS} customers are in the group`,
    },
  })
  send(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZCampaignInputSchema>) {
    return this.campaigns.send(orgId, user, body);
  }

  @Get()
  @Endpoint({
    summary: 'The bulk SMS sent and scheduled, newest first, each with what became of its texts',
    query: ZCampaignsQuerySchema,
    response: ZCampaignsReplySchema,
    errors: { 400: 'A bad page or limit', 403: 'Not an owner or admin' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZCampaignsQuerySchema>) {
    return this.campaigns.list(orgId, q);
  }

  @Get(':campaign_id')
  @Endpoint({
    summary: 'One bulk SMS, with what became of its texts',
    params: ZCampaignParams,
    response: ZCampaignSchema,
    errors: { 403: 'Not an owner or admin', 404: 'Bulk SMS not found' },
  })
  get(@OrgId() orgId: string, @ValidParams() p: CampaignParams) {
    return this.campaigns.get(orgId, p.campaign_id);
  }

  @Get(':campaign_id/texts')
  @Endpoint({
    summary: 'The texts of one bulk SMS in the order they were queued, each with its customer, what became of it and why not sent; one status',
    params: ZCampaignParams,
    query: ZCampaignTextsQuerySchema,
    response: ZCampaignTextsReplySchema,
    errors: { 400: 'A bad page, limit or status', 403: 'Not an owner or admin', 404: 'Bulk SMS not found' },
  })
  texts(@OrgId() orgId: string, @ValidParams() p: CampaignParams, @ValidQuery() q: z.output<typeof ZCampaignTextsQuerySchema>) {
    return this.campaigns.texts(orgId, p.campaign_id, q);
  }

  @Post(':campaign_id/cancel')
  @Endpoint({
    summary: 'Cancel a bulk SMS: its texts not sent yet are not sent',
    description: 'A text the outbox is sending at that moment still goes. Audited (sms_campaign.cancelled).',
    params: ZCampaignParams,
    response: ZCampaignCancelReplySchema,
    errors: { 403: 'Not an owner or admin', 404: 'Bulk SMS not found', 409: 'Cancelled already, or every text has gone out' },
  })
  cancel(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() p: CampaignParams) {
    return this.campaigns.cancel(orgId, user, p.campaign_id);
  }
}

@Module({ imports: [SettingsModule], controllers: [SmsCampaignsController], providers: [SmsCampaignsService] })
export class SmsCampaignsModule {}
