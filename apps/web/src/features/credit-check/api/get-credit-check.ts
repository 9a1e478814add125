import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CreditCheck } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { creditCheckKeys } from './keys';

export const getCreditCheck = (customerId: number, signal?: AbortSignal) =>
  api.get<CreditCheck>(`/customers/${customerId}/credit-check`, { signal });

export const creditCheckQueryOptions = (customerId: number) =>
  queryOptions({ queryKey: creditCheckKeys.customer(customerId), queryFn: ({ signal }) => getCreditCheck(customerId, signal) });

/** Whether the customer may be given another device, read again each time one is chosen (their standing moves daily). */
export const useCreditCheck = (customerId: number | null) =>
  useQuery({ ...creditCheckQueryOptions(customerId ?? 0), enabled: customerId !== null, staleTime: 0 });
