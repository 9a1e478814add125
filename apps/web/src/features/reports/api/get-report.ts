import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys, type ReportPage } from './keys';
import type { Report, ReportKind } from './types';

/** The report as JSON: all of its rows, or one page of them (the totals cover the whole report either way). */
export const getReport = (report: ReportKind, from: string, to: string, page: ReportPage | null = null, signal?: AbortSignal) =>
  api.post<Report>('/reports/page', { report, from, to, format: 'json', ...page }, { signal });

export const reportQueryOptions = (report: ReportKind, from: string, to: string, page: ReportPage | null = null) =>
  queryOptions({ queryKey: reportKeys.report(report, from, to, page), queryFn: ({ signal }) => getReport(report, from, to, page, signal) });

export const useReport = (report: ReportKind | null, from: string, to: string, page: ReportPage | null = null) =>
  useQuery({ ...reportQueryOptions(report ?? 'revenue', from, to, page), enabled: report !== null, placeholderData: keepPreviousData });
