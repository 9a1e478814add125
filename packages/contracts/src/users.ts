import { z } from 'zod';
import { ZOffsetPaginationSchema, ZRoleSchema, zQueryInt, zQueryOffset } from './common.js';

export const ZUserSchema = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  organization_id: z.string(),
  role: ZRoleSchema,
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
  /** The user signs in with a code from an authenticator app as well (POST /auth/2fa/enable). */
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof ZUserSchema>;

export const ZUserListQuerySchema = z.object({
  limit: zQueryInt({ default: 50, min: 1, max: 200 }),
  offset: zQueryOffset(),
  /** Matches username or email. */
  search: z.string().trim().max(100).optional(),
  organization_id: z.string().trim().max(64).optional(),
});
export type UserListQuery = z.infer<typeof ZUserListQuerySchema>;

export const ZUserListSchema = z.object({ data: z.array(ZUserSchema), pagination: ZOffsetPaginationSchema });
export type UserList = z.infer<typeof ZUserListSchema>;

export const ZUsernameSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(3, { error: 'must be at least 3 characters' })
  .max(100, { error: 'must be at most 100 characters' })
  .regex(/^[A-Za-z0-9._@-]+$/, { error: 'may contain letters, digits, . _ @ and - only' });
export const ZPasswordSchema = z
  .string({ error: 'is required' })
  .min(8, { error: 'must be at least 8 characters' })
  .max(200, { error: 'must be at most 200 characters' });
const zEmail = z.string({ error: 'is required' }).trim().max(254, { error: 'must be at most 254 characters' }).pipe(z.email({ error: 'must be a valid email' }));

/** POST /admin/users (super admin): any organization, any role. */
export const ZAdminCreateUserSchema = z.object({
  username: ZUsernameSchema,
  email: zEmail,
  password: ZPasswordSchema,
  organization_id: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(64, { error: 'must be at most 64 characters' }),
  role: ZRoleSchema.default('staff'),
});
export type AdminCreateUserInput = z.infer<typeof ZAdminCreateUserSchema>;

/** POST /admin/create-super-admin. */
export const ZCreateSuperAdminSchema = ZAdminCreateUserSchema.omit({ role: true });
export type CreateSuperAdminInput = z.infer<typeof ZCreateSuperAdminSchema>;

export const ZAdminUpdateUserSchema = z
  .object({
    email: zEmail.nullish(),
    password: ZPasswordSchema.optional(),
    role: ZRoleSchema.optional(),
    is_active: z.boolean().optional(),
    organization_id: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type AdminUpdateUserInput = z.infer<typeof ZAdminUpdateUserSchema>;

/** Roles an owner or admin may give in their own organization (an admin may not give owner). */
export const ORG_USER_ROLES = ['owner', 'admin', 'staff'] as const;
export const ZOrgUserRoleSchema = z.enum(ORG_USER_ROLES);

/** POST /users (owner, admin): a user of the caller's own organization. */
export const ZCreateOrgUserSchema = z.object({
  username: ZUsernameSchema,
  email: zEmail,
  password: ZPasswordSchema,
  role: ZOrgUserRoleSchema.default('staff'),
});
export type CreateOrgUserInput = z.infer<typeof ZCreateOrgUserSchema>;

export const ZUpdateOrgUserSchema = z
  .object({
    email: zEmail.nullish(),
    password: ZPasswordSchema.optional(),
    role: ZOrgUserRoleSchema.optional(),
    is_active: z.boolean().optional(),
  })
  .strict();
export type UpdateOrgUserInput = z.infer<typeof ZUpdateOrgUserSchema>;

export const ZOrgUserListQuerySchema = ZUserListQuerySchema.omit({ organization_id: true });
