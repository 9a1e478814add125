import { api } from '@/lib/api-client';
import { useAdminMutation } from './use-admin-mutation';

/** Refused (409, saying what would be lost) while the organization holds data, unless forced. */
export const deleteOrganization = ({ id, force = false }: { id: string; force?: boolean }) =>
  api.delete<{ message: string }>(`/admin/organizations/${encodeURIComponent(id)}`, { query: force ? { force: 'true' } : undefined });

export const useDeleteOrganization = () => useAdminMutation(deleteOrganization);
