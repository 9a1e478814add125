import { z } from 'zod';
import { ZMoneySchema, ZPagePaginationSchema, zQueryInt } from './common.js';
import { NO_AGENT } from './collections.js';
import { zIdInput } from './fields.js';

/**
 * Agent commission payouts (README "Agent commissions"): once a month is over,
 * each sales agent's commission for it (Settings → Agent Commissions, reckoned
 * as the Agent report does) is paid and recorded here, the amount frozen as it
 * was reckoned when paid. What every agent was paid, and what is still owed,
 * is known at any time; a payout recorded by mistake is voided with why.
 */

/** A calendar month, "2026-11": its business days in the installation's time zone. */
export const zMonth = () =>
  z
    .string({ error: 'is required' })
    .trim()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month as YYYY-MM' })
    .refine((m) => m >= '2000-01', { error: 'must be 2000-01 or later' });

/** GET /commissions?month=YYYY-MM and GET /commissions/export?month=YYYY-MM. */
export const ZCommissionMonthQuerySchema = z.object({ month: zMonth() });
export type CommissionMonthQuery = z.input<typeof ZCommissionMonthQuerySchema>;

/** One commission paid to an agent for a month. */
export const ZCommissionPayoutSchema = z.object({
  payout_id: z.number().int(),
  agent: z.string(),
  /** "YYYY-MM". */
  month: z.string(),
  /** What the amount was reckoned from when it was paid: the month's devices given and payments collected. */
  devices_given: z.number().int(),
  payments: z.number().int(),
  revenue: ZMoneySchema,
  /** The commission settings it was reckoned with. */
  per_device: ZMoneySchema,
  percent: ZMoneySchema,
  /** What was paid: the commission reckoned when it was recorded, frozen. */
  amount: ZMoneySchema,
  /** An M-Pesa or bank transfer code, a receipt number. */
  reference: z.string().nullable(),
  note: z.string().nullable(),
  paid_by: z.string(),
  paid_at: z.string(),
  voided_at: z.string().nullable(),
  voided_by: z.string().nullable(),
  void_reason: z.string().nullable(),
});
export type CommissionPayout = z.infer<typeof ZCommissionPayoutSchema>;

export const COMMISSION_STATUSES = ['paid', 'unpaid', 'nothing_due'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** One agent's month. */
export const ZCommissionAgentSchema = z.object({
  agent: z.string(),
  /** Reckoned now, as the Agent report does for the month. */
  devices_given: z.number().int(),
  payments: z.number().int(),
  revenue: ZMoneySchema,
  commission: ZMoneySchema,
  /** paid: a payout stands; unpaid: a commission above 0 and no payout; nothing_due: 0 and no payout. */
  status: z.enum(COMMISSION_STATUSES),
  payout: ZCommissionPayoutSchema.nullable(),
  /**
   * Paid, and the commission reckoned now differs from what was paid (a payment reversed or
   * recorded late, the settings changed): commission − amount paid. Null otherwise.
   */
  difference: ZMoneySchema.nullable(),
});
export type CommissionAgent = z.infer<typeof ZCommissionAgentSchema>;

/** GET /commissions?month=YYYY-MM (owner, admin): every agent's commission for the month and whether it was paid. */
export const ZCommissionMonthSchema = z.object({
  month: z.string(),
  /** The month's first instant and the next month's, in the installation's time zone. */
  from: z.string(),
  until: z.string(),
  /** The month is over: its commissions may be paid. */
  closed: z.boolean(),
  /** When the commissions were reckoned: now, or on a large organization up to a minute ago (the payouts are always now). */
  reckoned_at: z.string(),
  /** The settings the commissions are reckoned with now. */
  per_device: ZMoneySchema,
  percent: ZMoneySchema,
  /** Agents with devices given or payments in the month, or a payout for it; the most commission first. */
  data: z.array(ZCommissionAgentSchema),
  totals: z.object({
    commission: ZMoneySchema,
    /** What the month's standing payouts paid. */
    paid: ZMoneySchema,
    /** The commission of the agents not paid yet. */
    unpaid: ZMoneySchema,
    paid_count: z.number().int(),
    unpaid_count: z.number().int(),
  }),
  /** The month's voided payouts, newest first. */
  voided: z.array(ZCommissionPayoutSchema),
});
export type CommissionMonth = z.infer<typeof ZCommissionMonthSchema>;

const zOptionalNote = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .optional()
    .transform((s) => (s ? s : undefined));

/** POST /commissions/payouts (owner, admin): record that an agent's commission for a month that is over was paid. */
export const ZCommissionPayoutInputSchema = z.object({
  /** The agent as the Agent report names them (the customers' Agent ID). */
  agent: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .max(64, { error: 'must be at most 64 characters' })
    .refine((a) => a !== NO_AGENT, { error: 'customers without an agent earn no commission' }),
  month: zMonth(),
  /** An M-Pesa or bank transfer code, a receipt number. */
  reference: zOptionalNote(64),
  note: zOptionalNote(300),
});
export type CommissionPayoutInput = z.input<typeof ZCommissionPayoutInputSchema>;

export const ZCommissionPayoutReplySchema = z.object({
  message: z.string(),
  payout: ZCommissionPayoutSchema,
});
export type CommissionPayoutReply = z.infer<typeof ZCommissionPayoutReplySchema>;

/**
 * POST /commissions/payouts/all (owner, admin): record every agent still owed for a month that is over as paid, at
 * once (a bank's bulk transfer, a batch of M-Pesa payments). `total` is the unpaid total the owner confirmed: when
 * the month reckoned now owes another total (a payment came in, an agent was paid meanwhile), nothing is recorded.
 */
export const ZCommissionPayAllInputSchema = z.object({
  month: zMonth(),
  total: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: 'must be the total owed you confirmed, a number' })
      .positive({ error: 'must be more than 0' })
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'must have at most 2 decimals' }),
  ),
  /** The bank batch or M-Pesa bulk payment reference, the same on every payout. */
  reference: zOptionalNote(64),
  note: zOptionalNote(300),
});
export type CommissionPayAllInput = z.input<typeof ZCommissionPayAllInputSchema>;

export const ZCommissionPayAllReplySchema = z.object({
  message: z.string(),
  /** The payouts recorded, the most commission first. */
  payouts: z.array(ZCommissionPayoutSchema),
  total: ZMoneySchema,
});
export type CommissionPayAllReply = z.infer<typeof ZCommissionPayAllReplySchema>;

export const ZCommissionPayoutParamsSchema = z.object({ payout_id: zIdInput });

/** POST /commissions/payouts/{payout_id}/void: a payout recorded by mistake; the commission shows as unpaid again. */
export const ZCommissionVoidInputSchema = z.object({
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
});
export type CommissionVoidInput = z.input<typeof ZCommissionVoidInputSchema>;

/** GET /commissions/payouts: the payouts recorded, newest month first; one agent's with ?agent=. */
export const ZCommissionPayoutsQuerySchema = z.object({
  agent: z.string().trim().min(1, { error: 'must not be empty' }).max(64, { error: 'must be at most 64 characters' }).optional(),
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 25, min: 1, max: 100 }),
});
export type CommissionPayoutsQuery = z.input<typeof ZCommissionPayoutsQuerySchema>;

export const ZCommissionPayoutListSchema = z.object({
  data: z.array(ZCommissionPayoutSchema),
  /** What the payouts listed (every page, voided left out) paid. */
  total_paid: ZMoneySchema,
  pagination: ZPagePaginationSchema,
});
export type CommissionPayoutList = z.infer<typeof ZCommissionPayoutListSchema>;

/** The columns of commissions-YYYY-MM.csv (GET /commissions/export), one row an agent, as the month's page shows them. */
export const COMMISSIONS_CSV_COLUMNS = [
  'month',
  'agent',
  'devices_given',
  'payments',
  'revenue',
  'commission',
  'status',
  'paid_amount',
  'difference',
  'reference',
  'paid_by',
  'paid_at',
  'note',
] as const;
