import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZDeviceSwapsQuerySchema, ZDeviceSwapsReplySchema } from '@kidogo/contracts';
import type { z } from 'zod';
import { OrgId } from '../common/tenancy.js';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { SwapService } from './swap.service.js';

@ApiTags('items')
@Controller()
export class SwapsController {
  constructor(private readonly swaps: SwapService) {}

  @Get('device-swaps')
  @Endpoint({
    summary: 'Device swaps, newest first: all, one device\'s (either side, serial_number) or one customer\'s (customer_id)',
    query: ZDeviceSwapsQuerySchema,
    response: ZDeviceSwapsReplySchema,
    errors: { 400: 'A bad page, limit, serial_number or customer_id' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZDeviceSwapsQuerySchema>) {
    return this.swaps.list(orgId, q);
  }
}
