// Mirrors packages/contracts/src/{organizations,users,platform,invoices}.ts of
// feat/api-console until they are merged.
import type { AppType, OrgStatus, Role } from '@kidogo/contracts';

export interface Pagination {
  total: number;
  total_pages: number;
  limit: number;
  offset: number;
}

export interface AdminOrganization {
  organization_id: string;
  external_key: string | null;
  name: string | null;
  app: AppType;
  status: OrgStatus | null;
  disabled_reason: string | null;
  status_changed_at: string | null;
  user_count: number | null;
  last_activity: string | null;
  created_at: string;
}

export interface OrganizationList {
  data: AdminOrganization[];
  pagination: Pagination;
}

export interface OrganizationListQuery {
  limit: number;
  offset: number;
  search?: string;
  status?: OrgStatus;
}

export interface CreateOrganizationInput {
  organization_id: string;
  external_key?: string | null;
  app: AppType;
  name?: string | null;
}

export interface OrganizationCounts {
  customers: number;
  devices: number;
  payments: number;
  users: number;
  tokens: number;
  messages: number;
  invoices: number;
}

export interface OrganizationStats {
  total_organizations: number;
  active_organizations: number;
  suspended_organizations: number;
  disabled_organizations: number;
  total_users: number;
}

export interface OrgUserSummary {
  user_id: number;
  username: string;
  email: string | null;
  role: Role;
  is_active: boolean;
  last_login_at: string | null;
  created_at: string;
}

export interface OrganizationDetail extends AdminOrganization {
  counts: OrganizationCounts;
  users: OrgUserSummary[];
  plan_code: string | null;
}

export interface ActivityEntry {
  id: number;
  description: string;
  timestamp: string;
  action: string;
  actor: string | null;
}

export interface OrganizationStatusUpdate {
  status: OrgStatus;
  reason: string | null;
}

export interface OrganizationStatusChange {
  organization_id: string;
  status: OrgStatus;
  disabled_reason: string | null;
  status_changed_at: string | null;
  message: string;
}

export const NOTIFICATION_LEVELS = ['info', 'warning', 'critical'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

// ----------------------------------------------------------------- users

export interface AdminUser {
  user_id: number;
  username: string;
  email: string | null;
  organization_id: string;
  role: Role;
  is_active: boolean;
  last_login_at: string | null;
  created_at: string;
}

export interface UserList {
  data: AdminUser[];
  pagination: Pagination;
}

export interface AdminCreateUserInput {
  username: string;
  email: string;
  password: string;
  organization_id: string;
  role: Role;
}

// ------------------------------------------------------------- token logs

export interface AdminTokenLog {
  id: number;
  organization_id: string;
  serial_number: string;
  generated_token: string;
  token_type: string;
  days_generated?: number;
  status: 'success' | 'error' | (string & {});
  customer_name?: string | null;
  generated_by?: string | null;
  created_at: string;
}

export interface AdminTokenLogQuery {
  limit: number;
  offset: number;
  organization_id?: string;
  status_filter?: 'success' | 'error';
}

// ---------------------------------------------- providers and credentials

export type SecretValue = string | number | boolean | null;

export interface PaymentProvider {
  id: number;
  provider: string;
  organization_id: string;
  config: Record<string, unknown>;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface PaymentProviderInput {
  provider: string;
  organization_id: string;
  config: Record<string, SecretValue>;
  is_active: boolean;
}

export interface OemCredential {
  id: number;
  oem_name: string;
  organization_id: string;
  credentials: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface OemCredentialInput {
  oem_name: string;
  organization_id: string;
  credentials: Record<string, SecretValue>;
}

// ------------------------------------------------------------------ plans

export interface Plan {
  plan_code: string;
  name: string | null;
  description: string | null;
  price: string | null;
  currency: string;
  features: string[];
  quotas: Record<string, number>;
  organization_count: number;
  created_at: string;
  updated_at: string;
}

export interface PlanInput {
  plan_code: string;
  name?: string | null;
  description?: string | null;
  price?: number | null;
  currency: string;
  features: string[];
  quotas: Record<string, number>;
}

export interface OrgPlan {
  organization_id: string;
  plan_code: string;
  plan_name: string | null;
  assigned_at: string;
}

// --------------------------------------------------------------- features

export interface FeatureFlag {
  id: number;
  feature_key: string;
  enabled: boolean;
  organization_id: string | null;
  description: string | null;
  updated_at: string;
}

export interface FeatureFlagInput {
  feature_key: string;
  enabled: boolean;
  organization_id: string | null;
  description?: string | null;
}

// --------------------------------------------------------------- invoices

export interface ConsoleInvoice {
  invoice_id: string;
  invoice_number: string | null;
  organization_id: string;
  organization_name?: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  description: string | null;
  amount: string;
  currency?: string | null;
  status: string;
  due_date: string | null;
  paid_at?: string | null;
  payment_tx_hash?: string | null;
  payment_submitted_at?: string | null;
  created_at: string;
}

export interface ConsoleInvoiceStats {
  total_invoices: number;
  paid_invoices: number;
  pending_invoices: number;
  overdue_invoices?: number;
  total_revenue: string;
}

export interface ConsoleCreateInvoiceInput {
  organization_id: string;
  customer_name: string;
  customer_email: string;
  amount: number;
  description?: string | null;
  due_date?: string | null;
  status: 'pending' | 'paid' | 'overdue' | 'cancelled';
}

export interface GlobalInvoiceSettings {
  default_tax_rate: number;
  default_currency: string;
  invoice_prefix: string;
  template_html: string | null;
  default_payment_terms: number;
  issuer_name: string | null;
  issuer_details: string | null;
  updated_at?: string;
}
