import type { TicketsListQuery } from './types';

/**
 * Query keys of the tickets feature. Opening or updating a ticket refreshes
 * `lists`: the Service Tickets list and its counts, and the cards of the
 * device and customer pages, which are the same list filtered on one serial
 * number or one customer. Updating one
 * also refreshes its `history`, and the ticket itself as a link opened it
 * (`detail`); a ticket just opened has neither cached.
 */
export const ticketKeys = {
  all: ['tickets'] as const,
  lists: () => [...ticketKeys.all, 'list'] as const,
  list: (q: TicketsListQuery) => [...ticketKeys.lists(), q] as const,
  assignees: () => [...ticketKeys.all, 'assignees'] as const,
  history: (ticketId: number) => [...ticketKeys.all, 'history', ticketId] as const,
  detail: (ticketId: number) => [...ticketKeys.all, 'detail', ticketId] as const,
};
