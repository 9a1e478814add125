// The API's contract (packages/contracts/src/tickets.ts), plus what only these screens need.
import type { TicketHistoryReply, TicketStatusFilter } from '@kidogo/contracts';

export type {
  Ticket,
  TicketAssigneesReply,
  TicketCategory,
  TicketHistoryReply,
  TicketInput,
  TicketReply,
  TicketsReply,
  TicketStatus,
  TicketStatusFilter,
  TicketUpdate,
  TokenReply,
} from '@kidogo/contracts';

/** What a list asks GET /tickets for (the contract's query with its defaults applied). */
export interface TicketsListQuery {
  page: number;
  limit: number;
  status: TicketStatusFilter;
  /** One device's tickets (the device page), or a search on the Service Tickets screen. */
  serial_number?: string;
  /** One customer's tickets, on any of their devices (the customer page). */
  customer_id?: number;
  /** Only the tickets assigned to the signed-in user. */
  mine?: boolean;
}

/** A user a ticket can be given to, as GET /tickets/assignees lists them. */
export interface TicketAssignee {
  user_id: number;
  username: string;
  role: string;
}

/** One line of a ticket's history, as GET /tickets/{ticket_id}/history gives it. */
export type TicketHistoryEntry = TicketHistoryReply['data'][number];
