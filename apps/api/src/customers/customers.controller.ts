import { Controller, Delete, Get, Post, Put, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { HttpReply, HttpRequest } from '../common/http.js';
import {
  ZCsvImportReportSchema,
  ZCustomerInputSchema,
  ZCustomerInsightsSchema,
  ZCustomerItemsReplySchema,
  ZCustomerListQuerySchema,
  ZCustomerListReplySchema,
  ZCustomerPaymentsQuerySchema,
  ZCustomerPaymentsReplySchema,
  ZCustomerSchema,
  ZCustomerStatusReplySchema,
  ZCustomerUpdateSchema,
  ZFetchCustomerSchema,
  ZMessageReplySchema,
  ZSmsOptOutReplySchema,
  type CustomerInputParsed,
  type CustomerUpdateParsed,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Reads, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CsvUploadInterceptor, requireUpload } from '../catalog/csv-upload.js';
import { CustomersService } from './customers.service.js';
import { CUSTOMER_UPLOAD_FIELD, CustomersCsvService } from './customers-csv.service.js';

const ZIdParams = zPathId('id');
type IdParams = z.output<typeof ZIdParams>;

const NOT_FOUND = { 404: 'No such customer in your organization' };

@ApiTags('customers')
@Controller()
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly csv: CustomersCsvService,
  ) {}

  @Get('registered-customers')
  @Endpoint({
    summary: 'List customers, newest first, with an optional case-insensitive partial search on one field',
    query: ZCustomerListQuerySchema,
    response: ZCustomerListReplySchema,
    errors: { 400: 'A bad limit, offset or search_field' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZCustomerListQuerySchema>) {
    return this.customers.list(orgId, q);
  }

  @Post('register-customer')
  @Endpoint({
    summary: 'Register a customer',
    body: ZCustomerInputSchema,
    response: ZCustomerSchema,
    status: 201,
    errors: { 400: 'A field is missing or invalid (each one named)', 409: 'A customer with this ID number already exists' },
  })
  register(@OrgId() orgId: string, @ValidBody() body: CustomerInputParsed, @CurrentUser() user: AuthUser) {
    return this.customers.register(orgId, body, user);
  }

  @Post('add-customer')
  @Endpoint({
    summary: 'Add a customer (the same as register-customer)',
    body: ZCustomerInputSchema,
    response: ZCustomerSchema,
    status: 201,
    errors: { 400: 'A field is missing or invalid (each one named)', 409: 'A customer with this ID number already exists' },
  })
  add(@OrgId() orgId: string, @ValidBody() body: CustomerInputParsed, @CurrentUser() user: AuthUser) {
    return this.customers.register(orgId, body, user);
  }

  @Post('fetch-customer')
  @Reads()
  @Endpoint({
    summary: 'Find one customer by customer_id, id_number or phone_contact',
    body: ZFetchCustomerSchema,
    response: ZCustomerSchema,
    errors: { 400: 'None of the three given', ...NOT_FOUND },
  })
  fetch(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZFetchCustomerSchema>) {
    return this.customers.fetch(orgId, body);
  }

  @Get('customers/insights')
  @Endpoint({ summary: 'Customer counts: by status, new this week and month, with and without devices, top counties', response: ZCustomerInsightsSchema })
  insights(@OrgId() orgId: string) {
    return this.customers.insights(orgId);
  }

  @Get('customers/:id')
  @Endpoint({ summary: 'One customer', params: ZIdParams, response: ZCustomerSchema, errors: NOT_FOUND })
  findOne(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    return this.customers.findOne(orgId, p.id);
  }

  @Put('customers/:id')
  @Endpoint({
    summary: 'Change any of the customer fields (only those sent)',
    params: ZIdParams,
    body: ZCustomerUpdateSchema,
    response: ZCustomerSchema,
    errors: { 400: 'A field is invalid (each one named)', ...NOT_FOUND, 409: 'Another customer has this ID number' },
  })
  update(@OrgId() orgId: string, @ValidParams() p: IdParams, @ValidBody() body: CustomerUpdateParsed, @CurrentUser() user: AuthUser) {
    return this.customers.update(orgId, p.id, body, user);
  }

  @Delete('customers/:id')
  @Endpoint({
    summary: 'Delete a customer who has no devices, payments or tokens',
    params: ZIdParams,
    response: ZMessageReplySchema,
    errors: { ...NOT_FOUND, 409: 'The customer has devices, payments or tokens (the detail says how many)' },
  })
  remove(@OrgId() orgId: string, @ValidParams() p: IdParams, @CurrentUser() user: AuthUser) {
    return this.customers.remove(orgId, p.id, user);
  }

  @Post('customers/:id/sms-opt-out')
  @Endpoint({
    summary: 'The customer asked for no texts: no payment reminders, texts from staff or texts to a Collections band',
    description:
      'What the customer does by texting STOP to the business line. Payment codes and balance replies still go. ' +
      'Answers the customer as it now is; nothing changes when they had already opted out.',
    params: ZIdParams,
    response: ZSmsOptOutReplySchema,
    errors: NOT_FOUND,
  })
  smsOptOut(@OrgId() orgId: string, @ValidParams() p: IdParams, @CurrentUser() user: AuthUser) {
    return this.customers.setSmsOptOut(orgId, p.id, true, user);
  }

  @Delete('customers/:id/sms-opt-out')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'The customer takes texts again (owners and admins, when the customer asks)',
    description: 'What the customer does by texting START. Nothing changes when they had not opted out.',
    params: ZIdParams,
    response: ZSmsOptOutReplySchema,
    errors: { 403: 'Only owners and admins let texts through again', ...NOT_FOUND },
  })
  smsOptIn(@OrgId() orgId: string, @ValidParams() p: IdParams, @CurrentUser() user: AuthUser) {
    return this.customers.setSmsOptOut(orgId, p.id, false, user);
  }

  @Get('customers/:id/items')
  @Endpoint({ summary: "The customer's devices", params: ZIdParams, response: ZCustomerItemsReplySchema, errors: NOT_FOUND })
  items(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    return this.customers.items(orgId, p.id);
  }

  @Get('customers/:id/payments')
  @Endpoint({
    summary: "The customer's payments, newest first",
    params: ZIdParams,
    query: ZCustomerPaymentsQuerySchema,
    response: ZCustomerPaymentsReplySchema,
    errors: NOT_FOUND,
  })
  payments(@OrgId() orgId: string, @ValidParams() p: IdParams, @ValidQuery() q: z.output<typeof ZCustomerPaymentsQuerySchema>) {
    return this.customers.payments(orgId, p.id, q);
  }

  @Get('customers/:id/status')
  @Endpoint({
    summary: 'Customer status: devices with days of credit left, total paid and the balance left to pay off',
    params: ZIdParams,
    response: ZCustomerStatusReplySchema,
    errors: NOT_FOUND,
  })
  status(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    return this.customers.status(orgId, p.id);
  }

  @Get('payments/customer/:id/history')
  @Endpoint({
    summary: "The customer's payment history, newest first",
    params: ZIdParams,
    query: ZCustomerPaymentsQuerySchema,
    response: ZCustomerPaymentsReplySchema,
    errors: NOT_FOUND,
  })
  history(@OrgId() orgId: string, @ValidParams() p: IdParams, @ValidQuery() q: z.output<typeof ZCustomerPaymentsQuerySchema>) {
    return this.customers.payments(orgId, p.id, q);
  }

  @Post('upload-csv')
  @UseInterceptors(CsvUploadInterceptor(CUSTOMER_UPLOAD_FIELD))
  @Endpoint({
    summary: 'Import customers from a CSV file (header = customer field names)',
    description:
      'Columns customer_name, id_number and phone_contact are required; the other customer fields are optional; ' +
      'unknown columns are ignored. Each row is validated like register-customer. Customers whose ID number ' +
      'already exists are skipped, so uploading the same file twice imports nothing the second time.',
    files: [CUSTOMER_UPLOAD_FIELD],
    response: ZCsvImportReportSchema,
    errors: { 400: 'Not a CSV file, empty, or a required column is missing: nothing imported', 413: 'The file is above the upload limit' },
  })
  upload(@OrgId() orgId: string, @Req() req: HttpRequest, @CurrentUser() user: AuthUser) {
    return this.csv.import(orgId, requireUpload(req, CUSTOMER_UPLOAD_FIELD), user);
  }

  @Get('export-customers-csv')
  @Endpoint({ summary: 'Every customer as a CSV file (customers.csv), which upload-csv reads back', produces: 'text/csv' })
  export(@OrgId() orgId: string, @Res() reply: HttpReply, @CurrentUser() user: AuthUser) {
    return this.csv.export(orgId, reply, user);
  }
}
