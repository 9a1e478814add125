import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditCategory, AuditLogQuery, AuditLogReply } from '@kidogo/contracts';
import { api } from '@/lib/api-client';

export type { AuditCategory, AuditEntry } from '@kidogo/contracts';

export const AUDIT_PAGE_SIZE = 25;

/** The Kind filter's choices, in the order of the menu. */
export const CATEGORY_LABELS: Record<AuditCategory, string> = {
  sign_ins: 'Sign-ins',
  team: 'Team',
  payments: 'Payments',
  tokens: 'Tokens',
  devices: 'Devices',
  customers: 'Customers',
  plans: 'Payment plans',
  collections: 'Collections',
  settings: 'Settings',
  invoices: 'Invoices',
};

export type AuditFilters = Partial<Pick<AuditLogQuery, 'category' | 'actor' | 'from' | 'to'>>;

export const auditKeys = {
  all: ['audit-log'] as const,
  page: (filters: AuditFilters, cursor: string | null) => [...auditKeys.all, filters, cursor] as const,
};

export const getAuditLog = (filters: AuditFilters, cursor: string | null, signal?: AbortSignal) =>
  api.get<AuditLogReply>('/audit-log', {
    query: { limit: AUDIT_PAGE_SIZE, ...filters, ...(cursor ? { cursor } : {}) },
    signal,
  });

export const auditLogQueryOptions = (filters: AuditFilters, cursor: string | null) =>
  queryOptions({ queryKey: auditKeys.page(filters, cursor), queryFn: ({ signal }) => getAuditLog(filters, cursor, signal) });

export const useAuditLog = (filters: AuditFilters, cursor: string | null) =>
  useQuery({ ...auditLogQueryOptions(filters, cursor), placeholderData: keepPreviousData });
