import { TICKET_STATUS_FILTERS } from '@kidogo/contracts';
import { paths } from '@/config/paths';
import type { TicketStatusFilter } from '../api/types';

/** What the Service Tickets screen shows, kept in its URL so a reload or a shared link opens the same list. */
export interface TicketsScreenParams {
  status: TicketStatusFilter;
  /** The serial number searched for ('' for none). */
  serial: string;
  /** Only the tickets assigned to the signed-in user. */
  mine: boolean;
  page: number;
}

export const DEFAULT_SCREEN: TicketsScreenParams = { status: 'active', serial: '', mine: false, page: 1 };

/** The screen's params from its URL; anything else reads as the default. */
export function readTicketsParams(params: URLSearchParams): TicketsScreenParams {
  const status = params.get('status') ?? '';
  const page = Number(params.get('page'));
  return {
    status: (TICKET_STATUS_FILTERS as readonly string[]).includes(status) ? (status as TicketStatusFilter) : 'active',
    serial: (params.get('serial') ?? '').trim(),
    mine: params.get('mine') === 'true',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** Defaults stay out of the URL: /tickets is the active tickets of everyone, page 1. */
export function ticketsSearch({ status, serial, mine, page }: TicketsScreenParams): string {
  const search = new URLSearchParams();
  if (status !== 'active') search.set('status', status);
  if (serial) search.set('serial', serial);
  if (mine) search.set('mine', 'true');
  if (page > 1) search.set('page', String(page));
  return search.toString();
}

/** A link to the Service Tickets screen showing `params` (the rest default). */
export function ticketsHref(params: Partial<TicketsScreenParams> = {}): string {
  const search = ticketsSearch({ ...DEFAULT_SCREEN, ...params });
  return search ? `${paths.app.tickets.getHref()}?${search}` : paths.app.tickets.getHref();
}
