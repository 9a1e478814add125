import { z } from 'zod';
import { zMoneyInput, ZMoneySchema, ZPagePaginationSchema, zQueryInt } from './common.js';
import { ZUsernameSchema } from './users.js';
import { periodInOrder, zPeriodDate } from './metrics.js';

/**
 * Cash in hand: the cash a user collected from customers (the payments they
 * recorded as cash) that they have not handed over to the office yet. An owner
 * or admin records each handover (counted at the office, or a bank deposit
 * slip), so what every agent and clerk holds is known at any time, and money
 * kept too long is seen (README "Cash in hand").
 */

/** The days cash may be held before it shows as overdue for handing over. */
export const CASH_OVERDUE_DAYS = 3;

/** One collector's cash in one currency. */
export const ZCashCollectorSchema = z.object({
  /** Who took the cash (named as the collector of the cash payments, else who recorded them) and so holds it. */
  username: z.string(),
  /** Their role now; null when they are no longer a user of the organization (their cash is still counted). */
  role: z.string().nullable(),
  is_active: z.boolean().nullable(),
  currency: z.string(),
  /** Cash payments they collected, never rejected (a payment reversed off the wrong device was still paid). */
  collected: ZMoneySchema,
  collected_count: z.number().int(),
  /** Handovers recorded, not voided. */
  handed_over: ZMoneySchema,
  handover_count: z.number().int(),
  /** collected − handed_over: what they hold now. */
  in_hand: ZMoneySchema,
  /** When the oldest cash they still hold was paid (first in, first out); null when they hold none. */
  held_since: z.string().nullable(),
  /** Whole days the oldest cash they hold has been held. */
  days_held: z.number().int().nullable(),
  /** Held longer than CASH_OVERDUE_DAYS. */
  overdue: z.boolean(),
  last_collected_at: z.string().nullable(),
  last_handover_at: z.string().nullable(),
});
export type CashCollector = z.infer<typeof ZCashCollectorSchema>;

export const ZCashTotalSchema = z.object({
  currency: z.string(),
  collected: ZMoneySchema,
  handed_over: ZMoneySchema,
  in_hand: ZMoneySchema,
});

/** GET /cash: every collector's cash, the most held first; staff see only their own. */
export const ZCashSummarySchema = z.object({
  data: z.array(ZCashCollectorSchema),
  /** By currency, over the collectors listed. */
  totals: z.array(ZCashTotalSchema),
  overdue_days: z.number().int(),
});
export type CashSummary = z.infer<typeof ZCashSummarySchema>;

const zOptionalText = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .optional()
    .transform((s) => (s ? s : undefined));

/** POST /cash/handovers (owner, admin): cash a collector handed over. */
export const ZCashHandoverInputSchema = z.object({
  /** The username of who handed it over. */
  collector: ZUsernameSchema,
  amount: zMoneyInput({ min: 0.01, max: 100_000_000 }),
  /** The currency of the cash; the one the collector holds when absent (required when they hold two). */
  currency: z
    .string({ error: 'must be text' })
    .trim()
    .regex(/^[A-Za-z]{3}$/, { error: 'must be a 3-letter currency code' })
    .transform((s) => s.toUpperCase())
    .optional(),
  /** When it was handed over (now when absent); not in the future. */
  handed_at: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
    .refine((s) => Date.parse(s) <= Date.now() + 5 * 60_000, { error: 'must not be in the future' })
    .optional(),
  /** A bank deposit slip, a receipt book number. */
  reference: zOptionalText(64),
  note: zOptionalText(300),
});
export type CashHandoverInput = z.input<typeof ZCashHandoverInputSchema>;

export const ZCashHandoverSchema = z.object({
  handover_id: z.number().int(),
  collector: z.string(),
  amount: ZMoneySchema,
  currency: z.string(),
  handed_at: z.string(),
  /** The owner or admin who received it. */
  received_by: z.string(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
  voided_at: z.string().nullable(),
  voided_by: z.string().nullable(),
  void_reason: z.string().nullable(),
});
export type CashHandover = z.infer<typeof ZCashHandoverSchema>;

export const ZCashHandoverReplySchema = z.object({
  message: z.string(),
  handover: ZCashHandoverSchema,
  /** The collector's cash after it. */
  collector: ZCashCollectorSchema,
});
export type CashHandoverReply = z.infer<typeof ZCashHandoverReplySchema>;

/** POST /cash/handovers/{id}/void: a handover recorded by mistake; the cash counts as held again. */
export const ZCashVoidInputSchema = z.object({
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
});
export type CashVoidInput = z.input<typeof ZCashVoidInputSchema>;

/** GET /cash/{username}/ledger: their cash payments and handovers, newest first. */
export const ZCashLedgerQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 25, min: 1, max: 100 }),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, { error: 'must be a 3-letter currency code' })
    .transform((s) => s.toUpperCase())
    .optional(),
});
export type CashLedgerQuery = z.input<typeof ZCashLedgerQuerySchema>;

export const CASH_ENTRY_KINDS = ['payment', 'handover'] as const;

export const ZCashLedgerEntrySchema = z.object({
  kind: z.enum(CASH_ENTRY_KINDS),
  /** The payment's id or the handover's. */
  id: z.number().int(),
  at: z.string(),
  currency: z.string(),
  /** Positive: cash taken in; negative: cash handed over (a voided one too: it changed nothing, in_hand_after leaves it out). */
  amount: ZMoneySchema,
  /** What they held after this entry. */
  in_hand_after: ZMoneySchema,
  /** payment: the device and customer paid for, and the payment's status (pending: reversed off a device, waiting). */
  serial_number: z.string().nullable(),
  item_id: z.number().int().nullable(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  payment_status: z.string().nullable(),
  /** payment: who recorded it, when another user than the collector (a clerk entering an agent's receipt). */
  recorded_by: z.string().nullable(),
  /** payment: its reference; handover: the deposit slip or receipt. */
  reference: z.string().nullable(),
  /** handover: who received it, the note, and whether it was voided (and why). */
  received_by: z.string().nullable(),
  note: z.string().nullable(),
  voided_at: z.string().nullable(),
  voided_by: z.string().nullable(),
  void_reason: z.string().nullable(),
});
export type CashLedgerEntry = z.infer<typeof ZCashLedgerEntrySchema>;

export const ZCashLedgerReplySchema = z.object({
  username: z.string(),
  /** The collector's cash in each currency. */
  balances: z.array(ZCashCollectorSchema),
  data: z.array(ZCashLedgerEntrySchema),
  pagination: ZPagePaginationSchema,
});
export type CashLedgerReply = z.infer<typeof ZCashLedgerReplySchema>;

/** GET /cash/handovers/export (owner, admin): the handovers of a period as CSV, to match against the bank's deposits. */
export const ZCashHandoversExportQuerySchema = z
  .object({
    /** Handed over from this day (inclusive; a business day in TIME_ZONE). */
    from: zPeriodDate().optional(),
    /** Up to this day (inclusive). */
    to: zPeriodDate().optional(),
    /** One collector's only (their username). */
    collector: z.string().trim().min(1, { error: 'must not be empty' }).max(100, { error: 'must be at most 100 characters' }).optional(),
  })
  .refine((q) => periodInOrder(q.from, q.to), { error: 'must not be after to', path: ['from'] });
export type CashHandoversExportQuery = z.input<typeof ZCashHandoversExportQuerySchema>;

/** The columns of cash-handovers-YYYY-MM-DD.csv, newest first; a voided handover has its void columns filled in. */
export const CASH_HANDOVERS_CSV_COLUMNS = [
  'handover_id',
  'handed_at',
  'collector',
  'amount',
  'currency',
  'received_by',
  'reference',
  'note',
  'recorded_at',
  'voided_at',
  'voided_by',
  'void_reason',
] as const;

/** GET /cash/collectors: whom a cash payment can be recorded as collected by: the organization's active users. */
export const ZCashCollectorsReplySchema = z.object({
  data: z.array(z.object({ username: z.string(), role: z.string() })),
});
export type CashCollectorsReply = z.infer<typeof ZCashCollectorsReplySchema>;
