import { api } from '@/lib/api-client';
import { useTeamMutation } from './use-team-mutation';

/** For a user who lost their phone: two-factor sign-in off, and every session of theirs signed out. */
export const resetTeamUserTwoFactor = (id: number) => api.post<{ message: string }>(`/users/${id}/2fa/reset`);
export const useResetTeamUserTwoFactor = () => useTeamMutation(resetTeamUserTwoFactor);
