import { z } from 'zod';
import { ZMoneySchema, zMoneyInput, zWholeNumber as wholeNumber } from './common.js';

/** The organization's receiver key (header X-API-Key): kdg_<43 base64url characters>. */
export const ZApiKeyReplySchema = z.object({ api_key: z.string() });
export type ApiKeyReply = z.infer<typeof ZApiKeyReplySchema>;

export const SMS_PROVIDERS = ['none', 'africastalking', 'sms_webhook'] as const;
export const ZSmsProviderNameSchema = z.enum(SMS_PROVIDERS, { error: `must be one of ${SMS_PROVIDERS.join(', ')}` });
export type SmsProviderName = z.infer<typeof ZSmsProviderNameSchema>;

const text = (max: number) => z.string({ error: 'must be text' }).trim().max(max, { error: `must be at most ${max} characters` });
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** The language of the token replies sent to customers: English, Kiswahili or French. */
export const REPLY_LANGUAGES = ['en', 'sw', 'fr'] as const;
export const ZReplyLanguageSchema = z.enum(REPLY_LANGUAGES, { error: `must be one of ${REPLY_LANGUAGES.join(', ')}` });
export type ReplyLanguage = z.infer<typeof ZReplyLanguageSchema>;

/** What every text to a customer begins with until the organization names itself ("Kidogo: Hi Grace, …"). */
export const DEFAULT_TEXT_NAME = 'Kidogo';
export const TEXT_NAME_MAX = 11;
/**
 * The name the organization's texts to customers begin with, instead of Kidogo ("Jua Solar: Hi Grace, …"): at most
 * 11 characters (as an SMS sender ID), letters, digits, spaces and & - . ' only, which every phone shows as they are.
 */
export const ZTextNameSchema = z
  .string({ error: 'must be text' })
  .trim()
  .min(1, { error: 'must not be empty (null puts Kidogo back)', abort: true })
  .max(TEXT_NAME_MAX, { error: `must be at most ${TEXT_NAME_MAX} characters`, abort: true })
  .regex(/^[A-Za-z0-9][A-Za-z0-9 &.'-]*$/, { error: "must be letters, digits, spaces and & - . ' only, starting with a letter or digit" });

/**
 * Outgoing SMS delivery for the organization. africastalking config:
 * {username, api_key, sender_id?, base_url?}; sms_webhook config: {url, secret?}.
 * Secrets left out (or sent back masked as read) keep their stored value.
 */
export const ZSmsProviderInputSchema = z
  .object({
    provider: ZSmsProviderNameSchema,
    /** Left out: the stored language stays. */
    reply_language: ZReplyLanguageSchema.optional(),
    /** The name texts to customers begin with (ZTextNameSchema); null: Kidogo again; left out: it stays. */
    text_name: ZTextNameSchema.nullable().optional(),
    config: z
      .object({
        username: text(100).optional(),
        api_key: text(500).optional(),
        sender_id: text(20).optional(),
        base_url: url.optional(),
        url: url.optional(),
        secret: text(500).optional(),
      })
      .strict()
      .default({}),
    is_active: z.boolean({ error: 'must be true or false' }).default(true),
  })
  .superRefine((v, ctx) => {
    if (v.provider === 'africastalking' && !v.config.username) {
      ctx.addIssue({ code: 'custom', path: ['config', 'username'], message: 'is required for africastalking' });
    }
    if (v.provider === 'sms_webhook' && !v.config.url) {
      ctx.addIssue({ code: 'custom', path: ['config', 'url'], message: 'is required for sms_webhook' });
    }
  });
export type SmsProviderInput = z.infer<typeof ZSmsProviderInputSchema>;

export const ZSmsProviderSchema = z.object({
  provider: ZSmsProviderNameSchema,
  /** Secrets (api_key, secret) masked: enough to recognise, not to use. */
  config: z.record(z.string(), z.string().nullable()),
  is_active: z.boolean(),
  /** Where messages go when this organization has no provider of its own. */
  fallback: z.enum(['none', 'africastalking', 'webhook']),
  /** The language token replies are written in: en (English) or sw (Kiswahili). */
  reply_language: ZReplyLanguageSchema,
  /** The name texts to customers begin with: the organization's own, or null for Kidogo (DEFAULT_TEXT_NAME). */
  text_name: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type SmsProvider = z.infer<typeof ZSmsProviderSchema>;

/** Payment reminders: how many business days before a device's credit runs out (0: on the day itself). */
export const REMINDER_DAYS_BEFORE_MAX = 7;

/**
 * PUT /settings/reminders. Every field optional: one left out keeps its
 * stored value. send_hour is an hour of the business day (TIME_ZONE).
 */
export const ZReminderSettingsInputSchema = z
  .object({
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
    days_before: wholeNumber(0, REMINDER_DAYS_BEFORE_MAX).optional(),
    send_hour: wholeNumber(0, 23).optional(),
  })
  .strict();
export type ReminderSettingsInput = z.infer<typeof ZReminderSettingsInputSchema>;

export const ZReminderSettingsSchema = z.object({
  enabled: z.boolean(),
  days_before: z.number().int(),
  send_hour: z.number().int(),
  /** The business time zone send_hour is read in (the installation's TIME_ZONE). */
  time_zone: z.string(),
  /** The language reminders are written in: the token replies' (reply_language). */
  language: ZReplyLanguageSchema,
  /** Whether an SMS provider (the organization's or the installation's) can deliver them; without one none are made. */
  can_send: z.boolean(),
  /** A reminder as it would read now, for a sample device. */
  preview: z.string(),
  /** Reminders made in the last 30 days, and when the last one was. */
  sent_30_days: z.number().int(),
  last_sent_at: z.string().nullable(),
});
export type ReminderSettings = z.infer<typeof ZReminderSettingsSchema>;

/** The highest commission per device given that can be set. */
export const COMMISSION_PER_DEVICE_MAX = 1_000_000;

/**
 * PUT /settings/commissions: what the organization pays its sales agents (the
 * customers' agent_id), reckoned in the Agent report for any period:
 * per_device for each device given to one of the agent's customers in the
 * period, and percent of the successful payments of the agent's customers in
 * the period. Every field optional: one left out keeps its stored value.
 */
export const ZCommissionSettingsInputSchema = z
  .object({
    per_device: zMoneyInput({ min: 0, max: COMMISSION_PER_DEVICE_MAX }).optional(),
    percent: zMoneyInput({ min: 0, max: 100 }).optional(),
  })
  .strict();
export type CommissionSettingsInput = z.infer<typeof ZCommissionSettingsInputSchema>;

export const ZCommissionSettingsSchema = z.object({
  /** An amount per device given ("500.00"); "0.00" for none. */
  per_device: ZMoneySchema,
  /** A percentage of payments collected ("2.50"); "0.00" for none. */
  percent: ZMoneySchema,
  /** What an agent earns with these: for 10 devices given and 100,000.00 collected, reckoned as the Agent report does. */
  example: z.object({ devices_given: z.number().int(), revenue: ZMoneySchema, commission: ZMoneySchema }),
});
export type CommissionSettings = z.infer<typeof ZCommissionSettingsSchema>;


/**
 * The countries whose phone numbers Kidogo reads: an organization chooses one,
 * and a number written without a country code ("0772 123 456") is read as a
 * number of that country. Each with its calling code, a mobile number as
 * people there write it, and its money (a new payment plan's currency where
 * plans can be in it: see CURRENCIES).
 */
export const PHONE_COUNTRIES = [
  { code: '254', country: 'Kenya', example: '0712 345 678', currency: 'KES' },
  { code: '256', country: 'Uganda', example: '0772 123 456', currency: 'UGX' },
  { code: '255', country: 'Tanzania', example: '0754 123 456', currency: 'TZS' },
  { code: '250', country: 'Rwanda', example: '0788 123 456', currency: 'RWF' },
  { code: '257', country: 'Burundi', example: '79 123 456', currency: 'BIF' },
  { code: '211', country: 'South Sudan', example: '0912 345 678', currency: 'SSP' },
  { code: '243', country: 'DR Congo', example: '0812 345 678', currency: 'CDF' },
  { code: '251', country: 'Ethiopia', example: '0911 234 567', currency: 'ETB' },
  { code: '260', country: 'Zambia', example: '0971 234 567', currency: 'ZMW' },
  { code: '265', country: 'Malawi', example: '0991 234 567', currency: 'MWK' },
  { code: '263', country: 'Zimbabwe', example: '0771 234 567', currency: 'ZWG' },
  { code: '234', country: 'Nigeria', example: '0803 123 4567', currency: 'NGN' },
  { code: '233', country: 'Ghana', example: '0244 123 456', currency: 'GHS' },
] as const;
export type PhoneCountryCode = (typeof PHONE_COUNTRIES)[number]['code'];
const PHONE_COUNTRY_CODES = PHONE_COUNTRIES.map((c) => c.code) as [PhoneCountryCode, ...PhoneCountryCode[]];

/** The country of a calling code, or null for one Kidogo does not offer. */
export function phoneCountryOf(code: string): (typeof PHONE_COUNTRIES)[number] | null {
  return PHONE_COUNTRIES.find((c) => c.code === code) ?? null;
}

/** The calling code of a country offered: "256" for Uganda. */
export const ZPhoneCountryCodeSchema = z.enum(PHONE_COUNTRY_CODES, {
  error: `must be the calling code of one of ${PHONE_COUNTRIES.map((c) => `${c.country} (${c.code})`).join(', ')}`,
});

/** PUT /settings/phone-country: the calling code of the organization's country ("256" for Uganda). */
export const ZPhoneCountryInputSchema = z.object({ phone_country_code: ZPhoneCountryCodeSchema }).strict();
export type PhoneCountryInput = z.infer<typeof ZPhoneCountryInputSchema>;

export const ZPhoneCountrySchema = z.object({
  /** The calling code numbers without one are read with: "254". */
  phone_country_code: ZPhoneCountryCodeSchema,
  /** Its country: "Kenya". */
  country: z.string(),
  /** A number as people there write it, and the number Kidogo reads it as: "0712 345 678" and "+254712345678". */
  example: z.object({ written: z.string(), read_as: z.string() }),
  /**
   * Customers (not erased) whose number reads as no phone, of this country or
   * written with a country code: payments and texts from their phones cannot
   * find them, and no code can be texted to them until it is corrected.
   */
  unreadable_numbers: z.number().int(),
});
export type PhoneCountry = z.infer<typeof ZPhoneCountrySchema>;

/** PUT /settings/phone-country's reply: the setting, and how many customers' numbers were read again with it. */
export const ZPhoneCountryUpdateSchema = ZPhoneCountrySchema.extend({
  /** Customers whose number, written without a country code, now reads as another country's. */
  customers_updated: z.number().int(),
});
export type PhoneCountryUpdate = z.infer<typeof ZPhoneCountryUpdateSchema>;
