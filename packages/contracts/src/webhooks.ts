import { z } from 'zod';
import { zQueryInt } from './common.js';

/**
 * What an organization's webhook endpoints can be told about, each with what
 * it means (the Settings page and the API documentation show these words).
 * A delivery's body is {id, type, created_at, organization_id, data}.
 */
export const WEBHOOK_EVENTS = {
  'payment.applied': 'A payment was applied to a device: its tokens, credit and what is left to pay (mobile money, a staff entry, a match)',
  'payment.held': 'A payment was received but waits for staff: no single device matched it, or it cannot be applied on its own',
  'payment.reversed': 'A payment was taken off the device it was applied to by mistake, and is held again',
  'payment.rejected': 'A held payment was rejected (refunded, meant for another business, not real)',
  'token.issued': 'Staff issued a code for a device (by days, set time, unlock, counter sync, a repossession lock); codes bought by payments come with payment.applied',
  'device.repossessed': 'A device was taken back from its customer, with what was written off',
  'device.discounted': 'An amount was taken off what a customer has left to pay on a device (a discount), with the unlock code when it paid the device off',
  'device.discount_voided': 'A discount given by mistake was voided: what it took off is back on what the customer has left to pay',
  'device.assigned': 'A device was given to a customer (Assign, Onboarding)',
  'device.transferred': "A device's account passed to another customer, who takes over its payments (what was paid, the days, the plan stay with it)",
  'device.swapped': "A customer's device was replaced by another from stock, the account (what was paid, the days left) moving to it, with the replacement's code",
  'device.unassigned': 'A device was taken off its customer (Unassign; a repossession sends device.repossessed)',
  'device.moved': 'A device in stock was moved to another stock location, or out of every one (one event for each device of a move)',
  'customer.created': 'A customer was registered: on the Customers page, by CSV import or through the API',
  'customer.updated': "A customer's details changed (which ones in changed), or they asked for no texts or for texts again (by SMS or through staff)",
  'customer.deleted': 'A customer without devices or payments was deleted',
  'customer.erased': "A customer's personal data was erased at their request: erase what your own systems hold about them too",
  'contact.logged': 'Staff logged a call or visit about a device out of credit, with what came of it and a promise to pay, if any',
  'ticket.opened': 'A service ticket was opened for a device (a fault, an installation, a code not accepted, a billing question)',
  'ticket.resolved': 'A service ticket was resolved, with what was done',
  'commission.paid': "A sales agent's commission for a month was recorded as paid, with what it was reckoned from (for your books)",
  'commission.payout_voided': 'A commission payout recorded by mistake was voided: the agent shows as unpaid for that month again',
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];
/** The event POST /webhooks/{id}/test sends; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const ZWebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });

/** Literal addresses an installation does not call unless WEBHOOK_ALLOW_PRIVATE is set (hostnames are checked when resolved). */
export function isPrivateAddress(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '0.0.0.0' || h === '::' || h === '::1') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h.replace(/^::ffff:/, ''));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    );
  }
  // IPv6 unique local (fc00::/7) and link-local (fe80::/10).
  return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h);
}

/** An endpoint's address: http(s), no user or password in it, at most 2,000 characters. */
export const zWebhookUrl = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(2000, { error: 'must be at most 2000 characters' })
  .superRefine((s, ctx) => {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a full address, such as https://erp.example.com/kidogo/events' });
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: 'must start with https:// or http://' });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password: the signature authenticates Kidogo' });
  });

const zEvents = z
  .array(ZWebhookEventTypeSchema, { error: `must be a list of events: ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  .min(1, { error: 'must name at least one event' })
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e)));

const zDescription = z
  .string({ error: 'must be text' })
  .trim()
  .max(200, { error: 'must be at most 200 characters' })
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

/** POST /webhooks: a new endpoint; its signing secret is made by the server and shown once in the reply. */
export const ZWebhookCreateSchema = z.object({
  url: zWebhookUrl,
  description: zDescription,
  events: zEvents,
  is_active: z.boolean({ error: 'must be true or false' }).default(true),
});
export type WebhookCreateInput = z.input<typeof ZWebhookCreateSchema>;

/** PATCH /webhooks/{id}: what is sent changes; the rest stays. */
export const ZWebhookUpdateSchema = z
  .object({
    url: zWebhookUrl.optional(),
    description: zDescription,
    events: zEvents.optional(),
    /** false pauses the endpoint: its deliveries wait, and go out when it is active again. */
    is_active: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change: send url, description, events or is_active' });
export type WebhookUpdateInput = z.input<typeof ZWebhookUpdateSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export const ZWebhookDeliveryStatusSchema = z.enum(WEBHOOK_DELIVERY_STATUSES, { error: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` });
export type WebhookDeliveryStatus = z.infer<typeof ZWebhookDeliveryStatusSchema>;

export const ZWebhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(ZWebhookEventTypeSchema),
  is_active: z.boolean(),
  /** The signing secret's last characters (whsec_…abcd); whole only when created or rotated. */
  secret_hint: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  /** Deliveries waiting to go out (or to be tried again). */
  pending: z.number().int(),
  /** Deliveries that gave up in the last 7 days. */
  failed_7d: z.number().int(),
  /** The latest attempt's outcome: when, whether it was answered with a 2xx, and the HTTP status (null when unreachable). */
  last_attempt: z
    .object({ at: z.string(), ok: z.boolean(), response_status: z.number().int().nullable(), error: z.string().nullable() })
    .nullable(),
});
export type WebhookEndpoint = z.infer<typeof ZWebhookEndpointSchema>;

export const ZWebhookListReplySchema = z.object({
  data: z.array(ZWebhookEndpointSchema),
  /** Every event an endpoint can subscribe to, with what it means. */
  events: z.array(z.object({ type: ZWebhookEventTypeSchema, description: z.string() })),
});
export type WebhookListReply = z.infer<typeof ZWebhookListReplySchema>;

/** A created endpoint, or one whose secret was rotated: the whole secret, shown this once. */
export const ZWebhookWithSecretSchema = ZWebhookEndpointSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof ZWebhookWithSecretSchema>;

export const ZWebhookDeliverySchema = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  status: ZWebhookDeliveryStatusSchema,
  attempts: z.number().int(),
  created_at: z.string(),
  /** When it will be tried (again), for pending deliveries. */
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  response_status: z.number().int().nullable(),
  /** The start of the endpoint's answer (at most 500 characters). */
  response_body: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Why the last attempt failed: unreachable, a timeout, a non-2xx answer, a private address. */
  error: z.string().nullable(),
  /** The exact body sent (and signed). */
  payload: z.record(z.string(), z.unknown()),
});
export type WebhookDelivery = z.infer<typeof ZWebhookDeliverySchema>;

/** GET /webhooks/{id}/deliveries: newest first, a page at a time (next_cursor: the last delivery's id). */
export const ZWebhookDeliveryQuerySchema = z.object({
  limit: zQueryInt({ default: 25, min: 1, max: 100 }),
  cursor: zQueryInt({ default: 0, min: 0, max: 2_147_483_647 }),
  status: ZWebhookDeliveryStatusSchema.optional(),
  event_type: z.string().trim().max(50, { error: 'must be at most 50 characters' }).optional(),
});
export type WebhookDeliveryQuery = z.infer<typeof ZWebhookDeliveryQuerySchema>;

export const ZWebhookDeliveryListReplySchema = z.object({
  data: z.array(ZWebhookDeliverySchema),
  /** Pass as cursor for the next (older) page; null on the last. */
  next_cursor: z.number().int().nullable(),
});
export type WebhookDeliveryListReply = z.infer<typeof ZWebhookDeliveryListReplySchema>;

/** The body every endpoint receives, signed (see the README's "Webhooks"). */
export const ZWebhookEventBodySchema = z.object({
  id: z.string(),
  type: z.string(),
  created_at: z.string(),
  organization_id: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEventBody = z.infer<typeof ZWebhookEventBodySchema>;
