import { z } from 'zod';

/**
 * Airtel Money's USSD push (the Airtel Africa Open API's Collections product): staff ask a customer to pay from the
 * back office, Airtel prompts the customer's phone to approve the payment with their Airtel Money PIN, and tells the
 * installation at the callback URL set on the organization's Airtel app. Kidogo does not take the callback's word for
 * it: it asks Airtel what became of the transaction (the Transaction Enquiry), and a paid request goes through the
 * same payment pipeline as every mobile-money payment (days, tokens, the reply SMS, webhooks), once by Airtel Money's
 * transaction id: the id Airtel's own confirmation SMS gives, so a forwarded SMS of the same payment is a duplicate.
 */

/** Each Airtel Money market Kidogo offers: its ISO country code (X-Country), its money (X-Currency) and its phones' calling code. */
export const AIRTEL_MONEY_COUNTRIES = [
  { country: 'KE', name: 'Kenya', currency: 'KES', calling_code: '254' },
  { country: 'UG', name: 'Uganda', currency: 'UGX', calling_code: '256' },
  { country: 'TZ', name: 'Tanzania', currency: 'TZS', calling_code: '255' },
  { country: 'RW', name: 'Rwanda', currency: 'RWF', calling_code: '250' },
  { country: 'ZM', name: 'Zambia', currency: 'ZMW', calling_code: '260' },
  { country: 'MW', name: 'Malawi', currency: 'MWK', calling_code: '265' },
  { country: 'CD', name: 'DR Congo', currency: 'CDF', calling_code: '243' },
  { country: 'CG', name: 'Congo-Brazzaville', currency: 'XAF', calling_code: '242' },
  { country: 'GA', name: 'Gabon', currency: 'XAF', calling_code: '241' },
  { country: 'TD', name: 'Chad', currency: 'XAF', calling_code: '235' },
  { country: 'NE', name: 'Niger', currency: 'XOF', calling_code: '227' },
  { country: 'MG', name: 'Madagascar', currency: 'MGA', calling_code: '261' },
  { country: 'SC', name: 'Seychelles', currency: 'SCR', calling_code: '248' },
  { country: 'NG', name: 'Nigeria', currency: 'NGN', calling_code: '234' },
] as const;
export type AirtelMoneyCountry = (typeof AIRTEL_MONEY_COUNTRIES)[number]['country'];
const COUNTRY_CODES = AIRTEL_MONEY_COUNTRIES.map((c) => c.country) as [AirtelMoneyCountry, ...AirtelMoneyCountry[]];

/** The market of a country code, or null for one Kidogo does not offer. */
export function airtelMoneyCountryOf(country: string): (typeof AIRTEL_MONEY_COUNTRIES)[number] | null {
  return AIRTEL_MONEY_COUNTRIES.find((c) => c.country === country) ?? null;
}

/** Airtel's two systems: staging (UAT, test money) and production. */
export const AIRTEL_MONEY_ENVIRONMENTS = ['staging', 'production'] as const;
export type AirtelMoneyEnvironment = (typeof AIRTEL_MONEY_ENVIRONMENTS)[number];
export const AIRTEL_MONEY_BASE_URLS: Record<AirtelMoneyEnvironment, string> = {
  staging: 'https://openapiuat.airtel.africa',
  production: 'https://openapi.airtel.africa',
};

/** The most one Airtel Money request may ask for, in the market's money (Airtel's own limits per wallet apply below it). */
export const AIRTEL_MONEY_MAX_AMOUNT = 10_000_000;

/**
 * PUT /settings/airtel-money. The market, Airtel's system, and the Airtel app's client id and secret (from the Airtel
 * Africa developer portal, with the Collections product). client_secret left out, empty, or sent back masked as GET
 * gave it keeps its stored value; the first time it is required.
 */
export const ZAirtelMoneyInputSchema = z
  .object({
    country: z.enum(COUNTRY_CODES, { error: `must be one of ${COUNTRY_CODES.join(', ')}` }),
    environment: z.enum(AIRTEL_MONEY_ENVIRONMENTS, { error: `must be one of ${AIRTEL_MONEY_ENVIRONMENTS.join(', ')}` }),
    client_id: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { error: 'is required' })
      .max(200, { error: 'must be at most 200 characters' })
      .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be the client id Airtel gave (letters, digits, dots, dashes and underscores)' }),
    client_secret: z.string({ error: 'must be text' }).trim().max(200, { error: 'must be at most 200 characters' }).optional(),
    is_active: z.boolean({ error: 'must be true or false' }).default(true),
  })
  .strict();
export type AirtelMoneyInput = z.input<typeof ZAirtelMoneyInputSchema>;

/** GET /settings/airtel-money: the organization's Airtel Money set-up, the secret masked. */
export const ZAirtelMoneySettingsSchema = z.object({
  configured: z.boolean(),
  is_active: z.boolean(),
  country: z.enum(COUNTRY_CODES),
  /** The market's money: what requests ask for. */
  currency: z.string(),
  environment: z.enum(AIRTEL_MONEY_ENVIRONMENTS),
  client_id: z.string().nullable(),
  client_secret: z.string().nullable(),
  /** The callback URL to set on the Airtel app: PUBLIC_URL + /payg/external/airtel-money/callback; null without PUBLIC_URL. */
  callback_url: z.string().nullable(),
  ready: z.boolean(),
  problem: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type AirtelMoneySettings = z.infer<typeof ZAirtelMoneySettingsSchema>;

/** POST /settings/airtel-money/test: the client id and secret tried against Airtel (an access token asked for). */
export const ZAirtelMoneyTestReplySchema = z.object({ ok: z.boolean(), message: z.string() });
export type AirtelMoneyTestReply = z.infer<typeof ZAirtelMoneyTestReplySchema>;

/**
 * What Airtel posts to the app's callback URL: the transaction's id (Kidogo's, given with the push) and its end,
 * status_code TS (paid) or TF (failed). Only the id is acted on: Kidogo asks Airtel for the transaction's status.
 */
export const ZAirtelMoneyCallbackSchema = z.object({
  transaction: z.object({
    id: z.union([z.string(), z.number()], { error: 'is required' }).transform(String),
    message: z.string().optional().nullable(),
    status_code: z.string().optional().nullable(),
    airtel_money_id: z.union([z.string(), z.number()]).optional().nullable(),
  }),
  hash: z.string().optional().nullable(),
});
export type AirtelMoneyCallback = z.infer<typeof ZAirtelMoneyCallbackSchema>;

export const ZAirtelMoneyCallbackReplySchema = z.object({ received: z.boolean() });
export type AirtelMoneyCallbackReply = z.infer<typeof ZAirtelMoneyCallbackReplySchema>;
