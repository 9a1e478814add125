// The report shapes are the API's contract (packages/contracts/src/reports.ts, and payments.ts for statements).
import type { Report } from '@kidogo/contracts';

export { REPORT_KINDS } from '@kidogo/contracts';
export type { Report, ReportColumn, ReportRequest, StatementImportReply } from '@kidogo/contracts';

export type ReportKind = Report['report'];
export type ReportFormat = 'json' | 'csv' | 'pdf';
export type ReportCell = Report['rows'][number][string];
export type ReportRow = Report['rows'][number];
