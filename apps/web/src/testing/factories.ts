import type { AuthReply, SessionUser } from '@kidogo/contracts';

export function buildUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    user_id: 7,
    username: 'amina',
    email: 'amina@example.com',
    organization_id: 'org-1',
    role: 'admin',
    app: 'kidogo',
    two_factor_setup_required: false,
    organization_details: {
      organization_id: 'org-1',
      external_key: null,
      name: 'Sunlight Ltd',
      app: 'kidogo',
      status: 'active',
    },
    ...overrides,
  };
}

export function buildAuthReply(overrides: Partial<AuthReply> = {}): AuthReply {
  return {
    access_token: 'access-1',
    token_type: 'bearer',
    expires_in: 3600,
    refresh_token: 'refresh-1',
    user: buildUser(),
    ...overrides,
  };
}

/** Puts a signed-in session in localStorage, as a previous visit would have left it. */
export function seedSession(opts: { token?: string; refreshToken?: string; user?: SessionUser } = {}) {
  localStorage.setItem('authToken', opts.token ?? 'access-1');
  localStorage.setItem('refreshToken', opts.refreshToken ?? 'refresh-1');
  localStorage.setItem('user', JSON.stringify(opts.user ?? buildUser()));
}
