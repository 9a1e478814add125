import type { SignOutReply } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every session of another user ends at once: they sign in again with their password. The team list does not change. */
export const signOutTeamUser = (id: number) => api.post<SignOutReply>(`/users/${id}/sign-out`);
export const useSignOutTeamUser = () => useMutation({ mutationFn: signOutTeamUser });
