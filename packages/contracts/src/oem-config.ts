import { z } from 'zod';

/** Token settings per device maker (a device's product_oem selects them). */
export const ZProductOemConfigInputSchema = z.object({
  product_oem: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
  restricted_digit_set: z.boolean({ error: 'must be true or false' }).default(false),
  extended_token: z.boolean({ error: 'must be true or false' }).default(false),
  value_divider: z.preprocess(
    (v) => (v === undefined || v === null ? 1 : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: 'must be a positive number' })
      .finite({ error: 'must be a positive number' })
      .gt(0, { error: 'must be a positive number' })
      // Stored with 4 decimals: anything smaller would be stored as 0.
      .min(0.0001, { error: 'must be at least 0.0001' })
      // One day must fit in one token (value 995 at most).
      .max(995, { error: 'must be at most 995' })
      .refine((n) => Math.abs(Math.round(n * 10_000) - n * 10_000) < 1e-6, { error: 'must have at most 4 decimals' }),
  ),
});
export type ProductOemConfigInput = z.infer<typeof ZProductOemConfigInputSchema>;

export const ZProductOemConfigSchema = z.object({
  product_oem: z.string(),
  restricted_digit_set: z.boolean(),
  extended_token: z.boolean(),
  value_divider: z.number(),
  /** Most days one token can carry for this maker: floor(995 / value_divider). */
  max_days_per_token: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProductOemConfig = z.infer<typeof ZProductOemConfigSchema>;

export const ZProductOemConfigReplySchema = z.object({ message: z.string(), data: ZProductOemConfigSchema });
export type ProductOemConfigReply = z.infer<typeof ZProductOemConfigReplySchema>;

export const ZOemListReplySchema = z.object({ data: z.array(ZProductOemConfigSchema) });
export type OemListReply = z.infer<typeof ZOemListReplySchema>;
