import { api } from '@/lib/api-client';
import type { NotificationLevel } from './types';
import { useAdminMutation } from './use-admin-mutation';

export const notifyOrganization = ({ id, message, level }: { id: string; message: string; level: NotificationLevel }) =>
  api.post<unknown>(`/admin/organizations/${encodeURIComponent(id)}/notify`, { message, level });

export const useNotifyOrganization = () => useAdminMutation(notifyOrganization);
