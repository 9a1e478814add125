import { Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZCustomerSmsReplySchema,
  ZCustomerSmsSchema,
  ZMessageDebugReplySchema,
  ZMessageListReplySchema,
  ZMessagesQuerySchema,
  ZMessageStatsSchema,
  type CustomerSmsInput,
  type MessagesQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { CustomerSmsService } from './customer-sms.service.js';
import { MessagesService } from './messages.service.js';

const CustomerIdParams = zPathId('id');

@ApiTags('messages')
@Controller()
export class MessagesController {
  constructor(
    private readonly messages: MessagesService,
    private readonly sms: CustomerSmsService,
  ) {}

  @Post('customers/:id/sms')
  @Endpoint({
    summary: 'Text a customer: an SMS from staff, queued and sent through the organization’s SMS provider',
    description:
      'At most 3 SMS (459 characters in the GSM alphabet, 201 with emoji or other characters outside it). serial_number, one of the ' +
      "customer's devices, shows the message in that device's history too. It is listed in Message History with sent_by, and audited.",
    params: CustomerIdParams,
    body: ZCustomerSmsSchema,
    response: ZCustomerSmsReplySchema,
    status: 201,
    errors: {
      400: 'Empty or too long text, or a device that is not the customer’s, named',
      404: 'Customer or device not found',
      409: 'The customer has no phone number, or no SMS provider is set up',
    },
  })
  sendSms(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() params: { id: number },
    @ValidBody() body: CustomerSmsInput,
  ) {
    return this.sms.send(orgId, user, params.id, body);
  }

  @Get('fetch_messages')
  @Endpoint({
    summary: 'Message history: incoming payment notices with the reply sent, newest first',
    description: 'page_size is 10, 20, 50 or 100 (default 20); search looks in both texts and the phone numbers.',
    query: ZMessagesQuerySchema,
    response: ZMessageListReplySchema,
    errors: { 400: 'page or page_size out of range' },
  })
  list(@OrgId() orgId: string, @ValidQuery() query: MessagesQuery) {
    return this.messages.list(orgId, query);
  }

  @Get('messages/stats')
  @Endpoint({ summary: 'Counts of incoming messages by outcome, money received and the outbox state', response: ZMessageStatsSchema })
  stats(@OrgId() orgId: string) {
    return this.messages.stats(orgId);
  }

  @Get('messages/debug')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'The last 50 raw gateway payloads with their parse results (to set up a forwarder)',
    response: ZMessageDebugReplySchema,
    errors: { 403: 'Not an owner or admin' },
  })
  debug(@OrgId() orgId: string) {
    return this.messages.debug(orgId);
  }
}
