import { z } from 'zod';

/** The organization's receiver key (header X-API-Key): kdg_<43 base64url characters>. */
export const ZApiKeyReplySchema = z.object({ api_key: z.string() });
export type ApiKeyReply = z.infer<typeof ZApiKeyReplySchema>;

export const SMS_PROVIDERS = ['none', 'africastalking', 'sms_webhook'] as const;
export const ZSmsProviderNameSchema = z.enum(SMS_PROVIDERS, { error: `must be one of ${SMS_PROVIDERS.join(', ')}` });
export type SmsProviderName = z.infer<typeof ZSmsProviderNameSchema>;

const text = (max: number) => z.string({ error: 'must be text' }).trim().max(max, { error: `must be at most ${max} characters` });
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** The language of the token replies sent to customers: English or Kiswahili. */
export const REPLY_LANGUAGES = ['en', 'sw'] as const;
export const ZReplyLanguageSchema = z.enum(REPLY_LANGUAGES, { error: `must be one of ${REPLY_LANGUAGES.join(', ')}` });
export type ReplyLanguage = z.infer<typeof ZReplyLanguageSchema>;

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
  updated_at: z.string().nullable(),
});
export type SmsProvider = z.infer<typeof ZSmsProviderSchema>;
