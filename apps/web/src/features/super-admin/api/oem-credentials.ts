import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { OemCredential, OemCredentialInput } from './types';
import { useAdminMutation } from './use-admin-mutation';

export async function getOemCredentials(org: string, signal?: AbortSignal): Promise<OemCredential[]> {
  const reply = await api.get<{ data?: OemCredential[] } | null>('/admin/oem-credentials', {
    query: { organization_id: org || undefined },
    signal,
  });
  return reply?.data ?? [];
}
export const oemCredentialsQueryOptions = (org: string) =>
  queryOptions({ queryKey: adminKeys.oemCredentials(org), queryFn: ({ signal }) => getOemCredentials(org, signal) });
export const useOemCredentials = (org: string) => useQuery(oemCredentialsQueryOptions(org));

export const saveOemCredential = ({ id, input }: { id: number | null; input: OemCredentialInput }) =>
  id === null
    ? api.post<OemCredential>('/admin/oem-credentials', input)
    : api.put<OemCredential>(`/admin/oem-credentials/${id}`, { oem_name: input.oem_name, credentials: input.credentials });
export const useSaveOemCredential = () => useAdminMutation(saveOemCredential);

export const deleteOemCredential = (id: number) => api.delete<{ message: string }>(`/admin/oem-credentials/${id}`);
export const useDeleteOemCredential = () => useAdminMutation(deleteOemCredential);
