import type { RepaymentStanding } from '@kidogo/contracts';
import type { ReportKind } from './types';

/** One page of a report's rows (json with limit and offset); the totals still cover all of it. */
export interface ReportPage {
  limit: number;
  offset: number;
}

/** What a report is narrowed to: the portfolio report of one sales agent's customers, the customer report of some repayment standings. */
export interface ReportFilters {
  agent?: string;
  standing?: RepaymentStanding[];
}

/** Query keys of the reports feature. */
export const reportKeys = {
  all: ['reports'] as const,
  report: (kind: ReportKind, from: string, to: string, page: ReportPage | null = null, filters: ReportFilters = {}) =>
    [...reportKeys.all, kind, from, to, page, filters] as const,
};
