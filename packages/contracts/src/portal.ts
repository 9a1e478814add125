import { z } from 'zod';
import { zRequiredText } from './fields.js';
import { PAYMENT_REQUEST_PROVIDERS, PAYMENT_REQUEST_STATUSES, checkProviderAmount, zRequestAmount } from './mpesa-express.js';

/**
 * A customer's own page (README "The customer's page"): what their devices
 * have, what is left to pay, their last payments and codes, opened from a
 * link staff send them, without signing in. The link holds a secret token;
 * Kidogo keeps only its sha256.
 */

/** How long a link works. */
export const PORTAL_LINK_DAYS = 30;
/** The payments and the codes a page lists, newest first. */
export const PORTAL_LIST_MAX = 10;
/** The path of the page in the web app: `${origin}${PORTAL_PATH}/${token}`. */
export const PORTAL_PATH = '/my';

/** A customer's link as staff see it: when it was made and by whom, until when it works, how often it was opened. */
export const ZPortalLinkStateSchema = z.object({
  created_at: z.string(),
  created_by: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
  last_viewed_at: z.string().nullable(),
  views: z.number().int(),
});
export type PortalLinkState = z.infer<typeof ZPortalLinkStateSchema>;

/** GET /customers/{id}/portal-link: the customer's link, or null for none. The token itself is never shown again. */
export const ZPortalLinkReplySchema = z.object({ link: ZPortalLinkStateSchema.nullable() });
export type PortalLinkReply = z.infer<typeof ZPortalLinkReplySchema>;

/** POST /customers/{id}/portal-link: a new link (the customer's last one stops working). */
export const ZPortalLinkCreatedSchema = z.object({
  message: z.string(),
  /** The secret part of the link; shown this once. */
  token: z.string(),
  /** The whole link when the installation knows its address (PUBLIC_URL); else null, and the web app adds its own. */
  url: z.string().nullable(),
  link: ZPortalLinkStateSchema,
});
export type PortalLinkCreated = z.infer<typeof ZPortalLinkCreatedSchema>;

export const ZPortalDeviceSchema = z.object({
  serial_number: z.string(),
  product_name: z.string(),
  /** on: credit left; off: credit ran out (or never came); paid_off: the customer owns it. */
  state: z.enum(['on', 'off', 'paid_off']),
  /** When the credit runs out (or ran out); null when it never had any. */
  credit_until: z.string().nullable(),
  /** Business days from today to that day: 0 today, negative once it ran out; null without credit. */
  days_left: z.number().int().nullable(),
  total_paid: z.string(),
  /** Still to pay off; null when the plan sets no price to own it. */
  remaining: z.string().nullable(),
  currency: z.string(),
  /** The plan's price of a day; null without a plan. */
  daily_price: z.string().nullable(),
});
export type PortalDevice = z.infer<typeof ZPortalDeviceSchema>;

/** How often a customer may ask their phone to pay from their page: at most this many requests an hour. */
export const PORTAL_PAY_PER_HOUR = 5;

/** A way the customer can pay from their page: one of the organization's Ask to Pay providers that is ready. */
export const ZPortalPayWithSchema = z.object({
  provider: z.enum(PAYMENT_REQUEST_PROVIDERS),
  label: z.string(),
  /** The money its requests are in. */
  currency: z.string(),
  /** Whether amounts may have cents. */
  decimals: z.boolean(),
  /** The most one request may ask for. */
  max_amount: z.number(),
});
export type PortalPayWith = z.infer<typeof ZPortalPayWithSchema>;

/** GET /portal/{token}: the page's content. Nothing but what the customer may see of themselves. */
export const ZPortalViewSchema = z.object({
  organization_name: z.string(),
  /** The language the organization writes to its customers in (its reply language): the page's. */
  language: z.enum(['en', 'sw', 'fr']),
  /** The paybill or till number customers pay to, as the organization set it for its agreement; null when not set. */
  paybill: z.string().nullable(),
  /** The customer's first name only. */
  first_name: z.string(),
  devices: z.array(ZPortalDeviceSchema),
  /** The last payments applied, newest first. */
  payments: z.array(
    z.object({ paid_at: z.string(), serial_number: z.string(), amount: z.string(), currency: z.string(), receipt: z.string().nullable(), days: z.number() }),
  ),
  /** The last codes issued to the customer's devices, newest first: one lost from an SMS can be typed again. */
  codes: z.array(z.object({ created_at: z.string(), serial_number: z.string(), token: z.string(), token_type: z.string(), days: z.number() })),
  /** When these figures were read. */
  as_of: z.string(),
  /** Until when the link works. */
  link_expires_at: z.string(),
  /**
   * The ways the customer can pay a device from the page (Pay Now): the organization's ready Ask to Pay providers that
   * can prompt the phone on file. Empty: no paying from the page (the paybill still works).
   */
  pay_with: z.array(ZPortalPayWithSchema),
  /** The end of the phone a payment from the page prompts ("••• 456"), or null when the customer has no phone on file. */
  phone_hint: z.string().nullable(),
});
export type PortalView = z.infer<typeof ZPortalViewSchema>;

/**
 * POST /portal/{token}/payments: the customer asks their own phone (the one on file) to pay `amount` for one of their
 * devices, with one of the page's pay_with providers. Each provider's limits apply (M-Pesa Express: whole shillings,
 * at most 250,000).
 */
export const ZPortalPayInputSchema = z
  .object({
    serial_number: zRequiredText(100),
    provider: z.enum(PAYMENT_REQUEST_PROVIDERS, { error: `must be one of ${PAYMENT_REQUEST_PROVIDERS.join(', ')}` }),
    amount: zRequestAmount,
  })
  .strict()
  .superRefine(checkProviderAmount);
export type PortalPayInput = z.input<typeof ZPortalPayInputSchema>;

/** A payment the customer asked for from their page, and what came of it (the page asks again until it is not pending). */
export const ZPortalPaymentSchema = z.object({
  request_id: z.number().int(),
  serial_number: z.string(),
  provider: z.enum(PAYMENT_REQUEST_PROVIDERS),
  label: z.string(),
  amount: z.string(),
  currency: z.string(),
  /** pending: the phone shows the prompt; paid; cancelled (the customer said no); failed; expired (no answer in 3 minutes). */
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  /** What the payment bought, once paid and applied, and the code to type (also sent by SMS). */
  days: z.number().int().nullable(),
  token: z.string().nullable(),
  created_at: z.string(),
});
export type PortalPayment = z.infer<typeof ZPortalPaymentSchema>;
export const ZPortalPaymentReplySchema = z.object({ data: ZPortalPaymentSchema });
export type PortalPaymentReply = z.infer<typeof ZPortalPaymentReplySchema>;
