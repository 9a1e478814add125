import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZWarrantySettingsInputSchema, ZWarrantySettingsSchema, type WarrantySettingsInput } from '@kidogo/contracts';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody } from '../common/validation.js';
import { WarrantiesService } from './warranties.service.js';

@ApiTags('settings')
@Controller()
export class WarrantiesController {
  constructor(private readonly warranties: WarrantiesService) {}

  @Get('settings/warranties')
  @Endpoint({
    summary: "The products' warranties: months from the day a device's account began",
    description:
      'Each product with a warranty and how many of the organization’s devices have its name, and the other product names of ' +
      'its devices (to choose from). A device’s page and a device swap say whether it is in warranty.',
    response: ZWarrantySettingsSchema,
  })
  read(@OrgId() orgId: string) {
    return this.warranties.read(orgId);
  }

  @Put('settings/warranties')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Set the products' warranties: the whole list of {product_name, months}",
    description:
      'Replaces the list (an empty list sets none). A product is matched by its name whatever the case, so each name may be ' +
      'in the list once; months from 1 to 120.',
    body: ZWarrantySettingsInputSchema,
    response: ZWarrantySettingsSchema,
    errors: { 400: 'A field is invalid, named (warranties.N.product_name, warranties.N.months)', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: WarrantySettingsInput) {
    return this.warranties.update(orgId, user, body);
  }
}
