import { z } from 'zod';
import { isCalendarDay, zMoneyInput, ZMoneySchema, ZOffsetPaginationSchema, zQueryInt, zQueryOffset } from './common.js';
import { ZTokenTypeSchema } from './tokens.js';

export const PAYMENT_STATUSES = ['success', 'completed', 'pending', 'failed'] as const;
export const ZPaymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof ZPaymentStatusSchema>;

export const PAYMENT_METHODS = ['cash', 'bank', 'mobile_money'] as const;
export const ZPaymentMethodSchema = z.enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` });
export type PaymentMethod = z.infer<typeof ZPaymentMethodSchema>;

/** What a payment did: the payments README's rule outcomes. */
export const ALLOCATION_REASONS = ['no_template', 'below_activation', 'below_daily_price', 'activated', 'days_added', 'paid_off'] as const;
export const ZAllocationReasonSchema = z.enum(ALLOCATION_REASONS);

export const ZIssuedTokenSchema = z.object({
  token: z.string(),
  token_type: ZTokenTypeSchema,
  days: z.number(),
  token_count: z.number().int(),
});
export type IssuedToken = z.infer<typeof ZIssuedTokenSchema>;

export const OUTCOME_STATUSES = ['processed', 'duplicate', 'unmatched', 'unparsed'] as const;

/**
 * What happened to one payment (receiver, manual payment, late match, statement row):
 * processed (recorded and applied to a device), duplicate (this transaction code
 * was recorded before: the original result is repeated), unmatched (recorded as
 * pending: no device found), unparsed (the message is stored, no payment found in it).
 */
export const ZPaymentOutcomeSchema = z.object({
  status: z.enum(OUTCOME_STATUSES),
  /** The incoming message row (receiver) or the outgoing one (manual payments). */
  message_id: z.number().int().nullable().optional(),
  payment_id: z.number().int().optional(),
  /** The first token's code, when the payment bought one. */
  token: z.string().optional(),
  /** Days carried by all the tokens of this payment (bought + grace). */
  days: z.number().optional(),
  tokens: z.array(ZIssuedTokenSchema).optional(),
  reason: ZAllocationReasonSchema.optional(),
  /** Why an `unmatched` payment is held for staff although it may name a device (e.g. an SMS from a phone number). */
  hold_reason: z.string().optional(),
  serial_number: z.string().nullable().optional(),
  transaction_code: z.string().nullable().optional(),
  amount: ZMoneySchema.optional(),
  /** Credit carried on the device after this payment. */
  credit: ZMoneySchema.optional(),
  /** Still to pay before the device is paid off; null when the plan has no payoff price. */
  remaining_balance: ZMoneySchema.nullable().optional(),
  /** The SMS queued to the payer. */
  reply_message: z.string().nullable().optional(),
  /** Why an unparsed message could not be read. */
  error: z.string().optional(),
  /**
   * A customer's request, answered by reply_message, no payment: 'balance' (a text of BAL, BALANCE or SALIO from
   * their phone), 'code' (CODE, TOKEN or NAMBA: each device's last code again), 'sms_opt_out' (STOP: no more texts
   * nobody asked for), 'sms_opt_in' (START: they may come again).
   */
  request: z.enum(['balance', 'code', 'sms_opt_out', 'sms_opt_in']).optional(),
  /** STOP and START: the customers with the sender's phone whose choice it changed (all of them share the phone). */
  customers: z.number().int().optional(),
});
export type PaymentOutcome = z.infer<typeof ZPaymentOutcomeSchema>;

export const ZReceiveReplySchema = ZPaymentOutcomeSchema.extend({ message_id: z.number().int() });
export type ReceiveReply = z.infer<typeof ZReceiveReplySchema>;

/**
 * The receiver's accepted bodies (JSON or form-encoded). Nothing is refused:
 * an unreadable body is stored and answered `unparsed`.
 */
export const ZReceiverBodySchema = z
  .looseObject({
    message: z.unknown().optional().describe('SMS text (also: text, body, msg, content)'),
    text: z.unknown().optional(),
    body: z.unknown().optional(),
    from: z.unknown().optional().describe('Sender of the SMS, e.g. MPESA (also: sender, phone, phoneNumber, address)'),
    sender: z.unknown().optional(),
    received_at: z.unknown().optional().describe('Epoch seconds or milliseconds, or ISO 8601 (also: receivedStamp, timestamp, date, sentStamp)'),
    timestamp: z.unknown().optional(),
    sentStamp: z.unknown().optional(),
    recipient: z.unknown().optional().describe('The line that received the SMS (also: to)'),
    TransactionType: z.unknown().optional().describe('Daraja C2B confirmation: TransactionType, TransID, TransTime, TransAmount, BusinessShortCode, BillRefNumber, MSISDN, FirstName, MiddleName, LastName'),
    TransID: z.unknown().optional(),
    TransTime: z.unknown().optional(),
    TransAmount: z.unknown().optional(),
    BusinessShortCode: z.unknown().optional(),
    BillRefNumber: z.unknown().optional(),
    MSISDN: z.unknown().optional(),
    FirstName: z.unknown().optional(),
    MiddleName: z.unknown().optional(),
    LastName: z.unknown().optional(),
  })
  .describe('An SMS forwarder body or a Safaricom Daraja C2B confirmation');
export type ReceiverBody = z.infer<typeof ZReceiverBodySchema>;

export const ZManualPaymentSchema = z
  .object({
    serial_number: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
    amount: zMoneyInput({ min: 0.01, max: 100_000_000 }),
    payment_method: ZPaymentMethodSchema,
    /** Receipt or bank reference; a reference already recorded returns the original payment. */
    reference: z.string().trim().min(1, { error: 'must not be blank' }).max(64, { error: 'must be at most 64 characters' }).optional(),
    paid_at: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
      .refine((s) => Date.parse(s) <= Date.now() + 5 * 60_000, { error: 'must not be in the future' })
      .optional(),
    /**
     * Cash only: the username of the user who took the cash and holds it until they hand it over (README "Cash in
     * hand"), an active user of the organization; whoever records the payment when absent.
     */
    collected_by: z
      .string({ error: 'must be text' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(100, { error: 'must be at most 100 characters' })
      .optional(),
  })
  .refine((p) => p.collected_by === undefined || p.payment_method === 'cash', {
    error: 'is only for a cash payment',
    path: ['collected_by'],
  });
export type ManualPaymentInput = z.infer<typeof ZManualPaymentSchema>;

export const ZMatchPaymentSchema = z.object({
  serial_number: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
});
export type MatchPaymentInput = z.infer<typeof ZMatchPaymentSchema>;

/** Why staff set a payment aside or took it back, kept on the payment and in the audit log. */
const zStaffReason = z
  .string({ error: 'is required' })
  .trim()
  .min(3, { error: 'must say why, in at least 3 characters' })
  .max(200, { error: 'must be at most 200 characters' });

/** POST /payments/{id}/reject: a held payment staff will not apply (refunded, sent to the wrong business, a fake confirmation). */
export const ZRejectPaymentSchema = z.object({
  reason: zStaffReason,
});
export type RejectPaymentInput = z.infer<typeof ZRejectPaymentSchema>;

export const ZRejectPaymentReplySchema = z.object({
  message: z.string(),
  payment_id: z.number().int(),
  status: z.literal('failed'),
  /** 'Rejected by {username}: {reason}', kept as the payment's hold_reason. */
  hold_reason: z.string(),
});
export type RejectPaymentReply = z.infer<typeof ZRejectPaymentReplySchema>;

/**
 * POST /payments/{id}/reverse: a completed payment applied to the wrong
 * device (a mistyped account number, a cash entry on the wrong serial). The
 * device's account goes back to what it was before the payment, and the
 * payment is held again, for staff to match to the right device or reject.
 */
export const ZReversePaymentSchema = z.object({
  reason: zStaffReason,
});
export type ReversePaymentInput = z.infer<typeof ZReversePaymentSchema>;

export const ZReversePaymentReplySchema = z.object({
  message: z.string(),
  payment_id: z.number().int(),
  status: z.literal('pending'),
  /** 'Reversed from {serial} by {username}: {reason}', kept as the payment's hold_reason until it is matched or rejected. */
  hold_reason: z.string(),
  /** The device the payment was taken off, with its account after the reversal. */
  serial_number: z.string(),
  total_paid: z.string(),
  credit: z.string(),
  credit_until: z.string().nullable(),
  /** Days of use taken back from the device (the tokens' days, grace days included). */
  days_removed: z.number().int(),
  /** True when the payment was the one that activated the device: it is not activated any more. */
  deactivated: z.boolean(),
});
export type ReversePaymentReply = z.infer<typeof ZReversePaymentReplySchema>;

export const zQueryDate = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(s) && isCalendarDay(s) && !Number.isNaN(Date.parse(s)), { error: 'must be a date (YYYY-MM-DD) or an ISO 8601 date and time' });

export const ZPaymentListQuerySchema = z.object({
  status: ZPaymentStatusSchema.optional(),
  method: ZPaymentMethodSchema.optional(),
  /** From this day (inclusive; a business day, in TIME_ZONE), on paid_at. */
  from: zQueryDate.optional(),
  /** Up to this day (inclusive when a date only). */
  to: zQueryDate.optional(),
  customer_id: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
    z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(2_147_483_647).optional(),
  ),
  serial_number: z.string().trim().min(1).max(100).optional(),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  offset: zQueryOffset(),
});
export type PaymentListQuery = z.infer<typeof ZPaymentListQuerySchema>;

export const ZPaymentSchema = z.object({
  payment_id: z.number().int(),
  amount: ZMoneySchema,
  currency: z.string(),
  status: ZPaymentStatusSchema,
  payment_method: z.string(),
  source: z.string(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  serial_number: z.string().nullable(),
  transaction_code: z.string().nullable(),
  account_reference: z.string().nullable(),
  payer_phone: z.string().nullable(),
  payer_name: z.string().nullable(),
  days_bought: z.number().int(),
  credit_after: ZMoneySchema.nullable(),
  recorded_by: z.string().nullable(),
  /** Why a pending payment waits for staff to match it (no single device matched, another currency, …), or why staff rejected it ('Rejected by …: …'); null otherwise. */
  hold_reason: z.string().nullable(),
  paid_at: z.string(),
  created_at: z.string(),
});
export type Payment = z.infer<typeof ZPaymentSchema>;

export const ZPaymentListReplySchema = z.object({ data: z.array(ZPaymentSchema), pagination: ZOffsetPaginationSchema });
export type PaymentListReply = z.infer<typeof ZPaymentListReplySchema>;

export const ZStatementImportReplySchema = z.object({
  /** New payments recorded (applied to a device, or pending a match): applied + held.length. */
  imported: z.number().int(),
  /** Rows already recorded (same transaction code) and rows that are not money received: duplicates + not_received. */
  skipped: z.number().int(),
  /** Rows that could not be read or recorded; row 2 is the first row under the header. */
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
  /** Of imported: payments applied to their device (tokens issued as the plan allows, reply SMS queued). */
  applied: z.number().int(),
  /**
   * Of imported: payments recorded as pending because no single device could be
   * given the money; staff match them (POST /payments/{payment_id}/match).
   */
  held: z.array(
    z.object({
      row: z.number().int(),
      payment_id: z.number().int(),
      transaction_code: z.string(),
      amount: ZMoneySchema,
      reason: z.string(),
    }),
  ),
  /** Of skipped: receipts recorded before (an earlier statement, an SMS, a staff entry). */
  duplicates: z.number().int(),
  /** Of skipped: rows that are not money received (withdrawals, charges, transactions not completed). */
  not_received: z.number().int(),
});
export type StatementImportReply = z.infer<typeof ZStatementImportReplySchema>;
