import { z } from 'zod';
import { ZMoneySchema } from './common.js';

export const MESSAGE_STATUSES = ['received', 'processed', 'duplicate', 'unmatched', 'unparsed', 'rejected'] as const;
export const DELIVERY_STATUSES = ['none', 'queued', 'sending', 'sent', 'failed'] as const;
export const MESSAGE_PAGE_SIZES = [10, 20, 50, 100] as const;

export const ZMessagesQuerySchema = z.object({
  page: z.preprocess(
    (v) => (v === undefined || v === '' ? 1 : typeof v === 'string' ? Number(v) : v),
    z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(1_000_000, { error: 'must be at most 1000000' }),
  ),
  page_size: z.preprocess(
    (v) => (v === undefined || v === '' ? 20 : typeof v === 'string' ? Number(v) : v),
    z.union(MESSAGE_PAGE_SIZES.map((n) => z.literal(n)), { error: `must be one of ${MESSAGE_PAGE_SIZES.join(', ')}` }),
  ),
  search: z.string().trim().max(100).optional(),
});
export type MessagesQuery = z.infer<typeof ZMessagesQuerySchema>;

export const ZMessageRowSchema = z.object({
  id: z.number().int(),
  Incoming: z.string().nullable(),
  Outgoing: z.string().nullable(),
  /** The number the reply goes to, else the incoming sender. */
  'Phone No.': z.string().nullable(),
  /** Who sent the incoming message (the gateway's sender: 'MPESA', a phone number); null for a reply with no incoming message. */
  sender: z.string().nullable(),
  /** The number the reply goes to; null when there is no reply or nobody to send it to. */
  recipient_number: z.string().nullable(),
  amount: ZMoneySchema.nullable(),
  date: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  delivery_status: z.enum(DELIVERY_STATUSES),
  payment_id: z.number().int().nullable(),
  transaction_code: z.string().nullable(),
  /** Why it was not applied: the reason an unparsed message could not be read, or why its payment is held for staff. */
  note: z.string().nullable().optional(),
});
export type MessageRow = z.infer<typeof ZMessageRowSchema>;

export const ZMessageListReplySchema = z.object({
  data: z.array(ZMessageRowSchema),
  total_pages: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  total_items: z.number().int(),
  has_next: z.boolean(),
  has_previous: z.boolean(),
});
export type MessageListReply = z.infer<typeof ZMessageListReplySchema>;

export const ZMessageStatsSchema = z.object({
  /** Incoming messages since midnight in the installation's TIME_ZONE. */
  today: z.number().int(),
  /** Incoming messages in the last 7 days (7 × 24 hours back from now). */
  this_week: z.number().int(),
  processed: z.number().int(),
  duplicate: z.number().int(),
  unmatched: z.number().int(),
  unparsed: z.number().int(),
  /** Money in the processed and unmatched messages (duplicates not counted twice). */
  amount_received: ZMoneySchema,
  outbox: z.object({ queued: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});
export type MessageStats = z.infer<typeof ZMessageStatsSchema>;

export const ZMessageDebugEntrySchema = z.object({
  id: z.number().int(),
  received_at: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  sender: z.string().nullable(),
  received_message: z.string().nullable(),
  raw_payload: z.unknown(),
  parse_error: z.string().nullable(),
  /** The parsed payment (transaction code, amount, payer, reference...) or null. */
  parsed: z.unknown(),
  /** What the receiver answered. */
  result: z.unknown(),
  payment_id: z.number().int().nullable(),
});
export const ZMessageDebugReplySchema = z.object({ data: z.array(ZMessageDebugEntrySchema) });
export type MessageDebugReply = z.infer<typeof ZMessageDebugReplySchema>;
