import type { SignOutReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { sessionKeys } from './keys';

/** Ends every session of the user but this one; each is refused from its next request. */
export const signOutOthers = () => api.post<SignOutReply>('/auth/sessions/sign-out-others');

export function useSignOutOthers() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: signOutOthers, onSuccess: () => refreshAfterWrite(qc, { queryKey: sessionKeys.list() }) });
}
