import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZCreditCheckSchema,
  ZFollowOnSettingsInputSchema,
  ZFollowOnSettingsSchema,
  type FollowOnSettingsInput,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, zPathId } from '../common/validation.js';
import { CreditCheckService } from './credit-check.service.js';

const ZIdParams = zPathId('id');

@ApiTags('customers')
@Controller()
export class CreditCheckController {
  constructor(private readonly credit: CreditCheckService) {}

  @Get('customers/:id/credit-check')
  @Endpoint({
    summary: 'Whether the customer may be given another device on credit under the follow-on sales rule, and why',
    description:
      "The customer's repayment standing over the devices they hold now (as in payment details), the devices ever repossessed " +
      "from them, the organization's rule, and the reasons it refuses them. POST /items/assign and POST /onboarding check the " +
      'same when a device starts a new account for the customer.',
    params: ZIdParams,
    response: ZCreditCheckSchema,
    errors: { 404: 'No such customer in your organization' },
  })
  check(@OrgId() orgId: string, @ValidParams() p: z.output<typeof ZIdParams>) {
    return this.credit.check(orgId, p.id);
  }

  @Get('settings/follow-on-sales')
  @Endpoint({
    summary: 'The follow-on sales rule: who may be given another device on credit',
    response: ZFollowOnSettingsSchema,
  })
  settings(@OrgId() orgId: string) {
    return this.credit.settings(orgId);
  }

  @Put('settings/follow-on-sales')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Set the follow-on sales rule: rule (any, behind, on_track) and refuse_repossessed',
    description:
      'rule: any gives devices to every customer; behind refuses customers Far behind on their repayment; on_track gives them ' +
      'only to customers On track or Paid off. refuse_repossessed: no device to a customer a device was repossessed from. ' +
      'A customer holding no device on a plan passes the rule. Fields left out keep their value.',
    body: ZFollowOnSettingsInputSchema,
    response: ZFollowOnSettingsSchema,
    errors: { 400: 'A field is invalid, named', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: FollowOnSettingsInput) {
    return this.credit.update(orgId, user, body);
  }
}
