import { Controller, Get, Module, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  TICKET_CATEGORIES,
  ZTicketAssigneesReplySchema,
  ZTicketHistoryReplySchema,
  ZTicketInputSchema,
  ZTicketNoteInputSchema,
  ZTicketReplySchema,
  ZTicketsQuerySchema,
  ZTicketsReplySchema,
  ZTicketUpdateSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { TicketsService, RESOLUTION_REQUIRED } from './tickets.service.js';

const ZTicketParams = zPathId('ticket_id');
type TicketParams = z.output<typeof ZTicketParams>;

/** Service tickets: after-sales work on a device, for any user of the organization (README "Service tickets"). */
@ApiTags('tickets')
@Controller('tickets')
export class TicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Get()
  @Endpoint({
    summary: 'Service tickets, newest first: open and in progress (active, the default), one status, or all; one device\'s; the caller\'s own',
    description: 'counts gives the organization\'s tickets by status, whatever the filters (the tabs of the Service Tickets page).',
    query: ZTicketsQuerySchema,
    response: ZTicketsReplySchema,
    errors: { 400: 'A bad page, limit, status or mine' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZTicketsQuerySchema>, @CurrentUser() user: AuthUser) {
    return this.tickets.list(orgId, q, user);
  }

  @Get('assignees')
  @Endpoint({ summary: 'The active users of the organization a ticket can be assigned to', response: ZTicketAssigneesReplySchema })
  assignees(@OrgId() orgId: string) {
    return this.tickets.assignees(orgId);
  }

  @Get(':ticket_id')
  @Endpoint({ summary: 'One service ticket', params: ZTicketParams, response: ZTicketReplySchema, errors: { 404: 'Ticket not found' } })
  get(@OrgId() orgId: string, @ValidParams() p: TicketParams) {
    return this.tickets.get(orgId, p.ticket_id);
  }

  @Get(':ticket_id/history')
  @Endpoint({
    summary: "Who did what to a service ticket: its Activity Log entries (opened, assigned, moved on, resolved), oldest first; the newest 200 of a longer history",
    params: ZTicketParams,
    response: ZTicketHistoryReplySchema,
    errors: { 404: 'Ticket not found' },
  })
  history(@OrgId() orgId: string, @ValidParams() p: TicketParams) {
    return this.tickets.history(orgId, p.ticket_id);
  }

  @Post()
  @Endpoint({
    summary: 'Open a service ticket for a device, by its serial number, optionally assigned to a user',
    description:
      `category: ${TICKET_CATEGORIES.join(', ')}. The ticket keeps the customer who has the device now. ` +
      'Audited (ticket.opened); webhook event ticket.opened.',
    body: ZTicketInputSchema,
    response: ZTicketReplySchema,
    status: 201,
    errors: { 400: 'A bad or missing serial_number, category or description, or assigned_to not an active user of the organization', 404: 'Device not found' },
  })
  open(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZTicketInputSchema>, @CurrentUser() user: AuthUser) {
    return this.tickets.open(orgId, body, user);
  }

  @Post(':ticket_id/notes')
  @Endpoint({
    summary: 'Add a note to a service ticket (what was found or done) without moving it on; answers its history',
    description:
      'Any user, on a ticket of any status. Audited (ticket.noted, with the note: the ticket\'s history shows it); whoever opened the ' +
      'ticket or is assigned it is told in their notifications (ticket_noted), unless they wrote it.',
    params: ZTicketParams,
    body: ZTicketNoteInputSchema,
    response: ZTicketHistoryReplySchema,
    status: 201,
    errors: { 400: 'A missing or too long note', 404: 'Ticket not found' },
  })
  addNote(
    @OrgId() orgId: string,
    @ValidParams() p: TicketParams,
    @ValidBody() body: z.output<typeof ZTicketNoteInputSchema>,
    @CurrentUser() user: AuthUser,
  ) {
    return this.tickets.addNote(orgId, p.ticket_id, body, user);
  }

  @Patch(':ticket_id')
  @Endpoint({
    summary: 'Move a service ticket on (open, in progress, resolved), assign it (null: to nobody), change its category or resolution',
    description:
      `A resolution ${RESOLUTION_REQUIRED}. Opening a resolved ticket again clears resolved_at. A change is audited ` +
      '(ticket.status_changed when the status changes, else ticket.updated); resolving sends the webhook event ticket.resolved. ' +
      'compensation_days (with status resolved) gives the customer free days for the time the device was down: an add-time code ' +
      'for the device, issued in the same transaction (logged, audited and sent to webhooks as any code staff issue) and answered as token; ' +
      "send_code_sms also queues it to the customer's phone in the organization's reply language (code_sms).",
    params: ZTicketParams,
    body: ZTicketUpdateSchema,
    response: ZTicketReplySchema,
    errors: {
      400: 'A bad field, nothing to change, a missing resolution, compensation_days when not resolving, or assigned_to not an active user of the organization',
      404: 'Ticket not found',
      409: 'Free days for a ticket already resolved, or for a device with no customer, paid off or retired; send_code_sms without an SMS provider or a customer phone',
    },
  })
  update(
    @OrgId() orgId: string,
    @ValidParams() p: TicketParams,
    @ValidBody() body: z.output<typeof ZTicketUpdateSchema>,
    @CurrentUser() user: AuthUser,
  ) {
    return this.tickets.update(orgId, p.ticket_id, body, user);
  }
}

@Module({ imports: [TokensModule, SettingsModule], controllers: [TicketsController], providers: [TicketsService], exports: [TicketsService] })
export class TicketsModule {}
