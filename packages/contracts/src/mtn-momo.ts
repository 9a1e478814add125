import { z } from 'zod';

/**
 * MTN MoMo's Request to Pay (the MoMo Open API's Collections product): staff
 * ask a customer to pay from the back office, MTN prompts the customer's
 * phone to approve the payment with their MoMo PIN, and posts the result to
 * the installation. A paid request goes through the same payment pipeline as
 * every mobile-money payment (days, tokens, the reply SMS, webhooks), once by
 * MTN's financial transaction id: the id MTN's own confirmation SMS gives, so
 * a forwarded SMS of the same payment is a duplicate, not a second payment.
 */

/**
 * MTN's name for each market ("X-Target-Environment"), its money and the calling code of the phones it prompts.
 * sandbox is MTN's test system (momodeveloper.mtn.com), whose money is EUR and whose test numbers are any.
 */
export const MTN_MOMO_TARGETS = [
  { target: 'mtnuganda', country: 'Uganda', currency: 'UGX', calling_code: '256' },
  { target: 'mtnrwanda', country: 'Rwanda', currency: 'RWF', calling_code: '250' },
  { target: 'mtnzambia', country: 'Zambia', currency: 'ZMW', calling_code: '260' },
  { target: 'mtnghana', country: 'Ghana', currency: 'GHS', calling_code: '233' },
  { target: 'sandbox', country: 'MTN sandbox (test money)', currency: 'EUR', calling_code: null },
] as const;
export type MtnMomoTarget = (typeof MTN_MOMO_TARGETS)[number]['target'];
const TARGET_NAMES = MTN_MOMO_TARGETS.map((t) => t.target) as [MtnMomoTarget, ...MtnMomoTarget[]];

/** The market of a target environment, or null for one Kidogo does not offer. */
export function mtnMomoTargetOf(target: string): (typeof MTN_MOMO_TARGETS)[number] | null {
  return MTN_MOMO_TARGETS.find((t) => t.target === target) ?? null;
}

/** Where MTN's API is: the sandbox for target sandbox, the production gateway for every market. */
export const MTN_MOMO_BASE_URLS = {
  sandbox: 'https://sandbox.momodeveloper.mtn.com',
  production: 'https://proxy.momoapi.mtn.com',
} as const;

const secret = z.string({ error: 'must be text' }).trim().max(200, { error: 'must be at most 200 characters' });

/**
 * PUT /settings/mtn-momo. The API user (a UUID MTN gives, or the one created in
 * the sandbox), its API key and the Collections product's subscription key
 * (Ocp-Apim-Subscription-Key). api_key and subscription_key left out, empty,
 * or sent back masked as GET gave them keep their stored value; the first
 * time both are required.
 */
export const ZMtnMomoInputSchema = z
  .object({
    target_environment: z.enum(TARGET_NAMES, { error: `must be one of ${TARGET_NAMES.join(', ')}` }),
    api_user: z
      .string({ error: 'is required' })
      .trim()
      .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
        error: 'must be the API user MTN gave (a UUID: 8-4-4-4-12 hexadecimal digits)',
      }),
    api_key: secret.optional(),
    subscription_key: secret.optional(),
    is_active: z.boolean({ error: 'must be true or false' }).default(true),
  })
  .strict();
export type MtnMomoInput = z.input<typeof ZMtnMomoInputSchema>;

/** GET /settings/mtn-momo: the organization's MTN MoMo set-up, secrets masked. */
export const ZMtnMomoSettingsSchema = z.object({
  configured: z.boolean(),
  is_active: z.boolean(),
  target_environment: z.enum(TARGET_NAMES),
  /** The market's money: what requests ask for. */
  currency: z.string(),
  api_user: z.string().nullable(),
  api_key: z.string().nullable(),
  subscription_key: z.string().nullable(),
  /** Where MTN posts each request's result (each request adds its own secret path): PUBLIC_URL + /payg/external/mtn-momo/…; null without PUBLIC_URL. */
  callback_base: z.string().nullable(),
  /** The host MTN must have as the API user's callback host (providerCallbackHost): PUBLIC_URL's; null without it. */
  callback_host: z.string().nullable(),
  ready: z.boolean(),
  problem: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type MtnMomoSettings = z.infer<typeof ZMtnMomoSettingsSchema>;

/** POST /settings/mtn-momo/test: the keys tried against MTN (an access token asked for). */
export const ZMtnMomoTestReplySchema = z.object({ ok: z.boolean(), message: z.string() });
export type MtnMomoTestReply = z.infer<typeof ZMtnMomoTestReplySchema>;

/**
 * What MTN posts to a request's callback URL (the request to pay as GET requesttopay/{id} reads it): only the
 * fields read are named. status is SUCCESSFUL, FAILED or PENDING; reason is a code (APPROVAL_REJECTED, EXPIRED,
 * NOT_ENOUGH_FUNDS, ...), given as text or as {code, message}.
 */
export const ZMtnMomoCallbackSchema = z.object({
  financialTransactionId: z.union([z.string(), z.number()]).optional(),
  externalId: z.string().optional(),
  amount: z.union([z.string(), z.number()]).optional(),
  currency: z.string().optional(),
  payer: z.object({ partyIdType: z.string().optional(), partyId: z.union([z.string(), z.number()]).optional() }).optional(),
  status: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }),
  reason: z.union([z.string(), z.object({ code: z.string().optional(), message: z.string().optional() })]).optional().nullable(),
});
export type MtnMomoCallback = z.infer<typeof ZMtnMomoCallbackSchema>;

/** Money without a minor unit (ISO 4217): MTN and Airtel take whole amounts of it. */
export const WHOLE_CURRENCIES: readonly string[] = ['UGX', 'RWF', 'XAF', 'XOF'];

export const ZMtnMomoCallbackReplySchema = z.object({ received: z.boolean() });
export type MtnMomoCallbackReply = z.infer<typeof ZMtnMomoCallbackReplySchema>;
