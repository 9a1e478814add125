import { Controller, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZApiKeyReplySchema, ZSmsProviderInputSchema, ZSmsProviderSchema, type SmsProviderInput } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { ApiKeyService } from './api-key.service.js';
import { SmsProviderService } from './sms-provider.service.js';

@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings')
export class SettingsController {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly sms: SmsProviderService,
  ) {}

  @Get('api-key')
  @Endpoint({
    summary: "The organization's API key for the payment receiver and the Odyssey export (header X-API-Key); created on first read",
    response: ZApiKeyReplySchema,
    errors: { 403: 'Not an owner or admin' },
  })
  readKey(@OrgId() orgId: string, @CurrentUser() user: AuthUser) {
    return this.apiKeys.read(orgId, user);
  }

  @Post('api-key/rotate')
  @Endpoint({ summary: 'Replace the API key; the old key stops working at once', response: ZApiKeyReplySchema, errors: { 403: 'Not an owner or admin' } })
  rotateKey(@OrgId() orgId: string, @CurrentUser() user: AuthUser) {
    return this.apiKeys.rotate(orgId, user);
  }

  @Get('sms-provider')
  @Endpoint({ summary: 'How outgoing SMS (token replies) are delivered for this organization; secrets masked', response: ZSmsProviderSchema })
  readSms(@OrgId() orgId: string) {
    return this.sms.read(orgId);
  }

  @Put('sms-provider')
  @Endpoint({
    summary: 'Set the SMS provider: none, africastalking {username, api_key, sender_id?, base_url?} or sms_webhook {url, secret?}; and reply_language (en, sw, fr)',
    description:
      'reply_language is the language of the token replies to customers, English (en), Kiswahili (sw) or French (fr); left out, it stays. ' +
      'Secrets left out, or sent back masked as GET returned them, keep their stored value. The webhook receives POST ' +
      '{to, message, message_id, organization_id} with X-Kidogo-Signature = hex HMAC-SHA256 of the body with the secret.',
    body: ZSmsProviderInputSchema,
    response: ZSmsProviderSchema,
    errors: { 400: 'Invalid provider or config', 403: 'Not an owner or admin' },
  })
  updateSms(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: SmsProviderInput) {
    return this.sms.update(orgId, user, body);
  }
}
