// Mirrors packages/contracts/src/reports.ts of the API worktree
// (feat/api-console) until that contract is merged into main; then these
// become re-exports from @kidogo/contracts.

export const REPORT_KINDS = ['revenue', 'customers', 'tokens'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export type ReportFormat = 'json' | 'csv' | 'pdf';

/** POST /reports/page */
export interface ReportRequest {
  report: ReportKind;
  from?: string | null;
  to?: string | null;
  format?: ReportFormat;
}

export interface ReportColumn {
  key: string;
  label: string;
  /** money cells are "123.45" strings; number cells are numbers. */
  type: 'text' | 'money' | 'number' | 'date';
}

export type ReportCell = string | number | null;

export interface Report {
  report: ReportKind;
  from: string | null;
  to: string | null;
  generated_at: string;
  columns: ReportColumn[];
  rows: Record<string, ReportCell>[];
  /** Sums of the money and number columns, plus `rows` (the row count). */
  totals: Record<string, ReportCell>;
}
