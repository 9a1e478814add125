import { Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZOemListReplySchema,
  ZProductOemConfigInputSchema,
  ZProductOemConfigReplySchema,
  type ProductOemConfigInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { OemConfigService } from './oem-config.service.js';

@ApiTags('oem-config')
@Controller('config')
export class OemConfigController {
  constructor(private readonly oems: OemConfigService) {}

  @Post('product-oem/upsert')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Create or replace a device maker's token settings",
    description:
      'Devices whose product_oem matches get restricted-digit tokens (15 digits of 1-4; 20 when also extended), extended 12-digit tokens, ' +
      'and values of days × value_divider. Makers without settings get standard 9-digit tokens, divider 1.',
    body: ZProductOemConfigInputSchema,
    response: ZProductOemConfigReplySchema,
    errors: { 400: 'Invalid settings', 403: 'Not an owner or admin' },
  })
  upsert(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: ProductOemConfigInput) {
    return this.oems.upsert(orgId, user, body);
  }

  @Get('oems/list')
  @Endpoint({ summary: "The organization's device makers with token settings", response: ZOemListReplySchema })
  list(@OrgId() orgId: string) {
    return this.oems.list(orgId);
  }
}
