import type { AdminTokenLogQuery, OrganizationListQuery } from './types';

/** Every console query lives under ['super-admin'], so the page spinner can watch them all. */
export const adminKeys = {
  all: ['super-admin'] as const,
  organizations: () => [...adminKeys.all, 'organizations'] as const,
  organizationList: (q: OrganizationListQuery) => [...adminKeys.organizations(), 'list', q] as const,
  organizationOptions: () => [...adminKeys.organizations(), 'options'] as const,
  organizationStats: () => [...adminKeys.organizations(), 'stats'] as const,
  organization: (id: string) => [...adminKeys.organizations(), 'detail', id] as const,
  organizationActivity: (id: string) => [...adminKeys.organizations(), 'activity', id] as const,
  invoices: () => [...adminKeys.all, 'invoices'] as const,
  invoiceList: () => [...adminKeys.invoices(), 'list'] as const,
  invoiceStats: () => [...adminKeys.invoices(), 'stats'] as const,
  invoiceSettings: () => [...adminKeys.all, 'invoice-settings'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  userList: (search: string, offset: number) => [...adminKeys.users(), search, offset] as const,
  tokenLogs: (q: AdminTokenLogQuery) => [...adminKeys.all, 'token-logs', q] as const,
  paymentProviders: (org: string) => [...adminKeys.all, 'payment-providers', org] as const,
  oemCredentials: (org: string) => [...adminKeys.all, 'oem-credentials', org] as const,
  plans: () => [...adminKeys.all, 'plans'] as const,
  orgPlans: () => [...adminKeys.all, 'org-plans'] as const,
  features: (org: string) => [...adminKeys.all, 'features', org] as const,
};
