import { Controller, Delete, Get, Header, Post, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { HttpReply } from '../common/http.js';
import {
  ZCreateInvoiceSchema,
  ZInvoiceEmailSchema,
  ZInvoiceIdParamSchema,
  ZInvoiceListQuerySchema,
  ZInvoiceListSchema,
  ZInvoiceSchema,
  ZInvoiceStatsSchema,
  ZInvoiceStatusUpdateSchema,
  ZMessageReplySchema,
  ZOrgInvoiceSettingsSchema,
  ZOrgInvoiceSettingsUpdateSchema,
  ZSubmitPaymentSchema,
  type CreateInvoiceInput,
  type InvoiceEmailInput,
  type InvoiceListQuery,
  type InvoiceStatusUpdate,
  type OrgInvoiceSettingsUpdate,
  type SubmitPaymentInput,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery } from '../common/validation.js';
import { CurrentUser, OpenWhenBlocked, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Errors } from '../common/errors.js';
import { InvoicesService, scopeOf } from './invoices.service.js';
import { INVOICE_EMAIL_ERRORS, InvoiceDocuments } from './invoice-documents.service.js';

/**
 * The invoices screen: every user sees and downloads their organization's
 * invoices; owners (and super admins, for any organization) create, change
 * status and delete them.
 */
@ApiTags('invoices')
@Controller()
export class InvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly documents: InvoiceDocuments,
  ) {}

  @OpenWhenBlocked()
  @Get('invoices')
  @Endpoint({ summary: "The organization's invoices, newest first", query: ZInvoiceListQuerySchema, response: ZInvoiceListSchema })
  list(@OrgId() orgId: string, @ValidQuery() query: InvoiceListQuery) {
    return this.invoices.listForOrg(orgId, query);
  }

  @OpenWhenBlocked()
  @Get('invoices/stats')
  @Endpoint({ summary: "Counts and totals of the organization's invoices", response: ZInvoiceStatsSchema })
  stats(@OrgId() orgId: string) {
    return this.invoices.summarize({ orgId });
  }

  @Post('invoices')
  @Roles('owner', 'super_admin')
  @Endpoint({
    summary: 'Create an invoice (owners: for their own organization; super admins: any organization_id)',
    body: ZCreateInvoiceSchema,
    response: ZInvoiceSchema,
    status: 201,
    errors: { 403: 'Not an owner or super admin, or another organization', 404: 'Organization not found' },
  })
  create(@CurrentUser() user: AuthUser, @ValidBody() body: CreateInvoiceInput) {
    const target = body.organization_id ?? user.organization_id;
    if (user.role !== 'super_admin' && target !== user.organization_id) {
      throw Errors.forbidden('Owners can only create invoices for their own organization');
    }
    return this.invoices.create(user, target, body);
  }

  @Put('invoices/:id/status')
  @Roles('owner', 'super_admin')
  @Endpoint({ summary: "Set an invoice's status (paid sets paid_at)", params: ZInvoiceIdParamSchema, body: ZInvoiceStatusUpdateSchema, response: ZInvoiceSchema, errors: { 404: 'Invoice not found' } })
  updateStatus(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }, @ValidBody() body: InvoiceStatusUpdate) {
    return this.invoices.updateStatus(user, scopeOf(user), params.id, body.status);
  }

  @Delete('invoices/:id')
  @Roles('owner', 'super_admin')
  @Endpoint({ summary: 'Delete an invoice', params: ZInvoiceIdParamSchema, response: ZMessageReplySchema, errors: { 404: 'Invoice not found' } })
  remove(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }) {
    return this.invoices.remove(user, scopeOf(user), params.id);
  }

  @Post('invoices/:id/email')
  @Roles('owner', 'super_admin')
  @Endpoint({
    summary: "Email the invoice's PDF (to its customer_email unless `to` is given); a draft or pending invoice becomes sent",
    description:
      'The PDF is the one GET /download-invoice/{id} gives, attached to a short email saying what is due and by when, ' +
      'with `message` first. emailed_at and emailed_to record the last one sent. Audited as invoice.emailed.',
    params: ZInvoiceIdParamSchema,
    body: ZInvoiceEmailSchema,
    response: ZInvoiceSchema,
    errors: INVOICE_EMAIL_ERRORS,
  })
  email(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }, @ValidBody() body: InvoiceEmailInput) {
    return this.documents.email(user, scopeOf(user), params.id, body);
  }

  @OpenWhenBlocked()
  @Get('invoice/:id')
  @Header('Cache-Control', 'no-store')
  @Endpoint({ summary: 'The invoice as an HTML page', params: ZInvoiceIdParamSchema, produces: 'text/html', errors: { 404: 'Invoice not found' } })
  async html(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }, @Res() reply: HttpReply) {
    const html = await this.documents.html(scopeOf(user), params.id);
    await reply
      .code(200)
      .type('text/html; charset=utf-8')
      // A page of its own: its style sheet applies, and nothing else loads or runs (an API reply's CSP would unstyle it).
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'")
      .send(html);
  }

  @OpenWhenBlocked()
  @Get('download-invoice/:id')
  @Header('Cache-Control', 'no-store')
  @Endpoint({ summary: 'The invoice as a PDF download (invoice-{id}.pdf)', params: ZInvoiceIdParamSchema, produces: 'application/pdf', errors: { 404: 'Invoice not found' } })
  async pdf(@CurrentUser() user: AuthUser, @ValidParams() params: { id: string }, @Res() reply: HttpReply) {
    await this.documents.pdf(scopeOf(user), params.id, reply);
  }

  @OpenWhenBlocked()
  @Post('submit-payment')
  @Endpoint({
    summary: 'Report a payment against an invoice (payment_id is the invoice id); a super admin then confirms it',
    body: ZSubmitPaymentSchema,
    response: ZInvoiceSchema,
    errors: { 404: 'Invoice not found', 409: 'Invoice already paid or cancelled' },
  })
  submitPayment(@CurrentUser() user: AuthUser, @OrgId() orgId: string, @ValidBody() body: SubmitPaymentInput) {
    return this.invoices.submitPayment(user, orgId, body);
  }

  @Get('update-invoice-settings')
  @Roles('owner', 'super_admin')
  @Endpoint({ summary: "The organization's billing preferences", response: ZOrgInvoiceSettingsSchema })
  orgSettings(@OrgId() orgId: string) {
    return this.invoices.getOrgSettings(orgId);
  }

  @Put('update-invoice-settings')
  @Roles('owner', 'super_admin')
  @Endpoint({
    summary: "Save the organization's billing preferences (currency, payment terms, billing name and details)",
    body: ZOrgInvoiceSettingsUpdateSchema,
    response: ZOrgInvoiceSettingsSchema,
  })
  updateOrgSettings(@CurrentUser() user: AuthUser, @OrgId() orgId: string, @ValidBody() body: OrgInvoiceSettingsUpdate) {
    return this.invoices.updateOrgSettings(user, orgId, body);
  }
}
