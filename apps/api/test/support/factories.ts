import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import bcrypt from 'bcryptjs';
import type { AccessTokenClaims, Role } from '@kidogo/contracts';
import type { TestApp } from './test-app.js';

export const DEFAULT_PASSWORD = 'password123';
// Hashing is slow on purpose; tests share one hash.
const DEFAULT_HASH = bcrypt.hashSync(DEFAULT_PASSWORD, 4);

const uniq = () => randomBytes(4).toString('hex');

export interface SeededUser {
  user_id: number;
  username: string;
  role: Role;
  organization_id: string;
  token: string;
  auth: { Authorization: string };
}

export async function seedOrg(
  t: TestApp,
  data: { id?: string; status?: 'active' | 'suspended' | 'disabled'; disabled_reason?: string | null } = {},
) {
  return t.db.platform.organization.create({
    data: {
      id: data.id ?? `org-${uniq()}`,
      status: data.status ?? 'active',
      disabled_reason: data.disabled_reason ?? null,
      status_changed_at: data.status && data.status !== 'active' ? new Date() : null,
    },
  });
}

/** A user with a signed access token, like one from POST /payg/authenticate. */
export async function seedUser(
  t: TestApp,
  data: { organization_id: string; role?: Role; username?: string; password?: string },
): Promise<SeededUser> {
  const role = data.role ?? 'owner';
  const user = await t.db.platform.user.create({
    data: {
      username: data.username ?? `${role}-${uniq()}`,
      password_hash: data.password ? bcrypt.hashSync(data.password, 4) : DEFAULT_HASH,
      role,
      organization_id: data.organization_id,
      email: `${uniq()}@example.test`,
    },
    include: { organization: true },
  });
  const token = signToken(t, {
    sub: String(user.id),
    user_id: user.id,
    username: user.username,
    org_id: user.organization_id,
    role: user.role,
    app: user.organization.app,
  });
  return {
    user_id: user.id,
    username: user.username,
    role,
    organization_id: user.organization_id,
    token,
    auth: { Authorization: `Bearer ${token}` },
  };
}

export function signToken(t: TestApp, claims: AccessTokenClaims, opts: { secret?: string; expiresIn?: number } = {}): string {
  return new JwtService().sign(claims, {
    secret: opts.secret ?? t.config.jwtSecret,
    algorithm: 'HS256',
    expiresIn: opts.expiresIn ?? 3600,
  });
}

/** An organization with an owner: the usual starting point of a test. */
export async function seedTenant(t: TestApp, opts: { role?: Role; status?: 'active' | 'suspended' | 'disabled' } = {}) {
  const org = await seedOrg(t, { status: opts.status });
  const user = await seedUser(t, { organization_id: org.id, role: opts.role ?? 'owner' });
  return { org, user };
}
