import { api } from '@/lib/api-client';
import type { AdminOrganization, CreateOrganizationInput } from './types';
import { useAdminMutation } from './use-admin-mutation';

export const createOrganization = (input: CreateOrganizationInput) => api.post<AdminOrganization>('/admin/organizations', input);

export const useCreateOrganization = () => useAdminMutation(createOrganization);
