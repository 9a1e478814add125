import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZConfigCredentialsListSchema,
  ZConfigCredentialsSchema,
  ZConfigCredentialsUpsertSchema,
  ZConfigEntryListSchema,
  ZConfigEntrySchema,
  ZCreateConfigEntrySchema,
  ZMessageReplySchema,
  ZConfigCredentialsParamsSchema,
  ZUpdateConfigEntrySchema,
  type ConfigCredentialsUpsertInput,
  type CreateConfigEntryInput,
  type UpdateConfigEntryInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, zPathId } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Errors } from '../common/errors.js';
import { PlatformService } from '../admin/platform.service.js';
import { ConfigEntriesService } from './config-entries.service.js';

const ConfigIdParams = zPathId('id');

/**
 * Organization settings. Anyone in the organization reads them; changing
 * them, and anything to do with credentials, needs an owner, admin or super admin.
 */
@ApiTags('config')
@Controller('config')
export class ConfigEntriesController {
  constructor(
    private readonly entries: ConfigEntriesService,
    private readonly platform: PlatformService,
  ) {}

  @Get()
  @Endpoint({ summary: "The organization's config entries", response: ZConfigEntryListSchema })
  list(@OrgId() orgId: string) {
    return this.entries.list(orgId);
  }

  @Post('create')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({ summary: 'Create a config entry', body: ZCreateConfigEntrySchema, response: ZConfigEntrySchema, status: 201, errors: { 409: 'Key taken' } })
  create(@CurrentUser() user: AuthUser, @OrgId() orgId: string, @ValidBody() body: CreateConfigEntryInput) {
    return this.entries.create(user, orgId, body);
  }

  @Post('credentials/upsert')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: "Save an organization's OEM credentials (encrypted at rest; others than super admins only for their own organization)",
    body: ZConfigCredentialsUpsertSchema,
    response: ZConfigCredentialsSchema,
    errors: { 403: 'Another organization', 404: 'Organization not found' },
  })
  async upsertCredentials(@CurrentUser() user: AuthUser, @ValidBody() body: ConfigCredentialsUpsertInput) {
    if (user.role !== 'super_admin' && body.organization_id !== user.organization_id) {
      throw Errors.forbidden("You can only save your own organization's credentials");
    }
    const saved = await this.platform.upsertOemCredential(user, body);
    return { id: saved.id, organization_id: saved.organization_id, oem_name: saved.oem_name, credentials: saved.credentials, updated_at: saved.updated_at };
  }

  @Get('credentials/:organizationId')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({ summary: "An organization's OEM credentials, masked", params: ZConfigCredentialsParamsSchema, response: ZConfigCredentialsListSchema, errors: { 403: 'Another organization' } })
  async credentials(@CurrentUser() user: AuthUser, @ValidParams() params: { organizationId: string }) {
    if (user.role !== 'super_admin' && params.organizationId !== user.organization_id) {
      throw Errors.forbidden("You can only read your own organization's credentials");
    }
    const { data } = await this.platform.listOemCredentials(params.organizationId);
    return { data: data.map((c) => ({ id: c.id, organization_id: c.organization_id, oem_name: c.oem_name, credentials: c.credentials, updated_at: c.updated_at })) };
  }

  @Get(':id')
  @Endpoint({ summary: 'One config entry', params: ConfigIdParams, response: ZConfigEntrySchema, errors: { 404: 'Not found' } })
  findOne(@OrgId() orgId: string, @ValidParams() params: { id: number }) {
    return this.entries.findOne(orgId, params.id);
  }

  @Put(':id')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({ summary: 'Change a config entry', params: ConfigIdParams, body: ZUpdateConfigEntrySchema, response: ZConfigEntrySchema, errors: { 404: 'Not found', 409: 'Key taken' } })
  update(@CurrentUser() user: AuthUser, @OrgId() orgId: string, @ValidParams() params: { id: number }, @ValidBody() body: UpdateConfigEntryInput) {
    return this.entries.update(user, orgId, params.id, body);
  }

  @Delete(':id')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({ summary: 'Delete a config entry', params: ConfigIdParams, response: ZMessageReplySchema, errors: { 404: 'Not found' } })
  remove(@CurrentUser() user: AuthUser, @OrgId() orgId: string, @ValidParams() params: { id: number }) {
    return this.entries.remove(user, orgId, params.id);
  }
}
