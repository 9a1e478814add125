import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys, type ReportFilters, type ReportPage } from './keys';
import type { Report, ReportKind } from './types';

/**
 * The report as JSON: all of its rows, or one page of them (the totals cover the whole report either way), narrowed
 * by `filters` (ReportFilters).
 */
export const getReport = (report: ReportKind, from: string, to: string, page: ReportPage | null = null, filters: ReportFilters = {}, signal?: AbortSignal) =>
  api.post<Report>('/reports/page', { report, from, to, format: 'json', ...page, ...filters }, { signal });

export const reportQueryOptions = (report: ReportKind, from: string, to: string, page: ReportPage | null = null, filters: ReportFilters = {}) =>
  queryOptions({
    queryKey: reportKeys.report(report, from, to, page, filters),
    queryFn: ({ signal }) => getReport(report, from, to, page, filters, signal),
  });

export const useReport = (report: ReportKind | null, from: string, to: string, page: ReportPage | null = null, filters: ReportFilters = {}) =>
  useQuery({ ...reportQueryOptions(report ?? 'revenue', from, to, page, filters), enabled: report !== null, placeholderData: keepPreviousData });
