import { Injectable } from '@nestjs/common';
import { streamReply, type HttpReply } from '../common/http.js';
import { DatabaseService } from '../database/database.service.js';
import { InvoicesService, type InvoiceScope } from './invoices.service.js';
import { InvoicesMapper } from './invoices.mapper.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { renderInvoiceHtml, writeInvoicePdf, type RenderContext } from './invoice-render.js';

/** Gathers what an invoice document prints: the invoice, the issuer and the billed organization. */
@Injectable()
export class InvoiceDocuments {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
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
}
