import { useMutation } from '@tanstack/react-query';
import { adoptSession, api } from '@/lib/api-client';
import type { AuthReply, ChangePasswordInput } from './types';

/** The server revokes every refresh token of the user and answers a fresh session. */
export const changePassword = (input: ChangePasswordInput) => api.post<AuthReply>('/auth/change-password', input);

/** On success this browser takes the new session, so it stays signed in while every other one is signed out. */
export const useChangePassword = () => useMutation({ mutationFn: changePassword, onSuccess: (reply) => adoptSession(reply) });
