import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionUser } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { invoiceKeys } from './keys';
import type { OrganizationOption } from './types';

/**
 * Organizations an invoice may be billed to: every one for a super admin,
 * the owner's own organization otherwise (an owner bills only their own).
 */
export async function getOrganizationOptions(user: SessionUser | null, signal?: AbortSignal): Promise<OrganizationOption[]> {
  if (user?.role === 'super_admin') {
    const reply = await api.get<{ data?: OrganizationOption[] } | OrganizationOption[] | null>('/admin/organizations', {
      query: { limit: 200, offset: 0 },
      signal,
    });
    return Array.isArray(reply) ? reply : (reply?.data ?? []);
  }
  if (!user) return [];
  return [{ organization_id: user.organization_id, name: user.organization_details?.name ?? null }];
}

export const organizationOptionsQueryOptions = (user: SessionUser | null) =>
  queryOptions({
    queryKey: [...invoiceKeys.organizations(), user?.role ?? 'anonymous', user?.organization_id ?? ''] as const,
    queryFn: ({ signal }) => getOrganizationOptions(user, signal),
  });

export const useOrganizationOptions = (user: SessionUser | null, enabled: boolean) =>
  useQuery({ ...organizationOptionsQueryOptions(user), enabled });
