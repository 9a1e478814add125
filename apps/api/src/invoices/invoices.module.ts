import { Module } from '@nestjs/common';
import { InvoicesController } from './invoices.controller.js';
import { AdminInvoicesController } from './admin-invoices.controller.js';
import { InvoicesService } from './invoices.service.js';
import { InvoiceDocuments } from './invoice-documents.service.js';
import { MailModule } from '../mail/mail.module.js';

@Module({ imports: [MailModule], controllers: [AdminInvoicesController, InvoicesController], providers: [InvoicesService, InvoiceDocuments] })
export class InvoicesModule {}
