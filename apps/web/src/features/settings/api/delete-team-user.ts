import { api } from '@/lib/api-client';
import { useTeamMutation } from './use-team-mutation';

export const deleteTeamUser = (id: number) => api.delete<{ message: string }>(`/users/${id}`);
export const useDeleteTeamUser = () => useTeamMutation(deleteTeamUser);
