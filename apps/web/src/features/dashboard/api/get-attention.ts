import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCashSummary } from '@/features/cash/api/get-cash-summary';
import { getPromisesSummary } from '@/features/collections/api/get-promises-summary';
import type { PaymentListReply } from '@/features/messages/api/types';
import { getTickets } from '@/features/tickets/api/get-tickets';
import { api, suspendableList } from '@/lib/api-client';
import { dashboardKeys } from './keys';

/**
 * What waits now, for the Needs Attention card: each figure from the endpoint
 * of the screen where it is dealt with (no API of its own). Read afresh each
 * time the dashboard opens (staleTime 0: a payment matched or a ticket
 * resolved a moment ago must not still show), and by the dashboard's Refresh
 * (the keys are under dashboardKeys.all).
 */
const FRESH = { staleTime: 0 } as const;

/** GET /payments?status=pending&limit=1: how many payments are held for staff to match (the list's total). */
export async function getHeldPaymentCount(signal?: AbortSignal): Promise<number> {
  const reply = await suspendableList(
    api.get<Partial<PaymentListReply> | null>('/payments', { query: { status: 'pending', limit: 1 }, signal }).then((r) => {
      const data = r?.data ?? [];
      return { data, total: r?.pagination?.total ?? data.length };
    }),
    { total: 0 },
  );
  return reply.total;
}

export interface TicketsWaiting {
  /** Open and in progress, across the organization. */
  unresolved: number;
  /** Open and in progress, assigned to the caller. */
  mine: number;
}

/**
 * One call, GET /tickets?status=active&mine=true&limit=1: its total is the
 * caller's unresolved tickets, and its counts are the whole organization's by
 * status whatever the filters (the contract's tab counts).
 */
export async function getTicketsWaiting(signal?: AbortSignal): Promise<TicketsWaiting> {
  const page = await getTickets({ page: 1, limit: 1, status: 'active', mine: true }, signal);
  return { unresolved: page.counts.open + page.counts.in_progress, mine: page.total };
}

export const heldPaymentCountQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.heldPayments(), queryFn: ({ signal }) => getHeldPaymentCount(signal), ...FRESH });

export const ticketsWaitingQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.tickets(), queryFn: ({ signal }) => getTicketsWaiting(signal), ...FRESH });

export const promisesWaitingQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.promises(), queryFn: ({ signal }) => getPromisesSummary(signal), ...FRESH });

/** Staff get only their own row. */
export const cashWaitingQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.cash(), queryFn: ({ signal }) => getCashSummary(signal), ...FRESH });

export const useHeldPaymentCount = () => useQuery(heldPaymentCountQueryOptions());
export const useTicketsWaiting = () => useQuery(ticketsWaitingQueryOptions());
export const usePromisesWaiting = () => useQuery(promisesWaitingQueryOptions());
export const useCashWaiting = () => useQuery(cashWaitingQueryOptions());
