import { z } from 'zod';
import { zQueryInt } from './common.js';
import { zIdInput, zQueryBool } from './fields.js';
import { CASH_OVERDUE_DAYS } from './cash.js';

/**
 * A user's own notifications (the header bell's "For you"): what happened to
 * work of theirs, told to them and nobody else. The platform's notices to a
 * whole organization are GET /notifications.
 *
 * - ticket_assigned: a service ticket was given to the user by someone else;
 * - ticket_resolved: a ticket the user opened was resolved by someone else;
 * - ticket_reopened: a resolved ticket assigned to the user was opened again by someone else;
 * - ticket_noted: someone else added a note to a ticket the user opened or is assigned;
 * - promise_due: a promise to pay the user logged (Collections → Log Contact) is due today and not paid yet;
 * - promise_broken: the day of such a promise went by with nothing paid (told the next business day);
 * - payments_held: (owners and admins) payments were held for matching since the last such notification;
 * - payment_request_answered: M-Pesa answered an M-Pesa Express request the user sent: the customer paid (and what it
 *   bought), cancelled, or could not pay.
 * - cash_overdue: cash collected (Cash in Hand) has not been handed over for more than CASH_OVERDUE_DAYS days: told to
 *   the collector, and to the owners and admins (who record handovers); once for the oldest payment still held.
 * - ticket_reported: (owners and admins) a customer reported a problem themselves (the USSD menu): a ticket nobody
 *   opened or was given, waiting for someone to take it.
 */
export const USER_NOTIFICATION_KINDS = [
  'ticket_assigned',
  'ticket_resolved',
  'ticket_reopened',
  'ticket_noted',
  'promise_due',
  'promise_broken',
  'payments_held',
  'payment_request_answered',
  'cash_overdue',
  'ticket_reported',
] as const;

/** The kinds only owners and admins are told of (the organization's work waiting for someone), not staff. */
export const MANAGER_NOTIFICATION_KINDS: readonly UserNotificationKindName[] = ['payments_held', 'ticket_reported'];
type UserNotificationKindName = (typeof USER_NOTIFICATION_KINDS)[number];
export const ZUserNotificationKindSchema = z.enum(USER_NOTIFICATION_KINDS);
export type UserNotificationKind = z.infer<typeof ZUserNotificationKindSchema>;

/** The most ids one POST /me/notifications/read takes. */
export const MARK_READ_MAX_IDS = 100;

export const ZUserNotificationSchema = z.object({
  id: z.number().int(),
  kind: ZUserNotificationKindSchema,
  message: z.string(),
  /** The ticket it is about (null: not about a ticket). */
  ticket_id: z.number().int().nullable(),
  /** The device it is about: the ticket's, or the one a promise was made for (its page is where a promise leads). */
  serial_number: z.string().nullable(),
  /** Who did it (null: Kidogo itself, for a promise's day). */
  actor: z.string().nullable(),
  /** cash_overdue: the user holding the cash (their ledger on Cash in Hand is where it leads); else null. */
  collector: z.string().nullable(),
  created_at: z.string(),
  /** When the user read it (null: unread). */
  read_at: z.string().nullable(),
});
export type UserNotification = z.infer<typeof ZUserNotificationSchema>;

/** GET /me/notifications: newest first; `before` (an id) pages back through older ones. */
export const ZMyNotificationsQuerySchema = z.object({
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  /** Only the unread ones. */
  unread: zQueryBool,
  /** Only those older than this notification id (the previous page's next_before). */
  before: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
});
export type MyNotificationsQuery = z.input<typeof ZMyNotificationsQuerySchema>;

export const ZMyNotificationsReplySchema = z.object({
  data: z.object({
    items: z.array(ZUserNotificationSchema),
    /** The user's unread notifications in all, whatever the filters (the bell's count). */
    unread: z.number().int(),
    /** Pass as `before` for the next, older page (null: there is none). */
    next_before: z.number().int().nullable(),
  }),
});
export type MyNotificationsReply = z.infer<typeof ZMyNotificationsReplySchema>;

/** POST /me/notifications/read: mark these of the caller's notifications read, or (no ids) all of them. */
export const ZMarkNotificationsReadSchema = z.object({
  ids: z
    .array(zIdInput, { error: 'must be a list of notification ids' })
    .min(1, { error: 'must name at least one notification (leave ids out to mark all read)' })
    .max(MARK_READ_MAX_IDS, { error: `must name at most ${MARK_READ_MAX_IDS} notifications` })
    .optional(),
});
export type MarkNotificationsRead = z.input<typeof ZMarkNotificationsReadSchema>;

export const ZMarkNotificationsReadReplySchema = z.object({
  data: z.object({
    /** How many were unread and are read now. */
    marked: z.number().int(),
    /** The caller's unread notifications left. */
    unread: z.number().int(),
  }),
});
export type MarkNotificationsReadReply = z.infer<typeof ZMarkNotificationsReadReplySchema>;

/** What each kind is called where a user chooses what they are told of. */
export const USER_NOTIFICATION_KIND_LABELS: Record<UserNotificationKind, string> = {
  ticket_assigned: 'A service ticket is assigned to me',
  ticket_resolved: 'A ticket I opened is resolved',
  ticket_reopened: 'A ticket assigned to me is opened again',
  ticket_noted: 'Someone adds a note to a ticket I opened or am assigned',
  promise_due: 'A promise to pay I logged is due today',
  promise_broken: 'A promise to pay I logged was not kept',
  payments_held: 'Payments are held for matching (owners and admins)',
  payment_request_answered: 'A customer I asked to pay (M-Pesa Express) pays or does not',
  cash_overdue: `Cash collected is not handed over within ${CASH_OVERDUE_DAYS} days`,
  ticket_reported: 'A customer reports a problem by USSD (owners and admins)',
};

/**
 * GET /me/notification-settings: the kinds the caller is not told of (every kind is on until turned off), and the
 * kinds they are also emailed (a digest of the new ones each minute, to their account's email address).
 */
export const ZNotificationSettingsSchema = z.object({
  data: z.object({
    muted: z.array(ZUserNotificationKindSchema),
    /** Also emailed (none until chosen); a muted kind is not emailed either. */
    emailed: z.array(ZUserNotificationKindSchema),
    /** Where they go: the account's email address (null: none, so nothing can be emailed). */
    email: z.string().nullable(),
    /** The installation can send email (SMTP_URL is set). */
    email_available: z.boolean(),
    /** (Owners and admins) a summary of the day before is emailed each morning: payments, codes, new customers, what waits. */
    daily_summary: z.boolean(),
  }),
});
export type NotificationSettingsReply = z.infer<typeof ZNotificationSettingsSchema>;

/** PUT /me/notification-settings: the whole list of kinds to turn off ([] turns every kind on). */
export const ZNotificationSettingsInputSchema = z.object({
  muted: z
    .array(z.enum(USER_NOTIFICATION_KINDS, { error: `must be one of ${USER_NOTIFICATION_KINDS.join(', ')}` }), {
      error: 'must be a list of notification kinds',
    })
    .max(USER_NOTIFICATION_KINDS.length, { error: `must name at most ${USER_NOTIFICATION_KINDS.length} kinds` }),
  /** The whole list of kinds also emailed ([] emails none); left out, it stays as it is. */
  emailed: z
    .array(z.enum(USER_NOTIFICATION_KINDS, { error: `must be one of ${USER_NOTIFICATION_KINDS.join(', ')}` }), {
      error: 'must be a list of notification kinds',
    })
    .max(USER_NOTIFICATION_KINDS.length, { error: `must name at most ${USER_NOTIFICATION_KINDS.length} kinds` })
    .optional(),
  /** (Owners and admins) the morning's summary by email on or off; left out, it stays as it is. */
  daily_summary: z.boolean({ error: 'must be true or false' }).optional(),
});
export type NotificationSettingsInput = z.input<typeof ZNotificationSettingsInputSchema>;
