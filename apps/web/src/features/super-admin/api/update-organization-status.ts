import { api } from '@/lib/api-client';
import type { OrganizationStatusChange, OrganizationStatusUpdate } from './types';
import { useAdminMutation } from './use-admin-mutation';

export const updateOrganizationStatus = ({ id, ...body }: OrganizationStatusUpdate & { id: string }) =>
  api.put<OrganizationStatusChange>(`/admin/organizations/${encodeURIComponent(id)}/status`, body);

export const useUpdateOrganizationStatus = () => useAdminMutation(updateOrganizationStatus);
