import { z } from 'zod';
import { ZPagePaginationSchema, zQueryInt } from './common.js';
import { ZTokenReplySchema } from './tokens.js';
import { ZDeviceWarrantySchema } from './warranties.js';
import { zIdInput, zOptionalText, zQueryBool, zQueryChoice, zRequiredText, zSearchTerm } from './fields.js';

/**
 * Service tickets: after-sales work on a device (a fault, an installation, a
 * code that does not take, a billing question), from the customer's report to
 * its resolution. A ticket belongs to one device and to the customer who had
 * it when the ticket was opened.
 */
export const TICKET_CATEGORIES = ['device_fault', 'installation', 'token_problem', 'billing', 'other'] as const;
export const ZTicketCategorySchema = z.enum(TICKET_CATEGORIES);
export type TicketCategory = z.infer<typeof ZTicketCategorySchema>;

export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  device_fault: 'Device fault',
  installation: 'Installation',
  token_problem: 'Code not accepted',
  billing: 'Billing question',
  other: 'Other',
};

/** open → in_progress → resolved; a resolved ticket can be opened again. */
export const TICKET_STATUSES = ['open', 'in_progress', 'resolved'] as const;
export const ZTicketStatusSchema = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ZTicketStatusSchema>;

export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
};

/** The list's status filter: `active` is open and in progress together (the default), `all` everything. */
export const TICKET_STATUS_FILTERS = ['active', 'all', ...TICKET_STATUSES] as const;
export type TicketStatusFilter = (typeof TICKET_STATUS_FILTERS)[number];

export const TICKET_DESCRIPTION_MAX = 1000;
export const TICKET_RESOLUTION_MAX = 1000;
/** At most this many free days are given with one resolution (a code for more is issued on the Tokens page). */
export const TICKET_MAX_COMPENSATION_DAYS = 30;

/** A ticket, as every reply gives it. */
export const ZTicketSchema = z.object({
  ticket_id: z.number().int(),
  item_id: z.number().int(),
  serial_number: z.string(),
  product_name: z.string(),
  /** The customer who had the device when the ticket was opened (null: it had none). */
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  category: ZTicketCategorySchema,
  status: ZTicketStatusSchema,
  description: z.string(),
  /** What was done, required to resolve. */
  resolution: z.string().nullable(),
  assigned_to: z.object({ user_id: z.number().int(), username: z.string() }).nullable(),
  opened_by: z.string().nullable(),
  opened_at: z.string(),
  updated_at: z.string(),
  resolved_at: z.string().nullable(),
  /** Whole days from opening to resolving, or to now while it is not resolved. */
  days_open: z.number().int(),
  /** Free days given to the customer with its resolutions, in all, for the time the device was down (null: none). */
  compensation_days: z.number().int().nullable(),
  /**
   * The device's warranty (README "Warranties") while it is still with the ticket's customer, in_warranty as it stood
   * when the ticket was opened (what a claim to the maker is judged by); null otherwise or when its product has none.
   */
  warranty: ZDeviceWarrantySchema.nullable(),
});
export type Ticket = z.infer<typeof ZTicketSchema>;

/**
 * POST /tickets: open a ticket for a device, by its serial number. Any user;
 * assigned_to is a user of the organization (the technician), optional.
 */
export const ZTicketInputSchema = z.object({
  serial_number: zRequiredText(100),
  category: z.enum(TICKET_CATEGORIES, { error: `must be one of ${TICKET_CATEGORIES.join(', ')}` }),
  description: zRequiredText(TICKET_DESCRIPTION_MAX),
  assigned_to: zIdInput.nullable().optional(),
});
export type TicketInput = z.input<typeof ZTicketInputSchema>;

/**
 * PATCH /tickets/{ticket_id}: move it on, hand it to someone else (null: to
 * nobody) or correct the category. `resolution` is required to resolve (and
 * kept from before when the ticket already has one); opening a resolved
 * ticket again clears resolved_at and keeps the resolution as history in the
 * Activity Log.
 */
export const ZTicketUpdateSchema = z
  .object({
    status: z.enum(TICKET_STATUSES, { error: `must be one of ${TICKET_STATUSES.join(', ')}` }).optional(),
    category: z.enum(TICKET_CATEGORIES, { error: `must be one of ${TICKET_CATEGORIES.join(', ')}` }).optional(),
    assigned_to: zIdInput.nullable().optional(),
    resolution: zOptionalText(TICKET_RESOLUTION_MAX),
    /**
     * Free days for the time the device was down, given with the resolution: an add-time code for the device,
     * issued in the same transaction and answered as `token`. Only when resolving.
     */
    compensation_days: z
      .number({ error: 'must be a whole number of days' })
      .int({ error: 'must be a whole number of days' })
      .min(1, { error: 'must be at least 1' })
      .max(TICKET_MAX_COMPENSATION_DAYS, { error: `must be at most ${TICKET_MAX_COMPENSATION_DAYS} (issue a longer code on the Tokens page)` })
      .nullable()
      .optional(),
    /**
     * Also text the free days' code to the customer's phone, in the organization's reply language (queued like a
     * payment's reply; sent even to a customer who texted STOP, as their payment codes are). Only with compensation_days.
     */
    send_code_sms: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.send_code_sms && v.compensation_days == null) {
      ctx.addIssue({ code: 'custom', path: ['send_code_sms'], message: 'is only for the code of free days (give compensation_days)' });
    }
    if (v.compensation_days != null && v.status !== 'resolved') {
      ctx.addIssue({ code: 'custom', path: ['compensation_days'], message: 'is given only when resolving a ticket (status resolved)' });
    }
    if (v.status === undefined && v.category === undefined && v.assigned_to === undefined && v.resolution === undefined) {
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'nothing to change: give status, category, assigned_to or resolution' });
    }
  });
export type TicketUpdate = z.input<typeof ZTicketUpdateSchema>;

/** GET /tickets: newest first; `mine` keeps the caller's own (assigned to them), `serial_number` a device's, `customer_id` a customer's. */
export const ZTicketsQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 25, min: 1, max: 100 }),
  status: zQueryChoice(TICKET_STATUS_FILTERS, 'active'),
  serial_number: zSearchTerm,
  /** One customer's tickets, on any of their devices (those opened while the customer had the device). */
  customer_id: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
  mine: zQueryBool,
});
export type TicketsQuery = z.input<typeof ZTicketsQuerySchema>;

export const ZTicketsReplySchema = z.object({
  data: z.object({
    items: z.array(ZTicketSchema),
    pagination: ZPagePaginationSchema,
    /** Tickets by status across the organization (the tabs' counts), whatever the filters. */
    counts: z.object({ open: z.number().int(), in_progress: z.number().int(), resolved: z.number().int() }),
  }),
});
export type TicketsReply = z.infer<typeof ZTicketsReplySchema>;

/**
 * A ticket; `token` is the code of the free days given with its resolution (PATCH with compensation_days), and
 * `code_sms` the text queued to hand it to the customer (send_code_sms).
 */
export const ZTicketReplySchema = z.object({
  data: ZTicketSchema,
  token: ZTokenReplySchema.optional(),
  code_sms: z.object({ message_id: z.number().int(), recipient_number: z.string(), text: z.string() }).optional(),
});
export type TicketReply = z.infer<typeof ZTicketReplySchema>;

/** GET /tickets/assignees: the active users a ticket can be given to. */
export const ZTicketAssigneesReplySchema = z.object({
  data: z.array(z.object({ user_id: z.number().int(), username: z.string(), role: z.string() })),
});
export type TicketAssigneesReply = z.infer<typeof ZTicketAssigneesReplySchema>;

/** At most this many entries of a ticket's history are given: its newest, oldest first. */
export const TICKET_HISTORY_MAX = 200;

/** GET /tickets/{ticket_id}/history: who did what to the ticket, from the Activity Log, oldest first (the newest TICKET_HISTORY_MAX). */
export const ZTicketHistoryReplySchema = z.object({
  data: z.array(
    z.object({
      at: z.string(),
      /** ticket.opened, ticket.updated, ticket.status_changed or ticket.noted. */
      action: z.string(),
      description: z.string(),
      actor_username: z.string().nullable(),
    }),
  ),
});
export type TicketHistoryReply = z.infer<typeof ZTicketHistoryReplySchema>;

export const TICKET_NOTE_MAX = 1000;

/**
 * POST /tickets/{ticket_id}/notes: what was found or done, without moving the ticket on (a visit, a part
 * ordered, a call to the customer). Any user; kept in the ticket's history and the Activity Log.
 */
export const ZTicketNoteInputSchema = z.object({
  note: zRequiredText(TICKET_NOTE_MAX),
});
export type TicketNoteInput = z.input<typeof ZTicketNoteInputSchema>;
