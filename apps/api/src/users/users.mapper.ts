import type { User } from '@kidogo/contracts';
import { iso } from '../metrics/period.js';

export const USER_SELECT = {
  id: true,
  username: true,
  email: true,
  organization_id: true,
  role: true,
  is_active: true,
  last_login_at: true,
  totp_enabled_at: true,
  created_at: true,
} as const;

export const UsersMapper = {
  user(u: {
    id: number;
    username: string;
    email: string | null;
    organization_id: string;
    role: User['role'];
    is_active: boolean;
    last_login_at: Date | null;
    totp_enabled_at: Date | null;
    created_at: Date;
  }): User {
    return {
      user_id: u.id,
      username: u.username,
      email: u.email,
      organization_id: u.organization_id,
      role: u.role,
      is_active: u.is_active,
      last_login_at: iso(u.last_login_at),
      two_factor_enabled: u.totp_enabled_at !== null,
      created_at: u.created_at.toISOString(),
    };
  },
};
