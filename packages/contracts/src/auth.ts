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

/** Claims of the signed access token. */
export interface AccessTokenClaims {
  sub: string;
  user_id: number;
  username: string;
  org_id: string;
  role: z.infer<typeof ZRoleSchema>;
  app: z.infer<typeof ZAppTypeSchema>;
}
