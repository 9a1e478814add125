import { readFile } from 'node:fs/promises';
import { Controller, Get, Post, Req, UseInterceptors } from '@nestjs/common';
import type { HttpRequest } from '../common/http.js';
import { ApiTags } from '@nestjs/swagger';
import {
  ZManualPaymentSchema,
  ZMatchPaymentSchema,
  ZPaymentListQuerySchema,
  ZPaymentListReplySchema,
  ZPaymentOutcomeSchema,
  ZRejectPaymentReplySchema,
  ZRejectPaymentSchema,
  ZReversePaymentReplySchema,
  ZReversePaymentSchema,
  ZStatementImportReplySchema,
  type ManualPaymentInput,
  type MatchPaymentInput,
  type RejectPaymentInput,
  type ReversePaymentInput,
  type PaymentListQuery,
} from '@kidogo/contracts';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { CsvUploadInterceptor, uploadedFile } from '../catalog/csv-upload.js';
import { PaymentsService } from './payments.service.js';
import { StatementImportService } from './statement-import.service.js';

const PaymentIdParams = zPathId('id');

@ApiTags('payments')
@Controller()
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly statements: StatementImportService,
  ) {}

  @Get('payments')
  @Endpoint({
    summary: 'The payments ledger, newest first (by paid_at), with filters',
    description: 'status: success | completed | pending (unmatched) | failed; method: cash | bank | mobile_money; from / to: dates on paid_at (inclusive).',
    query: ZPaymentListQuerySchema,
    response: ZPaymentListReplySchema,
  })
  list(@OrgId() orgId: string, @ValidQuery() query: PaymentListQuery) {
    return this.payments.list(orgId, query);
  }

  @Post('payments')
  @Endpoint({
    summary: 'Record a payment collected by staff or an agent (cash, bank, mobile money) and apply it to the device',
    description:
      'Runs the same pipeline as a received message: the payment rules, the tokens and the reply SMS to the customer. ' +
      'reference is the idempotency key: sending the same reference again returns the original result (status duplicate); ' +
      'a reference already used for another device or amount is a 409.',
    body: ZManualPaymentSchema,
    response: ZPaymentOutcomeSchema,
    status: 201,
    errors: { 400: 'Invalid amount, method, reference or date', 404: 'Device not found', 409: 'Reference used for another payment, or device retired' },
  })
  create(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: ManualPaymentInput) {
    return this.payments.createManual(orgId, user, body);
  }

  @Post('payments/:id/match')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Assign an unmatched (pending) payment to a device and run the rest of the pipeline',
    params: PaymentIdParams,
    body: ZMatchPaymentSchema,
    response: ZPaymentOutcomeSchema,
    errors: { 403: 'Not an owner or admin', 404: 'Payment or device not found', 409: 'The payment is not pending' },
  })
  match(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() params: { id: number },
    @ValidBody() body: MatchPaymentInput,
  ) {
    return this.payments.match(orgId, user, params.id, body);
  }

  @Post('payments/:id/reject')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Reject a held (pending) payment staff will not apply: refunded, sent to the wrong business, or a fake confirmation',
    description:
      "The payment becomes failed with hold_reason 'Rejected by {username}: {reason}', its message leaves the unmatched ones (status rejected) and the audit log records who rejected it and why. No token is issued and nothing is counted as revenue.",
    params: PaymentIdParams,
    body: ZRejectPaymentSchema,
    response: ZRejectPaymentReplySchema,
    errors: { 403: 'Not an owner or admin', 404: 'Payment not found', 409: 'The payment is not pending' },
  })
  reject(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() params: { id: number },
    @ValidBody() body: RejectPaymentInput,
  ) {
    return this.payments.reject(orgId, user, params.id, body);
  }

  @Post('payments/:id/reverse')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Take a completed payment off the device it was applied to by mistake, and hold it for matching to the right one',
    description:
      "For a payment applied to the wrong device (a mistyped account number, a cash entry on the wrong serial). The payment becomes pending with hold_reason " +
      "'Reversed from {serial} by {username}: {reason}' and is listed with the held payments, to be matched (POST /payments/{id}/match) or rejected. " +
      'The device goes back to what it had before the payment: total paid, credit, the days its tokens added (credit_until moves back), and its ' +
      'activation when this payment activated it. Only the latest payment applied to the device can be reversed, and not one that paid the device off. ' +
      'The codes already sent are not withdrawn: if the device took one, lock it back with a set_time token. Audited.',
    params: PaymentIdParams,
    body: ZReversePaymentSchema,
    response: ZReversePaymentReplySchema,
    errors: {
      403: 'Not an owner or admin',
      404: 'Payment not found',
      409: 'The payment is not completed, a later payment was applied to the device, it paid the device off, or the device changed hands since',
    },
  })
  reverse(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() params: { id: number },
    @ValidBody() body: ReversePaymentInput,
  ) {
    return this.payments.reverse(orgId, user, params.id, body);
  }

  @Post('reports/upload-csv')
  @Roles('owner', 'admin', 'super_admin')
  // The same upload handling as the other CSV imports: a temporary file, a 413 and
  // 400s that name the field (Nest's FileInterceptor answers "File too large").
  @UseInterceptors(CsvUploadInterceptor('file'))
  @Endpoint({
    summary: 'Reconcile an M-Pesa statement export (CSV, multipart field file): every payment received goes through the pipeline once',
    description:
      'Columns as exported by the M-Pesa Org Portal (Receipt No., Completion Time, Details, Transaction Status, Paid In, Withdrawn, ' +
      'Balance, Other Party Info, A/C No.) or the usual alternatives. Rows already recorded and rows that are not money received ' +
      'are skipped; unreadable rows are listed in errors (row 2 is the first row under the header).',
    files: ['file'],
    response: ZStatementImportReplySchema,
    errors: { 400: 'No file, an empty file or not a CSV', 413: 'File larger than MAX_UPLOAD_MB' },
  })
  async upload(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @Req() req: HttpRequest) {
    const file = uploadedFile(req);
    // A statement is a few thousand rows at most: read whole, as the importer expects.
    return this.statements.import(orgId, user, file?.path ? { ...file, buffer: await readFile(file.path) } : undefined);
  }
}
