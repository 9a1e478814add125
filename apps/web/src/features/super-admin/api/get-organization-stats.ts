import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { OrganizationStats } from './types';

export const getOrganizationStats = (signal?: AbortSignal) => api.get<OrganizationStats>('/admin/organizations/stats', { signal });

export const organizationStatsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.organizationStats(), queryFn: ({ signal }) => getOrganizationStats(signal) });

export const useOrganizationStats = () => useQuery(organizationStatsQueryOptions());
