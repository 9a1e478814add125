import { api } from '@/lib/api-client';
import type { CreateOrgUserInput, TeamUser } from './types';
import { useTeamMutation } from './use-team-mutation';

export const createTeamUser = (input: CreateOrgUserInput) => api.post<TeamUser>('/users', input);
export const useCreateTeamUser = () => useTeamMutation(createTeamUser);
