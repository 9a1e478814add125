import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { productKeys } from './keys';
import type { ProductsSummaryReply } from './types';

export interface ProductsSummary {
  total: number;
  assigned: number;
  unassigned: number;
  /** Percent of devices assigned, 0 when there are none. */
  assignmentRate: number;
}

export function summarize(data: Partial<ProductsSummaryReply['data']> | undefined): ProductsSummary {
  const total = Number(data?.total_products ?? 0) || 0;
  const assigned = Number(data?.assigned_products ?? 0) || 0;
  const unassigned = Number(data?.unassigned_products ?? Math.max(total - assigned, 0)) || 0;
  return { total, assigned, unassigned, assignmentRate: total > 0 ? (assigned / total) * 100 : 0 };
}

/** 'Assignment Rate': a percent with one decimal. */
export const formatRate = (rate: number) => `${rate.toFixed(1)}%`;

export async function getProductsSummary(signal?: AbortSignal): Promise<ProductsSummary> {
  try {
    const reply = await api.get<Partial<ProductsSummaryReply> | null>('/products/summary', { signal });
    return summarize(reply?.data);
  } catch (error) {
    // A blocked organization sees zeros; the toast comes from the event.
    if (error instanceof ServiceBlockedError) return summarize(undefined);
    throw error;
  }
}

export const productsSummaryQueryOptions = () =>
  queryOptions({ queryKey: productKeys.summary(), queryFn: ({ signal }) => getProductsSummary(signal) });

export const useProductsSummary = () => useQuery(productsSummaryQueryOptions());
