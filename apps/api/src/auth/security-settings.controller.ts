import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZSecuritySettingsInputSchema, ZSecuritySettingsSchema, type SecuritySettingsInput } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { TwoFactorService } from './two-factor.service.js';

/** The organization's sign-in policy: whether every user must use two-factor sign-in (README "Two-factor sign-in"). */
@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/security')
export class SecuritySettingsController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get()
  @Endpoint({
    summary: 'Whether every user of the organization must use two-factor sign-in, and how many do not yet',
    response: ZSecuritySettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.twoFactor.securitySettings(orgId);
  }

  @Put()
  @Endpoint({
    summary: 'Require two-factor sign-in of every user of the organization, or stop requiring it',
    description:
      'While it is required, a user without it may only set it up: every other call answers 403 TWO_FACTOR_REQUIRED ' +
      '(GET /me says so: two_factor_setup_required). API tokens are not affected. Turning it on needs your own on.',
    body: ZSecuritySettingsInputSchema,
    response: ZSecuritySettingsSchema,
    errors: { 400: 'require_two_factor is not true or false', 403: 'Not an owner or admin', 409: 'Your own two-factor sign-in is off' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: SecuritySettingsInput) {
    return this.twoFactor.setRequired(orgId, user, body.require_two_factor);
  }
}
