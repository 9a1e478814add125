import { z } from 'zod';
import { zQueryInt } from './common.js';
import { zIdInput, zRequiredText } from './fields.js';

/**
 * The customers' USSD menu (README "USSD menu"): a customer dials the
 * organization's USSD code (Africa's Talking or any gateway that speaks its
 * callback) and, from their own phone, reads their balance, gets their last
 * code again, pays, or reports a problem, without a smartphone or data.
 * The gateway posts each step to the organization's own address,
 * PUBLIC_URL/payg/external/ussd/{key}; the reply is plain text, "CON …" for a
 * screen that waits for an answer and "END …" for the last one.
 */

/** What the gateway posts each step (form-encoded or JSON): `text` is every answer so far, joined by `*`. */
export const ZUssdRequestSchema = z.object({
  sessionId: zRequiredText(100),
  serviceCode: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string({ error: 'must be text' }).trim().max(40, { error: 'must be at most 40 characters' }).optional()),
  phoneNumber: zRequiredText(30),
  networkCode: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string({ error: 'must be text' }).trim().max(20, { error: 'must be at most 20 characters' }).optional()),
  text: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ error: 'must be text' }).max(500, { error: 'must be at most 500 characters' })),
});
export type UssdRequest = z.input<typeof ZUssdRequestSchema>;

/** The organization's USSD address: a secret known to it and its gateway only. */
export const ZUssdParamsSchema = z.object({ key: z.string().min(1).max(200) });

/** What became of a session, as far as it went. */
export const USSD_OUTCOMES = ['menu', 'balance', 'code', 'pay', 'pay_refused', 'ticket', 'not_registered', 'not_identified', 'unavailable'] as const;
export type UssdOutcome = (typeof USSD_OUTCOMES)[number];
export const USSD_OUTCOME_LABELS: Record<UssdOutcome, string> = {
  menu: 'Looked at the menu',
  balance: 'Balance',
  code: 'Last code (sent by SMS)',
  pay: 'Asked to pay',
  pay_refused: 'Payment not sent',
  ticket: 'Problem reported',
  not_registered: 'Phone not registered',
  not_identified: 'ID number not matched',
  unavailable: 'Menu turned off',
};

/** GET /settings/ussd: whether the menu is on, its address, and how much it is used. */
export const ZUssdSettingsSchema = z.object({
  enabled: z.boolean(),
  /** The address to give the USSD gateway as its callback URL; null while the menu is off. */
  callback_url: z.string().nullable(),
  enabled_at: z.string().nullable(),
  enabled_by: z.string().nullable(),
  /** Sessions of the last 7 days, and customers who dialled in them. */
  sessions_7d: z.number().int(),
  customers_7d: z.number().int(),
  last_session_at: z.string().nullable(),
  /** The service code (*384*123#) the gateway last posted, to show back. */
  service_code: z.string().nullable(),
});
export type UssdSettings = z.infer<typeof ZUssdSettingsSchema>;
export const ZUssdSettingsReplySchema = z.object({ data: ZUssdSettingsSchema, message: z.string().optional() });
export type UssdSettingsReply = z.infer<typeof ZUssdSettingsReplySchema>;

/** PUT /settings/ussd: turn the menu on (an address is made the first time) or off (the address stops answering). */
export const ZUssdSettingsInputSchema = z
  .object({ enabled: z.boolean({ error: 'must be true or false' }) })
  .strict();
export type UssdSettingsInput = z.input<typeof ZUssdSettingsInputSchema>;

/** POST /settings/ussd/try: the menu as a phone would see it, without sending, asking or opening anything. */
export const ZUssdTryInputSchema = z
  .object({
    phone_number: zRequiredText(30),
    /** The answers so far, joined by `*` ("" for the first screen). */
    text: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ error: 'must be text' }).max(500, { error: 'must be at most 500 characters' })),
  })
  .strict();
export type UssdTryInput = z.input<typeof ZUssdTryInputSchema>;
export const ZUssdTryReplySchema = z.object({
  /** The screen's text, without CON or END. */
  screen: z.string(),
  /** true: the last screen (END), the session is over. */
  end: z.boolean(),
  outcome: z.enum(USSD_OUTCOMES),
  /** What the real menu would have done at this step (sent the code by SMS, asked to pay, opened a ticket); null for none. */
  would: z.string().nullable(),
});
export type UssdTryReply = z.infer<typeof ZUssdTryReplySchema>;

/** One customer's dial of the menu. */
export const ZUssdSessionSchema = z.object({
  session_id: z.string(),
  phone_number: z.string(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  service_code: z.string().nullable(),
  /** Screens answered. */
  steps: z.number().int(),
  outcome: z.enum(USSD_OUTCOMES),
  /** The device, ticket or payment request it ended with. */
  detail: z.string().nullable(),
  started_at: z.string(),
  updated_at: z.string(),
});
export type UssdSession = z.infer<typeof ZUssdSessionSchema>;

/** GET /settings/ussd/sessions: newest first; `before` (the previous page's next_before) pages back. */
export const ZUssdSessionsQuerySchema = z.object({
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  before: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
});
export type UssdSessionsQuery = z.input<typeof ZUssdSessionsQuerySchema>;
export const ZUssdSessionsReplySchema = z.object({
  data: z.array(ZUssdSessionSchema),
  next_before: z.number().int().nullable(),
});
export type UssdSessionsReply = z.infer<typeof ZUssdSessionsReplySchema>;
