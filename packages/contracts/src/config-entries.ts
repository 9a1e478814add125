import { z } from 'zod';

/** A setting of the caller's organization: a key and any JSON value. */
export const ZConfigEntrySchema = z.object({
  config_id: z.number().int(),
  organization_id: z.string(),
  key: z.string(),
  value: z.unknown(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConfigEntry = z.infer<typeof ZConfigEntrySchema>;

export const ZConfigEntryListSchema = z.object({ data: z.array(ZConfigEntrySchema) });

const zJsonValue = z.json({ error: 'must be a JSON value' });

export const ZCreateConfigEntrySchema = z.object({
  key: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, { error: 'must be 1 to 100 letters, digits, . : - or _' }),
  value: zJsonValue.refine((v) => v !== undefined, { error: 'is required' }),
  description: z.string().trim().max(500).nullish(),
});
export type CreateConfigEntryInput = z.infer<typeof ZCreateConfigEntrySchema>;

export const ZUpdateConfigEntrySchema = z
  .object({
    key: ZCreateConfigEntrySchema.shape.key.optional(),
    value: zJsonValue.optional(),
    description: z.string().trim().max(500).nullish(),
  })
  .strict();
export type UpdateConfigEntryInput = z.infer<typeof ZUpdateConfigEntrySchema>;

/** POST /config/credentials/upsert: an organization's credentials for a device maker's API, stored encrypted. */
export const ZConfigCredentialsUpsertSchema = z.object({
  organization_id: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(64, { error: 'must be at most 64 characters' }),
  oem_name: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
  credentials: z.record(z.string(), z.union([z.string().max(4000), z.number(), z.boolean(), z.null()]), {
    error: 'must be an object of text, number or boolean values',
  }),
});
export type ConfigCredentialsUpsertInput = z.infer<typeof ZConfigCredentialsUpsertSchema>;

export const ZConfigCredentialsSchema = z.object({
  id: z.number().int(),
  organization_id: z.string(),
  oem_name: z.string(),
  /** Every string value masked. */
  credentials: z.record(z.string(), z.unknown()),
  updated_at: z.string(),
});
export const ZConfigCredentialsListSchema = z.object({ data: z.array(ZConfigCredentialsSchema) });
export const ZConfigCredentialsParamsSchema = z.object({ organizationId: z.string().trim().min(1).max(64) });
