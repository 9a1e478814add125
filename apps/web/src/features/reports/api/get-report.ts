import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';
import type { Report, ReportKind } from './types';

export const getReport = (report: ReportKind, from: string, to: string, signal?: AbortSignal) =>
  api.post<Report>('/reports/page', { report, from, to, format: 'json' }, { signal });

export const reportQueryOptions = (report: ReportKind, from: string, to: string) =>
  queryOptions({ queryKey: reportKeys.report(report, from, to), queryFn: ({ signal }) => getReport(report, from, to, signal) });

export const useReport = (report: ReportKind | null, from: string, to: string) =>
  useQuery({ ...reportQueryOptions(report ?? 'revenue', from, to), enabled: report !== null, placeholderData: keepPreviousData });
