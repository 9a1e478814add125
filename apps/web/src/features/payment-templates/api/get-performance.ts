import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { TemplatePerformance } from './types';

/** Every template's figures, for the Performance tab. */
export const getPerformance = async (signal?: AbortSignal) =>
  (await api.get<{ data: TemplatePerformance[] }>('/payments/templates/performance', { signal }))?.data ?? [];

export const performanceQueryOptions = () =>
  queryOptions({ queryKey: templateKeys.performance(), queryFn: ({ signal }) => getPerformance(signal) });

export const usePerformance = (enabled = true) => useQuery({ ...performanceQueryOptions(), enabled });
