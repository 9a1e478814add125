import { Injectable, Logger } from '@nestjs/common';
import { mapStatementRow, parseAmountToCents, STATEMENT_COLUMNS, type ParsedPayment } from '@kidogo/mobile-money';
import type { PaymentOutcome, StatementImportReply } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { PaymentPipeline, unmatchedReason } from './payment-pipeline.service.js';
import { parse } from 'csv-parse/sync';

export interface UploadedFile {
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

const CSV_TYPES = /^(text\/(csv|plain|comma-separated-values|x-csv)|application\/(csv|x-csv|vnd\.ms-excel|octet-stream))$/i;
/** Refusals that mean "not money received" rather than "unreadable". */
const NOT_A_PAYMENT = /^(Withdrawal row|Transaction status is )/;

/**
 * Reconciliation from an M-Pesa statement export: each row goes through the
 * same pipeline as a received SMS, idempotent by transaction code, so a
 * statement can be uploaded again (or overlap an earlier one) safely. Each
 * row is its own transaction: a bad row does not undo the good ones, and
 * re-running the upload imports nothing twice.
 */
@Injectable()
export class StatementImportService {
  private readonly logger = new Logger('StatementImport');

  constructor(
    private readonly database: DatabaseService,
    private readonly pipeline: PaymentPipeline,
    private readonly audit: AuditService,
  ) {}

  async import(orgId: string, user: AuthUser, file: UploadedFile | undefined): Promise<StatementImportReply> {
    if (!file) throw Errors.badRequest('file', 'is required (multipart field "file")');
    if (file.size === 0 || file.buffer.length === 0) throw Errors.badRequest('file', 'is empty');
    const named = /\.(csv|txt)$/i.test(file.originalname);
    if ((!named && !CSV_TYPES.test(file.mimetype)) || file.buffer.includes(0)) throw Errors.badRequest('file', 'must be a CSV file');
    let rows: string[][];
    try {
      rows = readCsv(file.buffer.toString('utf8'));
    } catch (e) {
      throw Errors.badRequest('file', `is not a readable CSV file (${(e as Error).message.split('\n')[0]})`);
    }
    if (rows.length === 0) throw Errors.badRequest('file', 'is empty');
    const header = rows[0]!.map((h) => h.trim());
    const receiptHeader = STATEMENT_COLUMNS.receipt.map(key);
    if (!header.some((h) => receiptHeader.includes(key(h)))) {
      throw Errors.badRequest('file', `must be a CSV file with a header row naming the receipt column (${STATEMENT_COLUMNS.receipt.join(', ')})`);
    }
    const job = await this.database.db.importJob.create({
      data: { organization_id: orgId, kind: 'mpesa_statement', filename: file.originalname.slice(0, 255), created_by: user.username },
    });

    const reply: StatementImportReply = { imported: 0, skipped: 0, errors: [], applied: 0, held: [], duplicates: 0, not_received: 0 };
    for (let i = 1; i < rows.length; i++) {
      const rowNumber = i + 1;
      const record: Record<string, string> = {};
      header.forEach((h, j) => (record[h] = rows[i]![j] ?? ''));
      const parsed = mapStatementRow(record);
      if (!parsed.ok) {
        if (NOT_A_PAYMENT.test(parsed.error)) {
          reply.skipped++;
          reply.not_received++;
        } else reply.errors.push({ row: rowNumber, field: /receipt/i.test(parsed.error) ? 'Receipt No.' : 'Paid In', message: parsed.error });
        continue;
      }
      const p = parsed.payment;
      try {
        const outcome = await this.database.transaction((run) =>
          this.pipeline.record(run, orgId, {
              transactionCode: p.transaction_code,
              amountCents: parseAmountToCents(p.amount)!,
              currency: p.currency,
              method: 'mobile_money',
              source: 'statement',
              accountReference: p.account_reference,
              payerPhone: p.sender_phone,
              payerName: p.sender_name,
              paidAt: validDate(p.transacted_at) ?? new Date(),
              messageId: null,
              recordedBy: user.username,
              actor: user,
            }),
        );
        if (outcome.status === 'duplicate') {
          reply.skipped++;
          reply.duplicates++;
        } else {
          reply.imported++;
          // Held money is recorded but is nobody's yet: the reply lists it so staff can match it.
          if (outcome.status === 'unmatched') reply.held.push(heldRow(rowNumber, p, outcome));
          else reply.applied++;
        }
      } catch (e) {
        const message = (e as { response?: { detail?: unknown } }).response?.detail;
        if (typeof message !== 'string') this.logger.error(`row ${rowNumber}: ${(e as Error).stack ?? e}`);
        reply.errors.push({ row: rowNumber, field: 'row', message: typeof message === 'string' ? message : 'Could not be recorded' });
      }
    }

    await this.database.db.importJob.update({
      where: { id: job.id, organization_id: orgId },
      data: { status: 'finished', imported: reply.imported, skipped: reply.skipped, errors: reply.errors, finished_at: new Date() },
    });
    await this.audit.record({
      organizationId: orgId,
      actor: user,
      action: 'payments.import',
      entityType: 'import_job',
      entityId: job.id,
      description: `M-Pesa statement ${file.originalname}: ${reply.imported} imported, ${reply.skipped} skipped, ${reply.errors.length} errors`,
      metadata: { imported: reply.imported, skipped: reply.skipped, errors: reply.errors.length },
    });
    return reply;
  }
}

/** A held row as staff need it: which receipt, how much, and why no device was given the money. */
function heldRow(row: number, p: ParsedPayment, outcome: PaymentOutcome): StatementImportReply['held'][number] {
  const reason = outcome.hold_reason ?? unmatchedReason({ accountReference: p.account_reference, payerPhone: p.sender_phone });
  return { row, payment_id: outcome.payment_id!, transaction_code: p.transaction_code, amount: outcome.amount ?? p.amount, reason };
}

const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function validDate(s: string | null): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Statement exports come comma-, semicolon- or tab-separated depending on the spreadsheet that saved them. */
function readCsv(text: string): string[][] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const outsideQuotes = firstLine.replace(/"[^"]*"/g, '');
  const delimiter = [',', ';', '\t'].reduce((best, d) => (outsideQuotes.split(d).length > outsideQuotes.split(best).length ? d : best), ',');
  const rows = parse(text, { bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}
