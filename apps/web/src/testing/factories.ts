import type { AuthReply, Customer, SessionUser } from '@kidogo/contracts';

export function buildUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    user_id: 7,
    username: 'amina',
    email: 'amina@example.com',
    organization_id: 'org-1',
    role: 'admin',
    app: 'kidogo',
    two_factor_setup_required: false,
    two_factor_setup_until: null,
    time_zone: 'Africa/Nairobi',
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

/** A customer as the API answers one: Amina Wanjiru of Nakuru, active, texts welcome. */
export function buildCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    customer_id: 1,
    organization_id: 'org-1',
    customer_name: 'Amina Wanjiru',
    id_number: '12345678',
    phone_contact: '0712345678',
    email: null,
    country: 'Kenya',
    gender: null,
    date_of_birth: null,
    marital_status: null,
    county: 'Nakuru',
    constituency: null,
    ward: null,
    sub_location: null,
    village: null,
    postal_address: null,
    occupation: null,
    employer_name: null,
    education_level: null,
    preferred_language: 'English',
    customer_type: 'individual',
    agent_id: null,
    status: 'active',
    sms_opted_out_at: null,
    sms_opt_out_source: null,
    created_at: '2026-01-05T10:00:00Z',
    updated_at: '2026-01-05T10:00:00Z',
    ...overrides,
  };
}
