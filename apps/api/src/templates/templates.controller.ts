import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZMessageReplySchema,
  ZPaymentTemplateSchema,
  ZTemplateAssignmentEndReplySchema,
  ZTemplateAssignmentsQuerySchema,
  ZTemplateAssignmentsReplySchema,
  ZTemplateAssignReplySchema,
  ZTemplateAssignSchema,
  ZTemplateInputSchema,
  ZTemplateListQuerySchema,
  ZTemplateListReplySchema,
  ZTemplatePerformanceListReplySchema,
  ZTemplatePerformanceReplySchema,
  ZTemplateSummarySchema,
  ZTemplateUpdateSchema,
  ZTemplateUsageReplySchema,
  type TemplateAssignParsed,
  type TemplateInputParsed,
  type TemplateUpdateParsed,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { TemplatesService } from './templates.service.js';

const ZIdParams = zPathId('id');
type IdParams = z.output<typeof ZIdParams>;
const NOT_FOUND = { 404: 'No such payment template in your organization' };

@ApiTags('payment templates')
@Controller('payments/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @Endpoint({
    summary: 'List payment templates, newest first, with an optional search on one field',
    query: ZTemplateListQuerySchema,
    response: ZTemplateListReplySchema,
    errors: { 400: 'A bad limit, offset or search_field' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZTemplateListQuerySchema>) {
    return this.templates.list(orgId, q);
  }

  @Post('create')
  @Endpoint({
    summary: 'Create a payment template',
    body: ZTemplateInputSchema,
    response: ZPaymentTemplateSchema,
    status: 201,
    errors: { 400: 'A field is missing or invalid (each one named)' },
  })
  create(@OrgId() orgId: string, @ValidBody() body: TemplateInputParsed, @CurrentUser() user: AuthUser) {
    return this.templates.create(orgId, body, user);
  }

  @Get('summary')
  @Endpoint({ summary: 'Number of templates, their average daily price and the customers on them', response: ZTemplateSummarySchema })
  summary(@OrgId() orgId: string) {
    return this.templates.summary(orgId);
  }

  @Get('performance')
  @Endpoint({
    summary: 'Performance of every template: customers, revenue, days bought, devices paid up',
    response: ZTemplatePerformanceListReplySchema,
  })
  async performanceAll(@OrgId() orgId: string) {
    return { data: await this.templates.performance(orgId) };
  }

  @Get('assignments')
  @Endpoint({
    summary: 'Template assignments, newest first (current and past)',
    query: ZTemplateAssignmentsQuerySchema,
    response: ZTemplateAssignmentsReplySchema,
  })
  assignments(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZTemplateAssignmentsQuerySchema>) {
    return this.templates.assignments(orgId, q);
  }

  @Post('assignments/:id/end')
  @Endpoint({
    summary: "End a device's own plan (kept as history): the device is paid on its customer's plan from then on",
    params: ZIdParams,
    response: ZTemplateAssignmentEndReplySchema,
    errors: {
      404: 'No such template assignment in your organization',
      409: "The assignment has ended already, or is a customer's plan (change it by assigning another)",
    },
  })
  end(@OrgId() orgId: string, @ValidParams() p: IdParams, @CurrentUser() user: AuthUser) {
    return this.templates.endAssignment(orgId, p.id, user);
  }

  @Post('assign')
  @Endpoint({
    summary: "Put a customer on a template (ends the customer's current template, which stays in the history)",
    description:
      "With serial_number, the template is that device's own plan: it wins over the customer's plan for that device alone, and ends the device's previous plan of its own. The device must be assigned to the customer.",
    body: ZTemplateAssignSchema,
    response: ZTemplateAssignReplySchema,
    errors: {
      400: "A field is missing or invalid, or serial_number names a device that is not the customer's",
      404: 'Unknown customer, template or device',
    },
  })
  assign(@OrgId() orgId: string, @ValidBody() body: TemplateAssignParsed, @CurrentUser() user: AuthUser) {
    return this.templates.assign(orgId, body, user);
  }

  @Get(':id')
  @Endpoint({ summary: 'One payment template', params: ZIdParams, response: ZPaymentTemplateSchema, errors: NOT_FOUND })
  findOne(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    return this.templates.findOne(orgId, p.id);
  }

  @Put(':id')
  @Endpoint({
    summary: 'Change a payment template (only the fields sent)',
    params: ZIdParams,
    body: ZTemplateUpdateSchema,
    response: ZPaymentTemplateSchema,
    errors: { 400: 'A field is invalid (each one named)', ...NOT_FOUND },
  })
  update(@OrgId() orgId: string, @ValidParams() p: IdParams, @ValidBody() body: TemplateUpdateParsed, @CurrentUser() user: AuthUser) {
    return this.templates.update(orgId, p.id, body, user);
  }

  @Delete(':id')
  @Endpoint({
    summary: 'Delete a payment template no customer is on',
    params: ZIdParams,
    response: ZMessageReplySchema,
    errors: { ...NOT_FOUND, 409: 'Customers are on this template' },
  })
  remove(@OrgId() orgId: string, @ValidParams() p: IdParams, @CurrentUser() user: AuthUser) {
    return this.templates.remove(orgId, p.id, user);
  }

  @Get(':id/performance')
  @Endpoint({ summary: 'Performance of one template', params: ZIdParams, response: ZTemplatePerformanceReplySchema, errors: NOT_FOUND })
  async performanceOne(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    const [one] = await this.templates.performance(orgId, p.id);
    return { data: one };
  }

  @Get(':id/usage')
  @Endpoint({
    summary: 'Usage of one template: current and past assignments, assignments per month over 12 months',
    params: ZIdParams,
    response: ZTemplateUsageReplySchema,
    errors: NOT_FOUND,
  })
  usage(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    return this.templates.usage(orgId, p.id);
  }
}
