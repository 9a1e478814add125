import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  ZAdminIdParamSchema,
  ZAdminTokenLogListSchema,
  ZAdminTokenLogQuerySchema,
  ZFeatureFlagInputSchema,
  ZFeatureFlagListSchema,
  ZFeatureFlagSchema,
  ZMessageReplySchema,
  ZOemCredentialInputSchema,
  ZOemCredentialListSchema,
  ZOemCredentialSchema,
  ZOemCredentialUpdateSchema,
  ZAdminOrgFilterQuerySchema,
  ZOrgPlanInputSchema,
  ZOrgPlanListSchema,
  ZOrgPlanParamSchema,
  ZOrgPlanSchema,
  ZPaymentProviderInputSchema,
  ZPaymentProviderListSchema,
  ZPaymentProviderSchema,
  ZPaymentProviderUpdateSchema,
  ZPlanCodeParamSchema,
  ZPlanInputSchema,
  ZPlanListSchema,
  ZPlanSchema,
  ZPlanUpdateSchema,
  type AdminTokenLogQuery,
  type FeatureFlagInput,
  type OemCredentialInput,
  type OemCredentialUpdate,
  type OrgPlanInput,
  type PaymentProviderInput,
  type PaymentProviderUpdate,
  type PlanInput,
  type PlanUpdate,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery } from '../common/validation.js';
import { CurrentUser, Roles, type AuthUser } from '../common/tenancy.js';
import { PlatformService } from './platform.service.js';

type Id = { id: number };
type OrgFilter = z.infer<typeof ZAdminOrgFilterQuerySchema>;

@ApiTags('admin')
@Roles('super_admin')
@Controller('admin')
export class PlatformController {
  constructor(private readonly platform: PlatformService) {}

  @Get('metrics/token-logs')
  @Endpoint({ summary: 'Token generations of every organization, newest first', query: ZAdminTokenLogQuerySchema, response: ZAdminTokenLogListSchema })
  tokenLogs(@ValidQuery() query: AdminTokenLogQuery) {
    return this.platform.listTokenLogs(query);
  }

  // ---------------------------------------------------- payment providers

  @Get('payment-providers')
  @Endpoint({ summary: 'Payment and SMS providers (config masked)', query: ZAdminOrgFilterQuerySchema, response: ZPaymentProviderListSchema })
  providers(@ValidQuery() query: OrgFilter) {
    return this.platform.listProviders(query.organization_id);
  }

  @Get('payment-providers/:id')
  @Endpoint({ summary: 'One provider (config masked)', params: ZAdminIdParamSchema, response: ZPaymentProviderSchema })
  provider(@ValidParams() params: Id) {
    return this.platform.findProvider(params.id);
  }

  @Post('payment-providers')
  @Endpoint({ summary: 'Add a provider to an organization (config encrypted at rest)', body: ZPaymentProviderInputSchema, response: ZPaymentProviderSchema, status: 201, errors: { 404: 'Organization not found', 409: 'Already configured' } })
  createProvider(@CurrentUser() user: AuthUser, @ValidBody() body: PaymentProviderInput) {
    return this.platform.createProvider(user, body);
  }

  @Put('payment-providers/:id')
  @Endpoint({ summary: 'Change a provider (masked values sent back keep the stored secret)', params: ZAdminIdParamSchema, body: ZPaymentProviderUpdateSchema, response: ZPaymentProviderSchema })
  updateProvider(@CurrentUser() user: AuthUser, @ValidParams() params: Id, @ValidBody() body: PaymentProviderUpdate) {
    return this.platform.updateProvider(user, params.id, body);
  }

  @Delete('payment-providers/:id')
  @Endpoint({ summary: 'Remove a provider', params: ZAdminIdParamSchema, response: ZMessageReplySchema })
  removeProvider(@CurrentUser() user: AuthUser, @ValidParams() params: Id) {
    return this.platform.removeProvider(user, params.id);
  }

  // ---------------------------------------------------- OEM credentials

  @Get('oem-credentials')
  @Endpoint({ summary: 'OEM API credentials (masked)', query: ZAdminOrgFilterQuerySchema, response: ZOemCredentialListSchema })
  oemCredentials(@ValidQuery() query: OrgFilter) {
    return this.platform.listOemCredentials(query.organization_id);
  }

  @Get('oem-credentials/:id')
  @Endpoint({ summary: 'One set of OEM credentials (masked)', params: ZAdminIdParamSchema, response: ZOemCredentialSchema })
  oemCredential(@ValidParams() params: Id) {
    return this.platform.findOemCredential(params.id);
  }

  @Post('oem-credentials')
  @Endpoint({ summary: 'Add OEM credentials to an organization (encrypted at rest)', body: ZOemCredentialInputSchema, response: ZOemCredentialSchema, status: 201, errors: { 404: 'Organization not found', 409: 'Already configured' } })
  createOemCredential(@CurrentUser() user: AuthUser, @ValidBody() body: OemCredentialInput) {
    return this.platform.createOemCredential(user, body);
  }

  @Put('oem-credentials/:id')
  @Endpoint({ summary: 'Change OEM credentials (masked values sent back keep the stored secret)', params: ZAdminIdParamSchema, body: ZOemCredentialUpdateSchema, response: ZOemCredentialSchema })
  updateOemCredential(@CurrentUser() user: AuthUser, @ValidParams() params: Id, @ValidBody() body: OemCredentialUpdate) {
    return this.platform.updateOemCredential(user, params.id, body);
  }

  @Delete('oem-credentials/:id')
  @Endpoint({ summary: 'Remove OEM credentials', params: ZAdminIdParamSchema, response: ZMessageReplySchema })
  removeOemCredential(@CurrentUser() user: AuthUser, @ValidParams() params: Id) {
    return this.platform.removeOemCredential(user, params.id);
  }

  // ------------------------------------------------------------ plans

  @Get('plans')
  @Endpoint({ summary: 'Plans with the number of organizations on each', response: ZPlanListSchema })
  plans() {
    return this.platform.listPlans();
  }

  @Get('plans/:code')
  @Endpoint({ summary: 'One plan', params: ZPlanCodeParamSchema, response: ZPlanSchema })
  plan(@ValidParams() params: { code: string }) {
    return this.platform.findPlan(params.code);
  }

  @Post('plans')
  @Endpoint({ summary: 'Create a plan', body: ZPlanInputSchema, response: ZPlanSchema, status: 201, errors: { 409: 'Plan code taken' } })
  createPlan(@CurrentUser() user: AuthUser, @ValidBody() body: PlanInput) {
    return this.platform.createPlan(user, body);
  }

  @Put('plans/:code')
  @Endpoint({ summary: 'Change a plan', params: ZPlanCodeParamSchema, body: ZPlanUpdateSchema, response: ZPlanSchema })
  updatePlan(@CurrentUser() user: AuthUser, @ValidParams() params: { code: string }, @ValidBody() body: PlanUpdate) {
    return this.platform.updatePlan(user, params.code, body);
  }

  @Delete('plans/:code')
  @Endpoint({ summary: 'Delete a plan (refused while organizations are on it)', params: ZPlanCodeParamSchema, response: ZMessageReplySchema, errors: { 409: 'Still assigned' } })
  removePlan(@CurrentUser() user: AuthUser, @ValidParams() params: { code: string }) {
    return this.platform.removePlan(user, params.code);
  }

  @Get('org-plans')
  @Endpoint({ summary: 'Which organization is on which plan', query: ZAdminOrgFilterQuerySchema, response: ZOrgPlanListSchema })
  orgPlans(@ValidQuery() query: OrgFilter) {
    return this.platform.listOrgPlans(query.organization_id);
  }

  @Post('org-plans')
  @Endpoint({ summary: 'Put an organization on a plan (replaces its current plan)', body: ZOrgPlanInputSchema, response: ZOrgPlanSchema, status: 201, errors: { 404: 'Organization or plan not found' } })
  assignPlan(@CurrentUser() user: AuthUser, @ValidBody() body: OrgPlanInput) {
    return this.platform.assignPlan(user, body);
  }

  @Delete('org-plans/:organization_id')
  @Endpoint({ summary: 'Take an organization off its plan', params: ZOrgPlanParamSchema, response: ZMessageReplySchema })
  unassignPlan(@CurrentUser() user: AuthUser, @ValidParams() params: { organization_id: string }) {
    return this.platform.unassignPlan(user, params.organization_id);
  }

  // ---------------------------------------------------------- features

  @Get('features')
  @Endpoint({ summary: 'Feature flags (with organization_id: its flags and the global ones)', query: ZAdminOrgFilterQuerySchema, response: ZFeatureFlagListSchema })
  features(@ValidQuery() query: OrgFilter) {
    return this.platform.listFlags(query.organization_id);
  }

  @Post('features')
  @Endpoint({ summary: 'Set a feature flag for an organization, or globally with organization_id null', body: ZFeatureFlagInputSchema, response: ZFeatureFlagSchema, errors: { 404: 'Organization not found' } })
  setFeature(@CurrentUser() user: AuthUser, @ValidBody() body: FeatureFlagInput) {
    return this.platform.upsertFlag(user, body);
  }

  @Delete('features/:id')
  @Endpoint({ summary: 'Remove a feature flag', params: ZAdminIdParamSchema, response: ZMessageReplySchema })
  removeFeature(@CurrentUser() user: AuthUser, @ValidParams() params: Id) {
    return this.platform.removeFlag(user, params.id);
  }
}
