import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  ZAgreementQuerySchema,
  ZCustomerPaymentDetailsSchema,
  ZDeviceActivityParamsSchema,
  ZDeviceActivityQuerySchema,
  ZDeviceActivitySchema,
  ZPaymentDetailsQuerySchema,
  ZStatementQuerySchema,
  type AgreementQuery,
  type DeviceActivityQuery,
  type StatementQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { OrgId } from '../common/tenancy.js';
import { streamReply, type HttpReply } from '../common/http.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { ActivityService } from './activity.service.js';
import { StatementService } from './statement.service.js';
import { AgreementService } from './agreement.service.js';

const CustomerIdParams = zPathId('id');

@ApiTags('activity')
@Controller()
export class ActivityController {
  constructor(
    private readonly activity: ActivityService,
    private readonly statements: StatementService,
    private readonly agreements: AgreementService,
    private readonly calendar: Calendar,
  ) {}

  @Get('customers/:id/statement')
  @Header('Cache-Control', 'no-store')
  @Endpoint({
    summary: "A customer's statement of account as a PDF download (statement-{id}-YYYY-MM-DD.pdf)",
    description:
      'Their devices with each one\'s plan, paid and left to pay; the successful payments and the tokens of the period (from/to: business days of TIME_ZONE, both included; absent ends are open), with the total paid.',
    params: CustomerIdParams,
    query: ZStatementQuerySchema,
    produces: 'application/pdf',
    errors: { 400: 'A bad from or to', 404: 'Customer not found' },
  })
  async statement(@OrgId() orgId: string, @ValidParams() p: { id: number }, @ValidQuery() q: StatementQuery, @Res() reply: HttpReply): Promise<void> {
    const statement = await this.statements.read(orgId, p.id, q);
    const filename = `statement-${p.id}-${isoDayOf(this.calendar.today())}.pdf`;
    await this.statements.writePdf(streamReply(reply, 'application/pdf', filename), statement);
  }

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

  @Get('devices/:serial/agreement')
  @Header('Cache-Control', 'no-store')
  @Endpoint({
    summary: 'The PAYG agreement of a device and its customer, as a PDF to print and sign (agreement-{serial}.pdf)',
    description:
      "The seller, the customer (name, ID number, phone, address, sales agent), the device, the plan's terms as the payment rules " +
      'apply them (the price to own it, the deposit and activation before it first works, the daily rate, the free days with the ' +
      'first code, about how long it takes) and the terms of a PAYG sale, with places to sign; each page has a place for the ' +
      "customer's initials. In language en, sw or fr, by default the customer's.",
    params: ZDeviceActivityParamsSchema,
    query: ZAgreementQuerySchema,
    produces: 'application/pdf',
    errors: {
      400: 'A bad language',
      404: 'Device not found',
      409: "The device has no customer or no plan, its plan and the device have no price, or its customer's personal data was erased",
    },
  })
  async agreement(@OrgId() orgId: string, @ValidParams() p: { serial: string }, @ValidQuery() q: AgreementQuery, @Res() reply: HttpReply): Promise<void> {
    const agreement = await this.agreements.read(orgId, p.serial, q);
    const filename = `agreement-${p.serial.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
    await this.agreements.writePdf(streamReply(reply, 'application/pdf', filename), agreement);
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
