import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { AdminOrganization, OrganizationList, OrganizationListQuery } from './types';

export const ORGANIZATION_PAGE_SIZE = 50;

export async function getOrganizations(q: OrganizationListQuery, signal?: AbortSignal) {
  const reply = await api.get<Partial<OrganizationList> | AdminOrganization[] | null>('/admin/organizations', {
    query: { limit: q.limit, offset: q.offset, search: q.search, status: q.status },
    signal,
  });
  const data = Array.isArray(reply) ? reply : (reply?.data ?? []);
  const total = Array.isArray(reply) ? reply.length : (reply?.pagination?.total ?? data.length);
  return { data, total };
}

export const organizationsQueryOptions = (q: OrganizationListQuery) =>
  queryOptions({ queryKey: adminKeys.organizationList(q), queryFn: ({ signal }) => getOrganizations(q, signal) });

export const useOrganizations = (q: OrganizationListQuery) =>
  useQuery({ ...organizationsQueryOptions(q), placeholderData: keepPreviousData });

/** Every organization (up to 200), for the pickers of the other tabs. */
export const organizationOptionsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.organizationOptions(),
    queryFn: ({ signal }) => getOrganizations({ limit: 200, offset: 0 }, signal).then((r) => r.data),
  });

export const useOrganizationOptions = () => useQuery(organizationOptionsQueryOptions());

export const organizationLabel = (o: Pick<AdminOrganization, 'organization_id' | 'name'>) =>
  o.name ? `${o.name} (${o.organization_id})` : o.organization_id;
