import { z } from 'zod';
import { ZMoneySchema, zMoneyInput, zQueryInt, zQueryOffset } from './common.js';
import { zPeriodDate } from './metrics.js';

// ------------------------------------------------------------ token logs

/** GET /admin/metrics/token-logs: every organization's token generations, newest first. */
export const ZAdminTokenLogQuerySchema = z
  .object({
    limit: zQueryInt({ default: 100, min: 1, max: 500 }),
    offset: zQueryOffset(),
    organization_id: z.string().trim().max(64).optional(),
    /** success = tokens issued and valid; error = failed or invalidated. */
    status_filter: z.enum(['success', 'error']).optional(),
    date_from: zPeriodDate().optional(),
    date_to: zPeriodDate().optional(),
  })
  .refine((q) => !q.date_from || !q.date_to || Date.parse(q.date_from) <= Date.parse(q.date_to), {
    error: 'must not be after date_to',
    path: ['date_from'],
  });
export type AdminTokenLogQuery = z.infer<typeof ZAdminTokenLogQuerySchema>;

export const ZAdminTokenLogSchema = z.object({
  id: z.number().int(),
  organization_id: z.string(),
  serial_number: z.string(),
  generated_token: z.string(),
  token_type: z.string(),
  days_generated: z.number(),
  status: z.enum(['success', 'error']),
  customer_name: z.string().nullable(),
  generated_by: z.string().nullable(),
  created_at: z.string(),
});
export type AdminTokenLog = z.infer<typeof ZAdminTokenLogSchema>;

export const ZAdminTokenLogListSchema = z.object({
  data: z.object({ items: z.array(ZAdminTokenLogSchema), total: z.number().int() }),
});
export type AdminTokenLogList = z.infer<typeof ZAdminTokenLogListSchema>;

// ------------------------------------------- providers and OEM credentials

/** Secrets as JSON objects; every string value comes back masked ("sk_l••••wxyz"). */
const zSecretObject = z.record(z.string(), z.union([z.string().max(4000), z.number(), z.boolean(), z.null()]), {
  error: 'must be an object of text, number or boolean values',
});

const zOrgRef = z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(64, { error: 'must be at most 64 characters' });

export const ZAdminOrgFilterQuerySchema = z.object({ organization_id: z.string().trim().max(64).optional() });

/**
 * A gateway an organization uses, e.g. provider 'africastalking' with
 * config {username, api_key, sender_id?, base_url?} or 'sms_webhook' with {url, secret?}.
 */
export const ZPaymentProviderInputSchema = z.object({
  provider: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(50, { error: 'must be at most 50 characters' }),
  organization_id: zOrgRef,
  config: zSecretObject,
  is_active: z.boolean().default(true),
});
export type PaymentProviderInput = z.infer<typeof ZPaymentProviderInputSchema>;

/** PUT: config replaces the stored one, except that a value sent back masked keeps the stored value. */
export const ZPaymentProviderUpdateSchema = z
  .object({ provider: ZPaymentProviderInputSchema.shape.provider.optional(), config: zSecretObject.optional(), is_active: z.boolean().optional() })
  .strict();
export type PaymentProviderUpdate = z.infer<typeof ZPaymentProviderUpdateSchema>;

export const ZPaymentProviderSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  organization_id: z.string(),
  config: z.record(z.string(), z.unknown()),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PaymentProvider = z.infer<typeof ZPaymentProviderSchema>;
export const ZPaymentProviderListSchema = z.object({ data: z.array(ZPaymentProviderSchema) });

export const ZOemCredentialInputSchema = z.object({
  oem_name: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
  organization_id: zOrgRef,
  credentials: zSecretObject,
});
export type OemCredentialInput = z.infer<typeof ZOemCredentialInputSchema>;

export const ZOemCredentialUpdateSchema = z
  .object({ oem_name: ZOemCredentialInputSchema.shape.oem_name.optional(), credentials: zSecretObject.optional() })
  .strict();
export type OemCredentialUpdate = z.infer<typeof ZOemCredentialUpdateSchema>;

export const ZOemCredentialSchema = z.object({
  id: z.number().int(),
  oem_name: z.string(),
  organization_id: z.string(),
  credentials: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OemCredential = z.infer<typeof ZOemCredentialSchema>;
export const ZOemCredentialListSchema = z.object({ data: z.array(ZOemCredentialSchema) });

export const ZAdminIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, { error: 'must be a positive whole number' })
    .transform(Number)
    .refine((n) => n > 0, { error: 'must be a positive whole number' }),
});

// ------------------------------------------------------------ plans

const zPlanCode = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: 'must be 1 to 64 lower-case letters, digits, - or _' });

export const ZPlanInputSchema = z.object({
  plan_code: zPlanCode,
  name: z.string().trim().max(200).nullish(),
  description: z.string().trim().max(2000).nullish(),
  price: zMoneyInput({ min: 0 }).nullish(),
  currency: z.string().trim().length(3, { error: 'must be a 3-letter currency code' }).toUpperCase().default('USD'),
  /** Feature keys the plan includes. */
  features: z.array(z.string().trim().min(1).max(100)).max(200).default([]),
  /** Limits by name, e.g. {customers: 1000, devices: 1000, users: 5}. */
  quotas: z.record(z.string().max(100), z.number({ error: 'must be a number' }).finite()).default({}),
});
export type PlanInput = z.infer<typeof ZPlanInputSchema>;

export const ZPlanUpdateSchema = ZPlanInputSchema.omit({ plan_code: true })
  .extend({
    currency: z.string().trim().length(3, { error: 'must be a 3-letter currency code' }).toUpperCase().optional(),
    features: z.array(z.string().trim().min(1).max(100)).max(200).optional(),
    quotas: z.record(z.string().max(100), z.number({ error: 'must be a number' }).finite()).optional(),
  })
  .strict();
export type PlanUpdate = z.infer<typeof ZPlanUpdateSchema>;

export const ZPlanSchema = z.object({
  plan_code: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  price: ZMoneySchema.nullable(),
  currency: z.string(),
  features: z.array(z.string()),
  quotas: z.record(z.string(), z.number()),
  organization_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plan = z.infer<typeof ZPlanSchema>;
export const ZPlanListSchema = z.object({ data: z.array(ZPlanSchema) });

export const ZPlanCodeParamSchema = z.object({ code: z.string().trim().min(1).max(64) });

/** POST /admin/org-plans: puts the organization on the plan (replacing its previous plan). */
export const ZOrgPlanInputSchema = z.object({ organization_id: zOrgRef, plan_code: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(64, { error: 'must be at most 64 characters' }) });
export type OrgPlanInput = z.infer<typeof ZOrgPlanInputSchema>;

export const ZOrgPlanSchema = z.object({
  organization_id: z.string(),
  plan_code: z.string(),
  plan_name: z.string().nullable(),
  assigned_at: z.string(),
});
export type OrgPlan = z.infer<typeof ZOrgPlanSchema>;
export const ZOrgPlanListSchema = z.object({ data: z.array(ZOrgPlanSchema) });
export const ZOrgPlanParamSchema = z.object({ organization_id: z.string().trim().min(1).max(64) });

// ------------------------------------------------------------ feature flags

/** POST /admin/features: creates or updates the flag of (feature_key, organization_id); organization_id null = global default. */
export const ZFeatureFlagInputSchema = z.object({
  feature_key: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/, { error: 'must be 1 to 100 lower-case letters, digits, ., - or _' }),
  enabled: z.boolean({ error: 'must be true or false' }),
  organization_id: z.string().trim().min(1).max(64).nullish().transform((v) => v ?? null),
  description: z.string().trim().max(500).nullish(),
});
export type FeatureFlagInput = z.infer<typeof ZFeatureFlagInputSchema>;

export const ZFeatureFlagSchema = z.object({
  id: z.number().int(),
  feature_key: z.string(),
  enabled: z.boolean(),
  organization_id: z.string().nullable(),
  description: z.string().nullable(),
  updated_at: z.string(),
});
export type FeatureFlag = z.infer<typeof ZFeatureFlagSchema>;
/** GET /admin/features?organization_id: that organization's flags and the global ones (all flags without the filter). */
export const ZFeatureFlagListSchema = z.object({ data: z.array(ZFeatureFlagSchema) });
