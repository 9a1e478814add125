import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZOdysseyCustomersReplySchema, ZOdysseyQuerySchema, type OdysseyQuery } from '@kidogo/contracts';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { ApiKeyAuth, OrgId } from '../common/tenancy.js';
import { ExternalService } from './external.service.js';

@ApiTags('external')
@ApiKeyAuth()
@Controller('external')
export class ExternalController {
  constructor(private readonly external: ExternalService) {}

  @Get('odyssey/customers')
  @Endpoint({
    summary: 'Customers with their devices and payment totals, for energy-access data platforms (Odyssey); X-API-Key',
    description: 'Ordered by customer id, limit 100 by default (at most 1000). total_paid counts completed payments.',
    query: ZOdysseyQuerySchema,
    response: ZOdysseyCustomersReplySchema,
    errors: { 401: 'Missing or wrong X-API-Key', 403: 'The organization is suspended or disabled' },
  })
  customers(@OrgId() orgId: string, @ValidQuery() query: OdysseyQuery) {
    return this.external.odysseyCustomers(orgId, query);
  }
}
