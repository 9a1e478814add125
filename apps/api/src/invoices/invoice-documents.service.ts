import { Injectable } from '@nestjs/common';
import { Writable } from 'node:stream';
import type { Invoice, InvoiceEmailInput } from '@kidogo/contracts';
import { streamReply, type HttpReply } from '../common/http.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { AuditService } from '../audit/audit.service.js';
import { MailerService } from '../mail/mailer.service.js';
import { DatabaseService } from '../database/database.service.js';
import { InvoicesService, type InvoiceScope } from './invoices.service.js';
import { InvoicesMapper } from './invoices.mapper.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { invoiceEmail, renderInvoiceHtml, writeInvoicePdf, type RenderContext } from './invoice-render.js';

/** The refusals of POST /invoices/{id}/email and /admin/invoices/{id}/email, as the OpenAPI document lists them. */
export const INVOICE_EMAIL_ERRORS = {
  400: 'A bad `to` or `message`, named; no `to` and no customer_email on the invoice',
  404: 'Invoice not found',
  409: 'Email is not set up on this installation; the invoice is cancelled',
  502: 'The mail server refused the email or did not answer (nothing is recorded)',
};

export const INVOICE_EMAIL_NOT_SET_UP =
  'Email is not set up on this installation (SMTP_URL): download the PDF and send it yourself, or ask the administrator to set it up';

/** Gathers what an invoice document prints: the invoice, the issuer and the billed organization. */
@Injectable()
export class InvoiceDocuments {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    private readonly mailer: MailerService,
    private readonly audit: AuditService,
  ) {}

  private async context(scope: InvoiceScope, id: string): Promise<{ ctx: RenderContext; template: string | null }> {
    const row = await this.invoices.findRow(scope, id);
    const [settings, billing] = await Promise.all([
      this.invoices.globalSettings(),
      this.database.platform.invoiceSettings.findUnique({ where: { organization_id: row.organization_id } }),
    ]);
    return {
      ctx: {
        invoice: InvoicesMapper.invoice(row, this.invoices.today()),
        issuerName: settings.issuer_name || 'Kidogo',
        issuerDetails: settings.issuer_details,
        billingName: billing?.issuer_name || row.organization?.name || row.organization_id,
        billingDetails: billing?.issuer_details ?? null,
        dayOf: (instant) => isoDayOf(this.calendar.dayOf(new Date(instant))),
      },
      template: settings.template_html,
    };
  }

  async html(scope: InvoiceScope, id: string): Promise<string> {
    const { ctx, template } = await this.context(scope, id);
    return renderInvoiceHtml(ctx, template);
  }

  /** The invoice as a PDF download, once it is found (a 404 before any byte otherwise). */
  async pdf(scope: InvoiceScope, id: string, reply: HttpReply): Promise<void> {
    const { ctx } = await this.context(scope, id);
    await writeInvoicePdf(streamReply(reply, 'application/pdf', `invoice-${ctx.invoice.invoice_id}.pdf`), ctx);
  }

  /**
   * Emails the invoice's PDF to `to` (else its customer_email), and records when and to whom; a draft or pending
   * invoice then reads as sent. Nothing is recorded unless the mail server took the email.
   */
  async email(actor: AuthUser, scope: InvoiceScope, id: string, input: InvoiceEmailInput): Promise<Invoice> {
    if (!this.mailer.enabled) throw Errors.conflict(INVOICE_EMAIL_NOT_SET_UP);
    const { ctx } = await this.context(scope, id);
    const invoice = ctx.invoice;
    if (invoice.stored_status === 'cancelled') throw Errors.conflict(`Invoice ${invoice.invoice_number} is cancelled: it is not sent`);
    const to = input.to ?? invoice.customer_email;
    if (!to) throw Errors.badRequest('to', 'is required: the invoice has no customer email');

    const chunks: Buffer[] = [];
    await writeInvoicePdf(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      }),
      ctx,
    );
    const { subject, text } = invoiceEmail(ctx, input.message);
    try {
      await this.mailer.send({
        to,
        subject,
        text,
        attachments: [{ filename: `invoice-${invoice.invoice_number}.pdf`, content: Buffer.concat(chunks), contentType: 'application/pdf' }],
      });
    } catch (e) {
      throw Errors.badGateway(`The mail server did not take the email: ${(e as Error).message}`);
    }

    const row = await this.database.platform.$transaction(async (tx) => {
      const updated = await tx.invoice.update({
        where: { id: invoice.invoice_id },
        data: {
          emailed_at: new Date(),
          emailed_to: to,
          ...(invoice.stored_status === 'draft' || invoice.stored_status === 'pending' ? { status: 'sent' as const } : {}),
        },
        include: { organization: { select: { name: true } } },
      });
      await this.audit.record(
        {
          organizationId: updated.organization_id,
          actor,
          action: 'invoice.emailed',
          entityType: 'invoice',
          entityId: updated.id,
          description: `Invoice ${updated.invoice_number} emailed to ${to} by ${actor.username}`,
          metadata: { to, ...(updated.status !== invoice.stored_status ? { from: invoice.stored_status, status: updated.status } : {}) },
        },
        tx,
      );
      return updated;
    });
    return InvoicesMapper.invoice(row, this.invoices.today());
  }
}
