import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { OrganizationDetail } from './types';

export const getOrganization = (id: string, signal?: AbortSignal) =>
  api.get<OrganizationDetail>(`/admin/organizations/${encodeURIComponent(id)}`, { signal });

export const organizationQueryOptions = (id: string) =>
  queryOptions({ queryKey: adminKeys.organization(id), queryFn: ({ signal }) => getOrganization(id, signal), staleTime: 0 });

export const useOrganization = (id: string | null) => useQuery({ ...organizationQueryOptions(id ?? ''), enabled: id !== null });
