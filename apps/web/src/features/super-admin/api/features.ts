import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { FeatureFlag, FeatureFlagInput } from './types';
import { useAdminMutation } from './use-admin-mutation';

export async function getFeatures(org: string, signal?: AbortSignal): Promise<FeatureFlag[]> {
  const reply = await api.get<{ data?: FeatureFlag[] } | null>('/admin/features', { query: { organization_id: org || undefined }, signal });
  return reply?.data ?? [];
}
export const featuresQueryOptions = (org: string) =>
  queryOptions({ queryKey: adminKeys.features(org), queryFn: ({ signal }) => getFeatures(org, signal) });
export const useFeatures = (org: string) => useQuery(featuresQueryOptions(org));

/** Creates or updates the flag of (feature_key, organization_id); organization_id null is the global default. */
export const saveFeature = (input: FeatureFlagInput) => api.post<FeatureFlag>('/admin/features', input);
export const useSaveFeature = () => useAdminMutation(saveFeature);

export const deleteFeature = (id: number) => api.delete<{ message: string }>(`/admin/features/${id}`);
export const useDeleteFeature = () => useAdminMutation(deleteFeature);
