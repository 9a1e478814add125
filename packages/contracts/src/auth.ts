import { z } from 'zod';
import { ZAppTypeSchema, ZOrgStatusSchema, ZRoleSchema } from './common.js';
import { ZPasswordSchema } from './users.js';

export const ZLoginSchema = z.object({
  username: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
  password: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(200, { error: 'must be at most 200 characters' }),
});
export type LoginInput = z.infer<typeof ZLoginSchema>;

export const ZOrganizationDetailsSchema = z.object({
  organization_id: z.string(),
  external_key: z.string().nullable(),
  name: z.string().nullable(),
  app: ZAppTypeSchema,
  status: ZOrgStatusSchema,
});
export type OrganizationDetails = z.infer<typeof ZOrganizationDetailsSchema>;

export const ZSessionUserSchema = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  organization_id: z.string(),
  role: ZRoleSchema,
  app: ZAppTypeSchema,
  organization_details: ZOrganizationDetailsSchema,
  /**
   * The organization requires two-factor sign-in and this user has not set it up: until they do, every call but
   * GET /me, GET /auth/2fa, POST /auth/2fa/setup and /enable and POST /auth/change-password answers 403 TWO_FACTOR_REQUIRED.
   */
  two_factor_setup_required: z.boolean(),
  /**
   * While two_factor_setup_required: until when the user may set it up with the password alone
   * (TWO_FACTOR_SETUP_DAYS from when it was required of them); null or past, the time has passed and only an owner or
   * admin (Team → Reset Two-Factor) can open it again. Null when nothing is required.
   */
  two_factor_setup_until: z.string().nullable(),
  /**
   * The installation's business time zone (TIME_ZONE, an IANA name such as Africa/Nairobi): the zone in which the
   * API counts days (periods, reports, due dates). The web computes "today" in it, not in the browser's zone.
   */
  time_zone: z.string(),
});
export type SessionUser = z.infer<typeof ZSessionUserSchema>;

export const ZAuthReplySchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  user: ZSessionUserSchema,
});
export type AuthReply = z.infer<typeof ZAuthReplySchema>;

export const ZRefreshSchema = z.object({
  refresh_token: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(200, { error: 'must be at most 200 characters' }),
});
export type RefreshInput = z.infer<typeof ZRefreshSchema>;

/**
 * POST /auth/change-password (any signed-in user, for their own account).
 * The new password follows the rules of a new user's (ZPasswordSchema); the
 * current one is only checked against the stored hash, so it keeps the
 * sign-in form's rule (whatever the user was given may still be in use).
 */
export const ZChangePasswordSchema = z
  .object({
    current_password: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(200, { error: 'must be at most 200 characters' }),
    new_password: ZPasswordSchema,
  })
  .refine((v) => v.new_password !== v.current_password, { path: ['new_password'], error: 'must be different from the current password' });
export type ChangePasswordInput = z.infer<typeof ZChangePasswordSchema>;

/** How long an emailed link to choose a new password works (POST /auth/password-reset). */
export const PASSWORD_RESET_MINUTES = 30;

/** GET /auth/password-reset (public): whether this installation can email a link (SMTP_URL and PUBLIC_URL are set). */
export const ZPasswordResetAvailabilitySchema = z.object({ available: z.boolean() });
export type PasswordResetAvailability = z.infer<typeof ZPasswordResetAvailabilitySchema>;

/** POST /auth/password-reset (public): the username, or the email address of the account. */
export const ZPasswordResetRequestSchema = z.object({
  login: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(254, { error: 'must be at most 254 characters' }),
});
export type PasswordResetRequestInput = z.infer<typeof ZPasswordResetRequestSchema>;

/** POST /auth/password-reset/confirm (public): the token of the emailed link and the new password. */
export const ZPasswordResetConfirmSchema = z.object({
  token: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200, { error: 'must be at most 200 characters' }),
  new_password: ZPasswordSchema,
});
export type PasswordResetConfirmInput = z.infer<typeof ZPasswordResetConfirmSchema>;

/** The reply to every password-reset request, whether an account matched or not (it does not tell which). */
export const PASSWORD_RESET_SENT =
  `If an active account has that username or email address, a link to choose a new password has been sent to its email address. It works for ${PASSWORD_RESET_MINUTES} minutes.`;

/** Claims of the signed access token. */
export interface AccessTokenClaims {
  sub: string;
  user_id: number;
  username: string;
  org_id: string;
  role: z.infer<typeof ZRoleSchema>;
  app: z.infer<typeof ZAppTypeSchema>;
  /** The sign-in this token belongs to (GET /auth/sessions' session_id); absent in tokens issued before sessions were listed. */
  sid?: string;
}

/** What every API token starts with: the API tells it from a signed access token by it. */
export const API_TOKEN_PREFIX = 'kdg_pat_';
/** How long a new API token lasts unless told otherwise; at most a year, or never (null). */
export const API_TOKEN_DEFAULT_DAYS = 90;
export const API_TOKEN_MAX_DAYS = 365;

/** POST /auth/api-tokens: a token for an integration, acting as the caller. */
export const ZApiTokenCreateSchema = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .max(100, { error: 'must be at most 100 characters' }),
  /** Days it lasts (1 to 365, default 90); null for a token that does not expire. */
  expires_in_days: z
    .number({ error: `must be a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}, or null for never` })
    .int({ error: 'must be a whole number of days' })
    .min(1, { error: 'must be at least 1' })
    .max(API_TOKEN_MAX_DAYS, { error: `must be at most ${API_TOKEN_MAX_DAYS}` })
    .nullable()
    .default(API_TOKEN_DEFAULT_DAYS),
  /** May only read (GET routes, searches, reports): for a dashboard or a data warehouse. */
  read_only: z.boolean({ error: 'must be true or false' }).default(false),
});
export type ApiTokenCreateInput = z.input<typeof ZApiTokenCreateSchema>;

export const ZApiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's last characters: kdg_pat_…Ab3x. */
  hint: z.string(),
  user_id: z.number().int(),
  username: z.string(),
  created_at: z.string(),
  /** Null: it does not expire. */
  expires_at: z.string().nullable(),
  /** Last request made with it (to the minute); null when never used. */
  last_used_at: z.string().nullable(),
  expired: z.boolean(),
  read_only: z.boolean(),
});
export type ApiToken = z.infer<typeof ZApiTokenSchema>;

/** GET /auth/api-tokens: the caller's tokens; an owner's or admin's, every token of the organization. Revoked ones are gone. */
export const ZApiTokenListReplySchema = z.object({ data: z.array(ZApiTokenSchema) });
export type ApiTokenListReply = z.infer<typeof ZApiTokenListReplySchema>;

/** A new token: the whole secret, shown this once. */
export const ZApiTokenCreatedSchema = ZApiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof ZApiTokenCreatedSchema>;
