import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { ActivityEntry } from './types';

export async function getOrganizationActivity(id: string, signal?: AbortSignal): Promise<ActivityEntry[]> {
  const reply = await api.get<{ data?: ActivityEntry[] } | ActivityEntry[] | null>(
    `/admin/organizations/${encodeURIComponent(id)}/activity`,
    { query: { limit: 20 }, signal },
  );
  return Array.isArray(reply) ? reply : (reply?.data ?? []);
}

export const organizationActivityQueryOptions = (id: string) =>
  queryOptions({ queryKey: adminKeys.organizationActivity(id), queryFn: ({ signal }) => getOrganizationActivity(id, signal), staleTime: 0 });

export const useOrganizationActivity = (id: string | null) =>
  useQuery({ ...organizationActivityQueryOptions(id ?? ''), enabled: id !== null });
