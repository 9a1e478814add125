import { z } from 'zod';

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
});
export type PortalView = z.infer<typeof ZPortalViewSchema>;
