import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZMessageDebugReplySchema, ZMessageListReplySchema, ZMessagesQuerySchema, ZMessageStatsSchema, type MessagesQuery } from '@kidogo/contracts';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { OrgId, Roles } from '../common/tenancy.js';
import { MessagesService } from './messages.service.js';

@ApiTags('messages')
@Controller()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

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
