import type { SignOutReply } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Ends every session of the user at once, this one included: the next call with its token is refused. */
export const signOutEverywhere = () => api.post<SignOutReply>('/auth/sessions/sign-out-everywhere');

/** Nothing to read again afterwards (it would be refused): the caller ends the session here. */
export const useSignOutEverywhere = () => useMutation({ mutationFn: signOutEverywhere });
