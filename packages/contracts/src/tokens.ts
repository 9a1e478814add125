import { z } from 'zod';
import { zQueryInt, zQueryOffset } from './common.js';

/** The most days one standard OpenPAYGO token can carry (value 995 at divider 1). */
export const MAX_TOKEN_DAYS = 995;

export const TOKEN_LOG_TYPES = ['add_time', 'set_time', 'activation', 'unlock', 'counter_sync'] as const;
export const ZTokenTypeSchema = z.enum(TOKEN_LOG_TYPES);
export type TokenKind = z.infer<typeof ZTokenTypeSchema>;

/** The types staff may ask for by name (activation is decided by the server). */
export const MANUAL_TOKEN_TYPES = ['add_time', 'set_time', 'unlock', 'counter_sync'] as const;

/**
 * A JSON integer (never a string): absent → `fallback` (the spec's default 0),
 * then range-checked, so a missing number of days is a 400 naming the field.
 */
const zBodyInt = (opts: { min: number; max?: number; maxMessage?: string; fallback?: number }) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? opts.fallback : v),
    z
      .number({ error: 'must be a whole number' })
      .int({ error: 'must be a whole number' })
      .min(opts.min, { error: `must be at least ${opts.min}` })
      .max(opts.max ?? 2_147_483_647, { error: opts.maxMessage ?? `must be at most ${opts.max ?? 2_147_483_647}` }),
  );

const zSerial = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(100, { error: 'must be at most 100 characters' });

export const ZGenerateTokenByDaysSchema = z.object({
  serial_number: zSerial,
  number_of_days: zBodyInt({
    min: 1,
    max: MAX_TOKEN_DAYS,
    maxMessage: `must be at most ${MAX_TOKEN_DAYS} (issue several tokens for longer periods)`,
    fallback: 0,
  }),
});
export type GenerateTokenByDaysInput = z.infer<typeof ZGenerateTokenByDaysSchema>;

export const ZGenerateTokenSchema = z
  .object({
    serial_number: zSerial,
    type: z.enum(MANUAL_TOKEN_TYPES, { error: `must be one of ${MANUAL_TOKEN_TYPES.join(', ')}` }),
    /** Days; required for add_time and set_time (set_time 0 locks the device). */
    value: zBodyInt({ min: 0, max: MAX_TOKEN_DAYS, maxMessage: `must be at most ${MAX_TOKEN_DAYS} (issue several tokens for longer periods)` }).optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.type === 'add_time' || v.type === 'set_time') && v.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `is required for ${v.type}` });
    }
    if (v.type === 'add_time' && v.value === 0) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be at least 1 for add_time' });
    }
  });
export type GenerateTokenInput = z.infer<typeof ZGenerateTokenSchema>;

/** What every token generation answers. */
export const ZTokenReplySchema = z.object({
  code_token: z.string(),
  code_type: ZTokenTypeSchema,
  days: z.number(),
  token_count: z.number().int(),
  serial_number: z.string(),
  isOrganizationSuspended: z.boolean(),
});
export type TokenReply = z.infer<typeof ZTokenReplySchema>;

export const ZUpdateTokenCountSchema = z.object({
  serial_number: zSerial,
  new_token_count: zBodyInt({ min: 0, fallback: 0 }),
  reason: z.string().trim().max(500, { error: 'must be at most 500 characters' }).optional(),
});
export type UpdateTokenCountInput = z.infer<typeof ZUpdateTokenCountSchema>;

export const ZUpdateTokenCountReplySchema = z.object({
  message: z.string(),
  serial_number: z.string(),
  old_token_count: z.number().int(),
  new_token_count: z.number().int(),
});
export type UpdateTokenCountReply = z.infer<typeof ZUpdateTokenCountReplySchema>;

export const ZTokenLogQuerySchema = z.object({
  limit: zQueryInt({ default: 10, min: 1, max: 100 }),
  offset: zQueryOffset(),
  search: z.string().trim().max(100).optional(),
});
export type TokenLogQuery = z.infer<typeof ZTokenLogQuerySchema>;

export const ZTokenLogSchema = z.object({
  id: z.number().int(),
  token_value: z.string(),
  serial_number: z.string(),
  customer_name: z.string().nullable(),
  token_type: ZTokenTypeSchema,
  days_generated: z.number(),
  token_count: z.number().int(),
  status: z.string(),
  /**
   * False once the device no longer takes the token (OpenPAYGO Token): a
   * newer SET_TIME, unlock or counter sync token closes every older count,
   * and an add-time token is refused 16 counts below the newest. The
   * dashboard counts these as expired; the lists show them as Expired.
   */
  is_valid: z.boolean(),
  was_assigned: z.boolean(),
  payment_id: z.number().int().nullable(),
  created_at: z.string(),
  generated_by: z.string().nullable(),
});
export type TokenLog = z.infer<typeof ZTokenLogSchema>;

export const ZTokenLogListSchema = z.object({
  data: z.object({ items: z.array(ZTokenLogSchema), total: z.number().int() }),
});
export type TokenLogList = z.infer<typeof ZTokenLogListSchema>;
