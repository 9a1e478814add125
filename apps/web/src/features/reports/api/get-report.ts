import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys, type ReportPage } from './keys';
import type { Report, ReportKind } from './types';

/**
 * The report as JSON: all of its rows, or one page of them (the totals cover the whole report either way); `agent`,
 * the portfolio report of one sales agent's customers.
 */
export const getReport = (report: ReportKind, from: string, to: string, page: ReportPage | null = null, agent: string | null = null, signal?: AbortSignal) =>
  api.post<Report>('/reports/page', { report, from, to, format: 'json', ...page, ...(agent === null ? {} : { agent }) }, { signal });

export const reportQueryOptions = (report: ReportKind, from: string, to: string, page: ReportPage | null = null, agent: string | null = null) =>
  queryOptions({
    queryKey: reportKeys.report(report, from, to, page, agent),
    queryFn: ({ signal }) => getReport(report, from, to, page, agent, signal),
  });

export const useReport = (report: ReportKind | null, from: string, to: string, page: ReportPage | null = null, agent: string | null = null) =>
  useQuery({ ...reportQueryOptions(report ?? 'revenue', from, to, page, agent), enabled: report !== null, placeholderData: keepPreviousData });
