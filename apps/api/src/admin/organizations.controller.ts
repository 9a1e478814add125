import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  ZOrganizationActivityQuerySchema,
  ZAdminOrganizationSchema,
  ZCreateOrganizationSchema,
  ZDeleteOrganizationQuerySchema,
  ZDeleteOrganizationReplySchema,
  ZNotificationSchema,
  ZNotifySchema,
  ZAdminOrgParamsSchema,
  ZOrganizationActivitySchema,
  ZOrganizationDetailSchema,
  ZOrganizationListQuerySchema,
  ZOrganizationListSchema,
  ZOrganizationStatsSchema,
  ZOrganizationStatusChangeSchema,
  ZOrganizationStatusSchema,
  ZOrganizationStatusUpdateSchema,
  ZUpdateOrganizationSchema,
  type CreateOrganizationInput,
  type NotifyInput,
  type OrganizationListQuery,
  type OrganizationStatusUpdate,
  type UpdateOrganizationInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery } from '../common/validation.js';
import { CurrentUser, Roles, type AuthUser } from '../common/tenancy.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { OrganizationsService } from './organizations.service.js';

type IdParams = { id: string };

@ApiTags('admin')
@Roles('super_admin')
@Controller('admin/organizations')
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly notifications: NotificationsService,
  ) {}

  @Get()
  @Endpoint({ summary: 'Organizations with user count and last activity', query: ZOrganizationListQuerySchema, response: ZOrganizationListSchema })
  list(@ValidQuery() query: OrganizationListQuery) {
    return this.organizations.list(query);
  }

  @Post()
  @Endpoint({ summary: 'Create an organization', body: ZCreateOrganizationSchema, response: ZAdminOrganizationSchema, status: 201, errors: { 409: 'Organization id or external key taken' } })
  create(@CurrentUser() user: AuthUser, @ValidBody() body: CreateOrganizationInput) {
    return this.organizations.create(user, body);
  }

  @Get('stats')
  @Endpoint({ summary: 'Organization counts by status and the number of users', response: ZOrganizationStatsSchema })
  stats() {
    return this.organizations.summarize();
  }

  @Get(':id')
  @Endpoint({ summary: 'An organization with its counts and users', params: ZAdminOrgParamsSchema, response: ZOrganizationDetailSchema, errors: { 404: 'Organization not found' } })
  findOne(@ValidParams() params: IdParams) {
    return this.organizations.findOne(params.id);
  }

  @Put(':id')
  @Endpoint({ summary: "Change an organization's external key, app or name", params: ZAdminOrgParamsSchema, body: ZUpdateOrganizationSchema, response: ZAdminOrganizationSchema })
  update(@CurrentUser() user: AuthUser, @ValidParams() params: IdParams, @ValidBody() body: UpdateOrganizationInput) {
    return this.organizations.update(user, params.id, body);
  }

  @Delete(':id')
  @Endpoint({
    summary: 'Delete an organization (refused while it has data unless force=true)',
    params: ZAdminOrgParamsSchema,
    query: ZDeleteOrganizationQuerySchema,
    response: ZDeleteOrganizationReplySchema,
    errors: { 404: 'Organization not found', 409: 'It still has data (the detail says what), or it is your own' },
  })
  remove(@CurrentUser() user: AuthUser, @ValidParams() params: IdParams, @ValidQuery() query: z.infer<typeof ZDeleteOrganizationQuerySchema>) {
    return this.organizations.remove(user, params.id, query.force);
  }

  @Get(':id/activity')
  @Endpoint({ summary: "The organization's audit entries, newest first", params: ZAdminOrgParamsSchema, query: ZOrganizationActivityQuerySchema, response: ZOrganizationActivitySchema })
  activity(@ValidParams() params: IdParams, @ValidQuery() query: z.infer<typeof ZOrganizationActivityQuerySchema>) {
    return this.organizations.listActivity(params.id, query.limit);
  }

  @Get(':id/status')
  @Endpoint({ summary: "An organization's status", params: ZAdminOrgParamsSchema, response: ZOrganizationStatusSchema })
  status(@ValidParams() params: IdParams) {
    return this.organizations.getStatus(params.id);
  }

  @Put(':id/status')
  @Endpoint({
    summary: 'Activate, suspend or disable an organization (applies from its next request)',
    params: ZAdminOrgParamsSchema,
    body: ZOrganizationStatusUpdateSchema,
    response: ZOrganizationStatusChangeSchema,
  })
  changeStatus(@CurrentUser() user: AuthUser, @ValidParams() params: IdParams, @ValidBody() body: OrganizationStatusUpdate) {
    return this.organizations.changeStatus(user, params.id, body);
  }

  @Post(':id/notify')
  @Endpoint({ summary: "Send a notification to the organization's users", params: ZAdminOrgParamsSchema, body: ZNotifySchema, response: ZNotificationSchema, status: 201 })
  notify(@CurrentUser() user: AuthUser, @ValidParams() params: IdParams, @ValidBody() body: NotifyInput) {
    return this.notifications.notify(user, params.id, body);
  }
}
