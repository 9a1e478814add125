import { Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZGenerateTokenByDaysSchema,
  ZGenerateTokenSchema,
  ZTokenLogListSchema,
  ZTokenLogQuerySchema,
  ZTokenReplySchema,
  ZUpdateTokenCountReplySchema,
  ZUpdateTokenCountSchema,
  type GenerateTokenByDaysInput,
  type GenerateTokenInput,
  type TokenLogQuery,
  type UpdateTokenCountInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidQuery } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { TokensService } from './tokens.service.js';

const BLOCKED = 'The organization is suspended or disabled (SERVICE_SUSPENDED / SERVICE_DISABLED)';

@ApiTags('tokens')
@Controller()
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post('generate-token-by-days')
  @Endpoint({
    summary: 'Generate an add-time token for a number of days (activation when it is the first token since the device was assigned)',
    description:
      'The device count advances atomically: concurrent requests for one device get consecutive counts and no count is issued twice. ' +
      'A device need not be assigned. Tokens follow the device maker\'s settings (POST /config/product-oem/upsert).',
    body: ZGenerateTokenByDaysSchema,
    response: ZTokenReplySchema,
    errors: { 400: 'number_of_days is not a whole number from 1 to 995', 403: BLOCKED, 404: 'Device not found', 409: 'The device is retired' },
  })
  generateByDays(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: GenerateTokenByDaysInput) {
    return this.tokens.generateByDays(orgId, user, body);
  }

  @Post('generate-token')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Generate a token of a given type (add_time, set_time, unlock, counter_sync) for support and repossession cases',
    description:
      'value is the number of days, required for add_time (1..995) and set_time (0..995; 0 locks the device). A set_time, unlock or counter_sync token closes every older count on the device (OpenPAYGO): the older tokens are marked expired (is_valid false), as are add_time tokens 16 counts below the newest.',
    body: ZGenerateTokenSchema,
    response: ZTokenReplySchema,
    errors: { 400: 'Invalid type or value', 403: `Not an owner or admin; or ${BLOCKED}`, 404: 'Device not found', 409: 'The device is retired' },
  })
  generate(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: GenerateTokenInput) {
    return this.tokens.generate(orgId, user, body);
  }

  @Post('update-token-count')
  @Endpoint({
    summary: "Set a device's token count (the count of the last token it accepted); the next token uses the next count of its type's parity",
    description:
      'Recorded in the audit log with the old and new count, who changed it and the reason given. Tokens the device can no longer take at the new count are marked expired (is_valid false).',
    body: ZUpdateTokenCountSchema,
    response: ZUpdateTokenCountReplySchema,
    errors: { 400: 'new_token_count is not a whole number ≥ 0', 404: 'Device not found', 409: 'Tokens with higher counts were already issued' },
  })
  updateCount(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: UpdateTokenCountInput) {
    return this.tokens.updateCount(orgId, user, body);
  }

  @Get('metrics/token-generation-logs')
  @Endpoint({
    summary: 'Generated tokens, newest first; search over serial number, customer name, token value and type',
    query: ZTokenLogQuerySchema,
    response: ZTokenLogListSchema,
  })
  logs(@OrgId() orgId: string, @ValidQuery() query: TokenLogQuery) {
    return this.tokens.listLogs(orgId, query);
  }
}
