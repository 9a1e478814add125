import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZAdminInvoiceListQuerySchema,
  ZAdminInvoiceListSchema,
  ZCreateInvoiceSchema,
  ZInvoiceEmailSchema,
  ZInvoiceIdParamSchema,
  ZInvoiceSchema,
  ZInvoiceSettingsSchema,
  ZInvoiceSettingsUpdateSchema,
  ZInvoiceStatsSchema,
  ZInvoiceStatusUpdateSchema,
  ZMessageReplySchema,
  type AdminInvoiceListQuery,
  type CreateInvoiceInput,
  type InvoiceEmailInput,
  type InvoiceSettingsUpdate,
  type InvoiceStatusUpdate,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery } from '../common/validation.js';
import { CurrentUser, Roles, type AuthUser } from '../common/tenancy.js';
import { Errors } from '../common/errors.js';
import { InvoicesService } from './invoices.service.js';
import { INVOICE_EMAIL_ERRORS, InvoiceDocuments } from './invoice-documents.service.js';

/** The super admin's invoice management across every organization. */
@ApiTags('admin')
@Roles('super_admin')
@Controller('admin')
export class AdminInvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly documents: InvoiceDocuments,
  ) {}

  @Get('invoices')
  @Endpoint({ summary: 'Every organization’s invoices, filtered and paged', query: ZAdminInvoiceListQuerySchema, response: ZAdminInvoiceListSchema })
  list(@ValidQuery() query: AdminInvoiceListQuery) {
    return this.invoices.list(query);
  }

  @Get('invoices/stats')
  @Endpoint({ summary: 'Invoice counts and revenue across every organization', response: ZInvoiceStatsSchema })
  stats() {
    return this.invoices.summarize('all');
  }

  @Post('invoices')
  @Endpoint({ summary: 'Bill an organization', body: ZCreateInvoiceSchema, response: ZInvoiceSchema, status: 201, errors: { 404: 'Organization not found' } })
  create(@CurrentUser() user: AuthUser, @ValidBody() body: CreateInvoiceInput) {
    if (!body.organization_id) throw Errors.badRequest('organization_id', 'is required');
    return this.invoices.create(user, body.organization_id, body);
  }

  @Get('invoices/:id')
  @Endpoint({ summary: 'One invoice', params: ZInvoiceIdParamSchema, response: ZInvoiceSchema, errors: { 404: 'Invoice not found' } })
  findOne(@ValidParams() params: { id: string }) {
    return this.invoices.findOne('all', params.id);
  }

  @Put('invoices/:id/status')
  @Endpoint({ summary: "Set an invoice's status (paid sets paid_at)", params: ZInvoiceIdParamSchema, body: ZInvoiceStatusUpdateSchema, response: ZInvoiceSchema, errors: { 404: 'Invoice not found' } })
  updateStatus(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }, @ValidBody() body: InvoiceStatusUpdate) {
    return this.invoices.updateStatus(user, 'all', params.id, body.status);
  }

  @Post('invoices/:id/email')
  @Endpoint({
    summary: "Email an organization's invoice with its PDF (to its customer_email unless `to` is given); draft or pending becomes sent",
    params: ZInvoiceIdParamSchema,
    body: ZInvoiceEmailSchema,
    response: ZInvoiceSchema,
    errors: INVOICE_EMAIL_ERRORS,
  })
  email(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }, @ValidBody() body: InvoiceEmailInput) {
    return this.documents.email(user, 'all', params.id, body);
  }

  @Delete('invoices/:id')
  @Endpoint({ summary: 'Delete an invoice', params: ZInvoiceIdParamSchema, response: ZMessageReplySchema, errors: { 404: 'Invoice not found' } })
  remove(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }) {
    return this.invoices.remove(user, 'all', params.id);
  }

  @Get('settings/invoices')
  @Endpoint({ summary: 'Global invoice settings (created with the defaults on first read)', response: ZInvoiceSettingsSchema })
  settings() {
    return this.invoices.getSettings();
  }

  @Put('settings/invoices')
  @Endpoint({ summary: 'Save the global invoice settings', body: ZInvoiceSettingsUpdateSchema, response: ZInvoiceSettingsSchema })
  updateSettings(@CurrentUser() user: AuthUser, @ValidBody() body: InvoiceSettingsUpdate) {
    return this.invoices.updateSettings(user, body);
  }
}
