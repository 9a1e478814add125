import type { ReportKind } from './types';

/** Query keys of the reports feature. */
export const reportKeys = {
  all: ['reports'] as const,
  report: (kind: ReportKind, from: string, to: string) => [...reportKeys.all, kind, from, to] as const,
};
