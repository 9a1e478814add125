import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { ZDeviceDiscountListSchema } from '@kidogo/contracts';
import { Endpoint, ValidParams, zPathId } from '../common/validation.js';
import { OrgId } from '../common/tenancy.js';
import { DiscountService } from './discount.service.js';

const ZIdParams = zPathId('id');

/** A customer's discounts, across their devices (README "Discounts"): the customer's page lists them. */
@ApiTags('customers')
@Controller()
export class CustomerDiscountsController {
  constructor(private readonly discounts: DiscountService) {}

  @Get('customers/:id/discounts')
  @Endpoint({
    summary: "The customer's discounts across their devices, newest first, with the total on the accounts they hold now",
    params: ZIdParams,
    response: ZDeviceDiscountListSchema,
    errors: { 404: 'No such customer in your organization' },
  })
  list(@OrgId() orgId: string, @ValidParams() p: z.output<typeof ZIdParams>) {
    return this.discounts.listByCustomer(orgId, p.id);
  }
}
