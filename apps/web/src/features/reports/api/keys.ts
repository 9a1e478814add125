import type { ReportKind } from './types';

/** One page of a report's rows (json with limit and offset); the totals still cover all of it. */
export interface ReportPage {
  limit: number;
  offset: number;
}

/** Query keys of the reports feature. */
export const reportKeys = {
  all: ['reports'] as const,
  report: (kind: ReportKind, from: string, to: string, page: ReportPage | null = null, agent: string | null = null) =>
    [...reportKeys.all, kind, from, to, page, agent] as const,
};
