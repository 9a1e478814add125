import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZPhoneCountryInputSchema, ZPhoneCountrySchema, ZPhoneCountryUpdateSchema, type PhoneCountryInput } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { PhoneCountryService } from './phone-country.service.js';

@ApiTags('settings')
@Controller('settings/phone-country')
export class PhoneCountryController {
  constructor(private readonly phoneCountry: PhoneCountryService) {}

  @Get()
  @Endpoint({
    summary: "The organization's phone country: numbers written without a country code (0712 345 678) are read as its numbers",
    response: ZPhoneCountrySchema,
  })
  read(@OrgId() orgId: string) {
    return this.phoneCountry.read(orgId);
  }

  @Put()
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Set the organization's phone country by its calling code (254 Kenya, 256 Uganda, 255 Tanzania, ...)",
    description:
      'A customer number written without a country code is read as a number of this country: to find the customer of a ' +
      "payment or a text from their phone, to search by phone and to text them. A change reads every customer's number " +
      'again in the same transaction (customers_updated: how many now read differently); customers registered, edited or ' +
      'imported meanwhile wait for it. Audited (organization.phone_country).',
    body: ZPhoneCountryInputSchema,
    response: ZPhoneCountryUpdateSchema,
    errors: { 400: 'phone_country_code is not the calling code of a country offered', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: PhoneCountryInput) {
    return this.phoneCountry.update(orgId, user, body);
  }
}
