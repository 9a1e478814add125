import { z } from 'zod';
import { ZAppTypeSchema, ZOffsetPaginationSchema, ZOrgStatusSchema, ZRoleSchema, zQueryInt, zQueryOffset } from './common.js';
import { ZPhoneCountryCodeSchema } from './settings.js';

/** Lower-case letters, digits, - and _, 2 to 64 characters, starting with a letter or digit. */
export const ZOrganizationIdSchema = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{1,63}$/, { error: 'must be 2 to 64 lower-case letters, digits, - or _' });

export const ZAdminOrgParamsSchema = z.object({ id: z.string().trim().min(1).max(64) });

export const ZAdminOrganizationSchema = z.object({
  organization_id: z.string(),
  external_key: z.string().nullable(),
  name: z.string().nullable(),
  app: ZAppTypeSchema,
  status: ZOrgStatusSchema,
  disabled_reason: z.string().nullable(),
  /** Whose numbers those written without a country code are (Settings → Phone Numbers): "254" Kenya. */
  phone_country_code: ZPhoneCountryCodeSchema,
  status_changed_at: z.string().nullable(),
  user_count: z.number().int(),
  /** Latest audit entry, sign-in or recorded activity; null = never (the web shows 'Never'). */
  last_activity: z.string().nullable(),
  created_at: z.string(),
});
export type AdminOrganization = z.infer<typeof ZAdminOrganizationSchema>;

export const ZOrganizationListQuerySchema = z.object({
  limit: zQueryInt({ default: 50, min: 1, max: 200 }),
  offset: zQueryOffset(),
  /** Matches organization id, name or external key. */
  search: z.string().trim().max(100).optional(),
  status: ZOrgStatusSchema.optional(),
});
export type OrganizationListQuery = z.infer<typeof ZOrganizationListQuerySchema>;

export const ZOrganizationListSchema = z.object({ data: z.array(ZAdminOrganizationSchema), pagination: ZOffsetPaginationSchema });
export type OrganizationList = z.infer<typeof ZOrganizationListSchema>;

const zOptionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const ZCreateOrganizationSchema = z.object({
  organization_id: ZOrganizationIdSchema,
  external_key: zOptionalText(128),
  app: ZAppTypeSchema.default('kidogo'),
  name: zOptionalText(200),
  /** The country of its customers' phone numbers, Kenya ("254") unless given; its owners can change it in Settings. */
  phone_country_code: ZPhoneCountryCodeSchema.default('254'),
});
export type CreateOrganizationInput = z.infer<typeof ZCreateOrganizationSchema>;

export const ZUpdateOrganizationSchema = z
  .object({
    external_key: zOptionalText(128).optional(),
    app: ZAppTypeSchema.optional(),
    name: zOptionalText(200).optional(),
  })
  .strict();
export type UpdateOrganizationInput = z.infer<typeof ZUpdateOrganizationSchema>;

export const ZDeleteOrganizationQuerySchema = z.object({
  force: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** What an organization holds; the 409 of a refused delete lists the same counts. */
export const ZOrganizationCountsSchema = z.object({
  customers: z.number().int(),
  devices: z.number().int(),
  payments: z.number().int(),
  users: z.number().int(),
  tokens: z.number().int(),
  messages: z.number().int(),
  invoices: z.number().int(),
});
export type OrganizationCounts = z.infer<typeof ZOrganizationCountsSchema>;

export const ZDeleteOrganizationReplySchema = z.object({ message: z.string(), deleted: ZOrganizationCountsSchema });

export const ZOrganizationStatsSchema = z.object({
  total_organizations: z.number().int(),
  active_organizations: z.number().int(),
  suspended_organizations: z.number().int(),
  disabled_organizations: z.number().int(),
  total_users: z.number().int(),
});
export type OrganizationStats = z.infer<typeof ZOrganizationStatsSchema>;

export const ZOrgUserSummarySchema = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  role: ZRoleSchema,
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
});

export const ZOrganizationDetailSchema = ZAdminOrganizationSchema.extend({
  counts: ZOrganizationCountsSchema,
  users: z.array(ZOrgUserSummarySchema),
  plan_code: z.string().nullable(),
});
export type OrganizationDetail = z.infer<typeof ZOrganizationDetailSchema>;

export const ZOrganizationActivityQuerySchema = z.object({ limit: zQueryInt({ default: 20, min: 1, max: 200 }) });

/** Audit entries of the organization, newest first: sign-ins, status changes, users, invoices, imports, deletions. */
export const ZOrganizationActivitySchema = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      description: z.string(),
      timestamp: z.string(),
      action: z.string(),
      actor: z.string().nullable(),
    }),
  ),
});
export type OrganizationActivity = z.infer<typeof ZOrganizationActivitySchema>;

export const ZOrganizationStatusUpdateSchema = z
  .object({
    status: ZOrgStatusSchema,
    reason: z
      .string()
      .trim()
      .max(1000)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((v, ctx) => {
    if (v.status !== 'active' && !v.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: `is required to make an organization ${v.status}` });
    }
  });
export type OrganizationStatusUpdate = z.infer<typeof ZOrganizationStatusUpdateSchema>;

export const ZOrganizationStatusSchema = z.object({
  organization_id: z.string(),
  status: ZOrgStatusSchema,
  disabled_reason: z.string().nullable(),
  status_changed_at: z.string().nullable(),
});
export type OrganizationStatusReply = z.infer<typeof ZOrganizationStatusSchema>;

/** PUT /admin/organizations/{id}/status: message is 'Organization activated|suspended|disabled successfully'. */
export const ZOrganizationStatusChangeSchema = ZOrganizationStatusSchema.extend({ message: z.string() });

export const NOTIFICATION_LEVELS = ['info', 'warning', 'critical'] as const;

export const ZNotifySchema = z.object({
  message: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(1000, { error: 'must be at most 1000 characters' }),
  level: z.enum(NOTIFICATION_LEVELS).default('info'),
});
export type NotifyInput = z.infer<typeof ZNotifySchema>;

export const ZNotificationSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  level: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
});
export type OrgNotification = z.infer<typeof ZNotificationSchema>;

/** GET /notifications: the caller's organization's 20 newest notifications. */
export const ZNotificationListSchema = z.object({ data: z.array(ZNotificationSchema) });
export type NotificationList = z.infer<typeof ZNotificationListSchema>;
