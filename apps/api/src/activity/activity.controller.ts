import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  ZCustomerPaymentDetailsSchema,
  ZDeviceActivityParamsSchema,
  ZDeviceActivityQuerySchema,
  ZDeviceActivitySchema,
  ZPaymentDetailsQuerySchema,
  type DeviceActivityQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { OrgId } from '../common/tenancy.js';
import { ActivityService } from './activity.service.js';

const CustomerIdParams = zPathId('id');

@ApiTags('activity')
@Controller()
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get('devices/:serial/activity')
  @Endpoint({
    summary: "A device's information with one page of its token, payment and message histories",
    params: ZDeviceActivityParamsSchema,
    query: ZDeviceActivityQuerySchema,
    response: ZDeviceActivitySchema,
    errors: { 404: 'Device not found' },
  })
  device(@OrgId() orgId: string, @ValidParams() params: { serial: string }, @ValidQuery() query: DeviceActivityQuery) {
    return this.activity.describeDevice(orgId, params.serial, query);
  }

  @Get('customers/:id/payment-details')
  @Endpoint({
    summary: "A customer's payment template, progress towards the free code and payment history",
    params: CustomerIdParams,
    query: ZPaymentDetailsQuerySchema,
    response: ZCustomerPaymentDetailsSchema,
    errors: { 404: 'Customer not found' },
  })
  customer(@OrgId() orgId: string, @ValidParams() params: { id: number }, @ValidQuery() query: z.infer<typeof ZPaymentDetailsQuerySchema>) {
    return this.activity.describeCustomerPayments(orgId, params.id, query.limit);
  }
}
