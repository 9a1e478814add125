import { TICKET_STATUS_FILTERS } from '@kidogo/contracts';
import { paths } from '@/config/paths';
import type { TicketStatusFilter } from '../api/types';

/** What the Service Tickets screen shows, kept in its URL so a reload or a shared link opens the same list. */
export interface TicketsScreenParams {
  status: TicketStatusFilter;
  /** The serial number searched for ('' for none). */
  serial: string;
  /** Only the tickets of this customer, on any of their devices (null for everyone's). */
  customer: number | null;
  /** Only the tickets assigned to the signed-in user. */
  mine: boolean;
  page: number;
  /** The ticket open in the Update dialog over the list (a link from a notification), null for none. */
  ticket: number | null;
}

export const DEFAULT_SCREEN: TicketsScreenParams = { status: 'active', serial: '', customer: null, mine: false, page: 1, ticket: null };

/** A positive whole number, or null. */
function idParam(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The screen's params from its URL; anything else reads as the default. */
export function readTicketsParams(params: URLSearchParams): TicketsScreenParams {
  const status = params.get('status') ?? '';
  const page = Number(params.get('page'));
  return {
    status: (TICKET_STATUS_FILTERS as readonly string[]).includes(status) ? (status as TicketStatusFilter) : 'active',
    serial: (params.get('serial') ?? '').trim(),
    customer: idParam(params.get('customer')),
    mine: params.get('mine') === 'true',
    page: Number.isInteger(page) && page > 1 ? page : 1,
    ticket: idParam(params.get('ticket')),
  };
}

/** Defaults stay out of the URL: /tickets is the active tickets of everyone, page 1. */
export function ticketsSearch({ status, serial, customer, mine, page, ticket }: TicketsScreenParams): string {
  const search = new URLSearchParams();
  if (status !== 'active') search.set('status', status);
  if (serial) search.set('serial', serial);
  if (customer !== null) search.set('customer', String(customer));
  if (mine) search.set('mine', 'true');
  if (page > 1) search.set('page', String(page));
  if (ticket !== null) search.set('ticket', String(ticket));
  return search.toString();
}

/** A link to the Service Tickets screen showing `params` (the rest default). */
export function ticketsHref(params: Partial<TicketsScreenParams> = {}): string {
  const search = ticketsSearch({ ...DEFAULT_SCREEN, ...params });
  return search ? `${paths.app.tickets.getHref()}?${search}` : paths.app.tickets.getHref();
}
