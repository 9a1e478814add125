import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { TemplateUsage } from './types';

/** Assignments now, ended, ever, and per month over the last 12 months. */
export const getTemplateUsage = async (id: number, signal?: AbortSignal) =>
  (await api.get<{ data: TemplateUsage }>(`/payments/templates/${id}/usage`, { signal })).data;

export const templateUsageQueryOptions = (id: number) =>
  queryOptions({ queryKey: templateKeys.usage(id), queryFn: ({ signal }) => getTemplateUsage(id, signal) });

export const useTemplateUsage = (id: number | null) => useQuery({ ...templateUsageQueryOptions(id ?? 0), enabled: id !== null });
