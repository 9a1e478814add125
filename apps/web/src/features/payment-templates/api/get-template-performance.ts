import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { TemplatePerformance } from './types';

export const getTemplatePerformance = async (id: number, signal?: AbortSignal) =>
  (await api.get<{ data: TemplatePerformance }>(`/payments/templates/${id}/performance`, { signal })).data;

export const templatePerformanceQueryOptions = (id: number) =>
  queryOptions({ queryKey: templateKeys.templatePerformance(id), queryFn: ({ signal }) => getTemplatePerformance(id, signal) });

export const useTemplatePerformance = (id: number | null) =>
  useQuery({ ...templatePerformanceQueryOptions(id ?? 0), enabled: id !== null });
