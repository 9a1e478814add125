import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZProductExportQuerySchema, ZProductListQuerySchema, ZProductListReplySchema, ZProductsSummaryReplySchema } from '@kidogo/contracts';
import type { z } from 'zod';
import type { HttpReply } from '../common/http.js';
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { ProductsService } from './products.service.js';

@ApiTags('products')
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get('summary')
  @Endpoint({ summary: 'Device counts: total, assigned, unassigned', response: ZProductsSummaryReplySchema })
  summary(@OrgId() orgId: string) {
    return this.products.summary(orgId);
  }

  @Get('export')
  @Endpoint({
    summary: 'The devices of the Products filters (search, status, location_id) as a CSV file (products.csv), oldest first',
    description: 'The device import\'s columns (no factory secrets), the stock location, who has each device and what was paid on it.',
    query: ZProductExportQuerySchema,
    produces: 'text/csv',
    errors: { 400: 'A bad status or location_id' },
  })
  export(
    @OrgId() orgId: string,
    @ValidQuery() q: z.output<typeof ZProductExportQuerySchema>,
    @Res() reply: HttpReply,
    @CurrentUser() user: AuthUser,
  ) {
    return this.products.export(orgId, q, reply, user);
  }

  @Get()
  @Endpoint({
    summary: 'Devices for the Product Management screen, newest first, with search and an assigned/unassigned filter',
    query: ZProductListQuerySchema,
    response: ZProductListReplySchema,
    errors: { 400: 'A bad page, limit or status' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZProductListQuerySchema>) {
    return this.products.list(orgId, q);
  }
}
