import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZCollectionsExportQuerySchema,
  ZCollectionsQuerySchema,
  ZCollectionsReplySchema,
  ZCollectionsSummaryReplySchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidQuery } from '../common/validation.js';
import type { HttpReply } from '../common/http.js';
import { CollectionsService } from './collections.service.js';

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
}
