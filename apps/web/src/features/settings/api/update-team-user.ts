import { api } from '@/lib/api-client';
import type { TeamUser, UpdateOrgUserInput } from './types';
import { useTeamMutation } from './use-team-mutation';

/** Only the fields that change; a password here signs the user out everywhere. */
export const updateTeamUser = ({ id, changes }: { id: number; changes: UpdateOrgUserInput }) => api.put<TeamUser>(`/users/${id}`, changes);
export const useUpdateTeamUser = () => useTeamMutation(updateTeamUser);
