import { Controller, Get, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
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
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import type { HttpReply } from '../common/http.js';
import { CollectionsService } from './collections.service.js';

const ZItemParams = zPathId('item_id');
type ItemParams = z.output<typeof ZItemParams>;

@ApiTags('collections')
@Controller('collections')
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get('summary')
  @Endpoint({
    summary: 'How many devices are out of credit, by days without credit (0–7, 8–30, 31–90, over 90)',
    response: ZCollectionsSummaryReplySchema,
  })
  summary(@OrgId() orgId: string) {
    return this.collections.summary(orgId);
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
    summary: 'The devices out of credit of one band (or all) as a CSV file (collections.csv), in the list order',
    query: ZCollectionsExportQuerySchema,
    produces: 'text/csv',
    errors: { 400: 'A bad bucket' },
  })
  export(
    @OrgId() orgId: string,
    @ValidQuery() q: z.output<typeof ZCollectionsExportQuerySchema>,
    @Res() reply: HttpReply,
    @CurrentUser() user: AuthUser,
  ) {
    return this.collections.export(orgId, q.bucket, reply, user);
  }

  @Get()
  @Endpoint({
    summary:
      'Devices out of credit (assigned, not paid off, their days run out), the most recently run out first, ' +
      'with the customer to call, the last payment, the plan and what is left to pay',
    query: ZCollectionsQuerySchema,
    response: ZCollectionsReplySchema,
    errors: { 400: 'A bad page, limit or bucket' },
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
