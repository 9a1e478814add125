import { Controller, Get, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  BAND_SMS_PLACEHOLDERS,
  MAX_AGENTS_LISTED,
  MAX_BAND_SMS,
  NO_AGENT,
  ZCollectionAgentsReplySchema,
  ZCollectionsSummaryQuerySchema,
  ZBandSmsReplySchema,
  ZBandSmsSchema,
  ZCollectionsExportQuerySchema,
  ZCollectionsQuerySchema,
  ZCollectionsReplySchema,
  ZCollectionsSummaryReplySchema,
  ZContactInputSchema,
  ZContactListReplySchema,
  ZContactReplySchema,
  ZPromisesQuerySchema,
  ZPromisesReplySchema,
  ZPromisesSummaryReplySchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import type { HttpReply } from '../common/http.js';
import { BandSmsService } from './band-sms.service.js';
import { CollectionsService } from './collections.service.js';

const ZItemParams = zPathId('item_id');
type ItemParams = z.output<typeof ZItemParams>;

@ApiTags('collections')
@Controller('collections')
export class CollectionsController {
  constructor(
    private readonly collections: CollectionsService,
    private readonly bandSms: BandSmsService,
  ) {}

  @Get('summary')
  @Endpoint({
    summary: 'How many devices are out of credit, by days without credit (0–7, 8–30, 31–90, over 90); of one sales agent with agent',
    query: ZCollectionsSummaryQuerySchema,
    response: ZCollectionsSummaryReplySchema,
    errors: { 400: 'A bad agent' },
  })
  summary(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZCollectionsSummaryQuerySchema>) {
    return this.collections.summary(orgId, q.agent);
  }

  @Get('agents')
  @Endpoint({
    summary: `The sales agents (customers' agent_id) with devices given and not paid off, by name, "${NO_AGENT}" last for customers without one: what the agent filter takes`,
    description: `At most ${MAX_AGENTS_LISTED} (truncated tells there are more).`,
    response: ZCollectionAgentsReplySchema,
  })
  agents(@OrgId() orgId: string) {
    return this.collections.agents(orgId);
  }

  @Get('promises/summary')
  @Endpoint({
    summary:
      'Promises to pay by status (due today, broken, upcoming, kept, paid late: each device\'s latest promise, ' +
      'days from 90 days ago on) and the percent of the settled ones that were kept',
    response: ZPromisesSummaryReplySchema,
  })
  promisesSummary(@OrgId() orgId: string) {
    return this.collections.promisesSummary(orgId);
  }

  @Get('promises')
  @Endpoint({
    summary:
      'Promises to pay of one status (or all), with the customer, the device, its credit and the first payment ' +
      'since the promise: upcoming and due soonest first, the others the most recent day first',
    query: ZPromisesQuerySchema,
    response: ZPromisesReplySchema,
    errors: { 400: 'A bad page, limit or status' },
  })
  promises(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZPromisesQuerySchema>) {
    return this.collections.promises(orgId, q);
  }

  @Get('export')
  @Endpoint({
    summary: 'The devices out of credit of one band (or all), of one sales agent with agent, as a CSV file (collections.csv), in the list order',
    query: ZCollectionsExportQuerySchema,
    produces: 'text/csv',
    errors: { 400: 'A bad bucket or agent' },
  })
  export(
    @OrgId() orgId: string,
    @ValidQuery() q: z.output<typeof ZCollectionsExportQuerySchema>,
    @Res() reply: HttpReply,
    @CurrentUser() user: AuthUser,
  ) {
    return this.collections.export(orgId, q, reply, user);
  }

  @Post('sms')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Text every customer of a band of days without credit (of one sales agent with agent), each message filled in for its device; dry_run to preview',
    description:
      `Placeholders: ${Object.entries(BAND_SMS_PLACEHOLDERS)
        .map(([k, what]) => `{${k}} (${what})`)
        .join(', ')}. One SMS per device whose customer has a phone number, queued and sent through the organization's SMS provider, ` +
      `each at most 3 SMS once filled in; at most ${MAX_BAND_SMS} devices at once. Listed in each device's Message History with ` +
      'sent_by; audited (collections.sms_sent) with the text and the count. dry_run: true counts and shows the first three, queueing nothing.',
    body: ZBandSmsSchema,
    response: ZBandSmsReplySchema,
    errors: {
      400: 'A bad bucket, an empty or unknown-placeholder text, or a text too long once filled in, named',
      403: 'Not an owner or admin',
      409: `No SMS provider is set up, or more than ${MAX_BAND_SMS} devices are in the band`,
    },
  })
  textBand(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZBandSmsSchema>) {
    return this.bandSms.send(orgId, user, body);
  }

  @Get()
  @Endpoint({
    summary:
      'Devices out of credit (assigned, not paid off, their days run out), the most recently run out first, ' +
      'with the customer to call, the last payment, the plan and what is left to pay',
    query: ZCollectionsQuerySchema,
    response: ZCollectionsReplySchema,
    errors: { 400: 'A bad page, limit, bucket or agent' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZCollectionsQuerySchema>) {
    return this.collections.list(orgId, q);
  }

  @Post(':item_id/contacts')
  @Endpoint({
    summary: 'Log a call or visit about a device out of credit: what came of it, and the day promised for a promise to pay',
    params: ZItemParams,
    body: ZContactInputSchema,
    response: ZContactReplySchema,
    status: 201,
    errors: {
      400: 'A bad outcome, note or promised_on (required for promised_to_pay, today to 90 days ahead; only then)',
      404: 'Device not found',
      409: 'The device has no customer',
    },
  })
  addContact(
    @OrgId() orgId: string,
    @ValidParams() p: ItemParams,
    @ValidBody() body: z.output<typeof ZContactInputSchema>,
    @CurrentUser() user: AuthUser,
  ) {
    return this.collections.addContact(orgId, p.item_id, body, user);
  }

  @Get(':item_id/contacts')
  @Endpoint({
    summary: "The calls and visits logged about a device with its current customer, newest first (at most 100)",
    params: ZItemParams,
    response: ZContactListReplySchema,
    errors: { 404: 'Device not found' },
  })
  contacts(@OrgId() orgId: string, @ValidParams() p: ItemParams) {
    return this.collections.contacts(orgId, p.item_id);
  }
}
