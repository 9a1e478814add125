import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { ticketKeys } from './keys';
import type { Ticket, TicketsListQuery, TicketsReply } from './types';

/** The contract's default page size. */
export const TICKETS_PAGE_SIZE = 25;

export type TicketCounts = TicketsReply['data']['counts'];

export interface TicketsPage {
  data: Ticket[];
  total: number;
  totalPages: number;
  /** Tickets by status across the organization, whatever the filters: the tabs' counts. */
  counts: TicketCounts;
}

const NO_COUNTS: TicketCounts = { open: 0, in_progress: 0, resolved: 0 };

/** GET /tickets: newest first. */
export const getTickets = (q: TicketsListQuery, signal?: AbortSignal) =>
  suspendableList<TicketsPage>(
    api
      .get<Partial<TicketsReply> | null>('/tickets', {
        query: { page: q.page, limit: q.limit, status: q.status, serial_number: q.serial_number, customer_id: q.customer_id, mine: q.mine ? true : undefined },
        signal,
      })
      .then((reply) => {
        const data = reply?.data?.items ?? [];
        const total = reply?.data?.pagination?.total ?? data.length;
        return {
          data,
          total,
          totalPages: reply?.data?.pagination?.total_pages ?? Math.ceil(total / q.limit),
          counts: { ...NO_COUNTS, ...reply?.data?.counts },
        };
      }),
    { total: 0, totalPages: 0, counts: NO_COUNTS },
  );

export const ticketsQueryOptions = (q: TicketsListQuery) =>
  queryOptions({ queryKey: ticketKeys.list(q), queryFn: ({ signal }) => getTickets(q, signal) });

/** The previous page stays on screen while the next one loads, so the table does not jump. */
export const useTickets = (q: TicketsListQuery) => useQuery({ ...ticketsQueryOptions(q), placeholderData: keepPreviousData });
