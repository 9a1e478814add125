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
  /** The user who wrote an outgoing SMS to a customer (POST /customers/{id}/sms); null for replies and reminders. */
  sent_by: z.string().nullable().optional(),
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

/** The GSM 03.38 characters an SMS carries at 7 bits each; the ones after the escape count twice. */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM7_EXTENDED = new Set('^{}\\[~]|€');

/**
 * How many SMS a text is sent as: 160 characters in one (153 a part when
 * split) in the GSM alphabet, where ^ { } \ [ ~ ] | € take two; any other
 * character (an emoji, a curly quote) sends the whole text as UCS-2, 70 in
 * one and 67 a part.
 */
export function smsParts(text: string): { encoding: 'GSM-7' | 'UCS-2'; length: number; parts: number } {
  const chars = [...text];
  if (chars.every((c) => GSM7_BASIC.has(c) || GSM7_EXTENDED.has(c))) {
    const length = chars.reduce((n, c) => n + (GSM7_EXTENDED.has(c) ? 2 : 1), 0);
    return { encoding: 'GSM-7', length, parts: length <= 160 ? 1 : Math.ceil(length / 153) };
  }
  const length = text.length; // UTF-16 code units: an emoji takes two
  return { encoding: 'UCS-2', length, parts: length <= 70 ? 1 : Math.ceil(length / 67) };
}

/** The most SMS one text from staff may be sent as. */
export const MAX_SMS_PARTS = 3;

/** POST /customers/{id}/sms: a text from staff to the customer (a call not answered, a visit planned). */
export const ZCustomerSmsSchema = z.object({
  text: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .refine((s) => smsParts(s).parts <= MAX_SMS_PARTS, {
      error: `must fit in ${MAX_SMS_PARTS} SMS (459 plain characters, or 201 with emoji or other special characters)`,
    }),
  /** The device it is about, one of the customer's: the message then shows in that device's history too. */
  serial_number: z.string().trim().min(1).max(100).optional(),
});
export type CustomerSmsInput = z.infer<typeof ZCustomerSmsSchema>;

export const ZCustomerSmsReplySchema = z.object({
  message: z.string(),
  message_id: z.number().int(),
  recipient_number: z.string(),
  parts: z.number().int(),
  delivery_status: z.literal('queued'),
});
export type CustomerSmsReply = z.infer<typeof ZCustomerSmsReplySchema>;
