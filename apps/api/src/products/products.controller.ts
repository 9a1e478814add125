import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZProductListQuerySchema, ZProductListReplySchema, ZProductsSummaryReplySchema } from '@kidogo/contracts';
import type { z } from 'zod';
import { OrgId } from '../common/tenancy.js';
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
