import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZAgreementSettingsInputSchema, ZAgreementSettingsSchema, type AgreementSettingsInput } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { AgreementService } from './agreement.service.js';

/** What the organization's PAYG agreement says of it (README "The agreement"): owners and admins. */
@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/agreement')
export class AgreementSettingsController {
  constructor(private readonly agreements: AgreementService) {}

  @Get()
  @Endpoint({
    summary: "The PAYG agreement's settings: the seller's details, the paybill or till number, the organization's own terms",
    response: ZAgreementSettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.agreements.settings(orgId);
  }

  @Put()
  @Endpoint({
    summary: "Set the PAYG agreement's settings",
    description:
      'seller_details (300 characters: address, phone, registration) is printed under the organization\'s name; paybill (5 to 10 ' +
      'digits) in the term on paying; extra_terms (4,000 characters) after the standard terms, each paragraph (a blank line apart) a ' +
      'numbered term. Fields left out keep their value; empty or null clears one. Audited (agreement.settings_updated).',
    body: ZAgreementSettingsInputSchema,
    response: ZAgreementSettingsSchema,
    errors: { 400: 'A field too long, or a paybill that is not 5 to 10 digits, named', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: AgreementSettingsInput) {
    return this.agreements.updateSettings(orgId, user, body);
  }
}
