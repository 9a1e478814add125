import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { messageKeys } from './keys';
import type { Payment, PaymentListQuery, PaymentListReply } from './types';

export const HELD_PAYMENT_PAGE_SIZE = 10;

/**
 * Payments held for staff (status pending), newest first: statement rows and
 * messages that named no known device, another currency, a phone-number sender.
 * A statement row has no message, so this list is the only way to reach it.
 */
export const getHeldPayments = (offset: number, signal?: AbortSignal) => {
  const query: Pick<PaymentListQuery, 'status' | 'limit' | 'offset'> = { status: 'pending', limit: HELD_PAYMENT_PAGE_SIZE, offset };
  return suspendableList<{ data: Payment[]; total: number }>(
    api.get<Partial<PaymentListReply> | null>('/payments', { query, signal }).then((reply) => {
      const data = reply?.data ?? [];
      return { data, total: reply?.pagination?.total ?? data.length };
    }),
    { total: 0 },
  );
};

export const heldPaymentsQueryOptions = (offset: number) =>
  queryOptions({ queryKey: messageKeys.held(offset), queryFn: ({ signal }) => getHeldPayments(offset, signal) });

/** Polled like the messages: a statement import or a text can add one while the page is open. */
export const useHeldPayments = (offset: number) =>
  useQuery({ ...heldPaymentsQueryOptions(offset), placeholderData: keepPreviousData, refetchInterval: 30_000 });
