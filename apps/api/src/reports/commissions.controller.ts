import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZCommissionSettingsInputSchema, ZCommissionSettingsSchema, type CommissionSettingsInput } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { CommissionsService } from './commissions.service.js';

@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/commissions')
export class CommissionsController {
  constructor(private readonly commissions: CommissionsService) {}

  @Get()
  @Endpoint({
    summary: "Agent commissions: the amount per device given and the percentage of payments collected, with an example",
    response: ZCommissionSettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.commissions.read(orgId);
  }

  @Put()
  @Endpoint({
    summary: 'Set agent commissions: per_device (0-1,000,000) and percent (0-100), each with at most 2 decimals',
    description:
      "The Agent report reckons each agent's commission for its period with them: per_device for each device given to one of " +
      "the agent's customers, plus percent of the successful payments of the agent's customers, rounded to cents. Both 0: no " +
      'commission. Fields left out keep their value.',
    body: ZCommissionSettingsInputSchema,
    response: ZCommissionSettingsSchema,
    errors: { 400: 'A field out of range, named', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: CommissionSettingsInput) {
    return this.commissions.update(orgId, user, body);
  }
}
